// Strategy parameters as form fields (strings, as inputs hold them) and back to the
// engine's `Strategy` JSON, with the checks the engine would otherwise reject.

import {
  DEFAULT_SECTION_SCORING,
  defaultFusion,
  defaultStrategies,
  FUSION_METHODS,
  SECTION_SCORINGS,
  STRATEGY_NAMES,
  type Fusion,
  type FusionMethod,
  type SearchSettings,
  type SectionScoring,
  type Strategy,
  type StrategyName,
} from './api';

export interface FieldSpec {
  key: string;
  label: string;
  min: number;
  max: number;
  step: number;
  integer: boolean;
  help: string;
}

export const STRATEGY_LABELS: Record<StrategyName, string> = {
  flat: 'Flat top-k',
  branch: 'Branch',
  beam: 'Beam (fixed width)',
  knee: 'Knee',
  'sensitive-knee': 'Sensitive knee',
  'largest-gap': 'Largest gap',
  'collapsed-tree': 'Collapsed tree',
  'proxy-pointer': 'Proxy-pointer',
};

export const STRATEGY_HELP: Record<StrategyName, string> = {
  flat: 'Hybrid top-k over pages only: the baseline.',
  branch: 'The best roots; each node is replaced by the children that rank above it.',
  beam: 'A beam of fixed width descending the trees.',
  knee: 'A beam cut at the knee of the score curve at every step.',
  'sensitive-knee': 'As knee, keeping every point within the sensitivity of the knee.',
  'largest-gap': 'As knee, but each step is cut where the drop between neighbouring scores is largest (Adaptive-k).',
  'collapsed-tree': 'No descent: the best nodes of every level in one list, cut at the knee (RAPTOR); shows whether walking the tree helps.',
  'proxy-pointer': 'An LLM reads the best section summaries and points at pages.',
};

export const STRATEGY_FIELDS: Record<StrategyName, FieldSpec[]> = {
  flat: [{ key: 'k', label: 'k', min: 1, max: 200, step: 1, integer: true, help: 'pages to take' }],
  branch: [
    { key: 'roots', label: 'roots', min: 1, max: 100, step: 1, integer: true, help: 'roots to start from' },
  ],
  beam: [
    { key: 'width', label: 'beam width', min: 1, max: 100, step: 1, integer: true, help: 'nodes kept per step' },
  ],
  knee: [
    { key: 'max_roots', label: 'max roots', min: 1, max: 500, step: 1, integer: true, help: 'roots ranked at most' },
  ],
  'sensitive-knee': [
    {
      key: 'sensitivity',
      label: 'sensitivity',
      min: 0,
      max: 1,
      step: 0.01,
      integer: false,
      help: '1 cuts at the knee, 0 keeps everything',
    },
    { key: 'max_roots', label: 'max roots', min: 1, max: 500, step: 1, integer: true, help: 'roots ranked at most' },
  ],
  'largest-gap': [
    { key: 'max_roots', label: 'max roots', min: 1, max: 500, step: 1, integer: true, help: 'roots ranked at most' },
  ],
  'collapsed-tree': [
    { key: 'depth', label: 'depth', min: 1, max: 500, step: 1, integer: true, help: 'nodes of all levels ranked at most' },
  ],
  'proxy-pointer': [
    { key: 'proxies', label: 'proxies', min: 1, max: 200, step: 1, integer: true, help: 'section summaries shown to the LLM' },
  ],
};

export type FieldValues = Record<string, string>;

/** The form values of a strategy's parameters. */
export function strategyToValues(strategy: Strategy): FieldValues {
  const values: FieldValues = {};
  for (const field of STRATEGY_FIELDS[strategy.name]) {
    const v = (strategy as unknown as Record<string, unknown>)[field.key];
    values[field.key] = typeof v === 'number' ? String(v) : '';
  }
  return values;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: Record<string, string> };

function parseNumber(raw: string | undefined, spec: FieldSpec): number | string {
  const text = (raw ?? '').trim();
  if (text === '') return `${spec.label} is required`;
  const v = Number(text);
  if (!Number.isFinite(v)) return `${spec.label} must be a number`;
  if (spec.integer && !Number.isInteger(v)) return `${spec.label} must be a whole number`;
  if (v < spec.min || v > spec.max) return `${spec.label} must be between ${spec.min} and ${spec.max}`;
  return v;
}

/** A strategy from its form values, or a message per wrong field. */
export function valuesToStrategy(name: StrategyName, values: FieldValues): Parsed<Strategy> {
  const errors: Record<string, string> = {};
  const numbers: Record<string, number> = {};
  for (const spec of STRATEGY_FIELDS[name]) {
    const v = parseNumber(values[spec.key], spec);
    if (typeof v === 'string') errors[spec.key] = v;
    else numbers[spec.key] = v;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const n = (key: string) => numbers[key] ?? 0;
  let value: Strategy;
  switch (name) {
    case 'flat':
      value = { name, k: n('k') };
      break;
    case 'branch':
      value = { name, roots: n('roots') };
      break;
    case 'beam':
      value = { name, width: n('width') };
      break;
    case 'knee':
      value = { name, max_roots: n('max_roots') };
      break;
    case 'sensitive-knee':
      value = { name, sensitivity: n('sensitivity'), max_roots: n('max_roots') };
      break;
    case 'largest-gap':
      value = { name, max_roots: n('max_roots') };
      break;
    case 'collapsed-tree':
      value = { name, depth: n('depth') };
      break;
    case 'proxy-pointer':
      value = { name, proxies: n('proxies') };
      break;
  }
  return { ok: true, value };
}

/** Validates JSON that claims to be a Strategy (history, settings); null when it is not. */
export function strategyFromJson(json: unknown): Strategy | null {
  if (!json || typeof json !== 'object') return null;
  const record = json as Record<string, unknown>;
  const name = record.name;
  if (typeof name !== 'string' || !(STRATEGY_NAMES as readonly string[]).includes(name)) return null;
  const values: FieldValues = {};
  for (const spec of STRATEGY_FIELDS[name as StrategyName]) {
    const v = record[spec.key];
    values[spec.key] = typeof v === 'number' ? String(v) : '';
  }
  const parsed = valuesToStrategy(name as StrategyName, values);
  return parsed.ok ? parsed.value : null;
}

/** Every strategy: those given (in any order) and the defaults for the rest, in order. */
export function completeStrategies(given: readonly Strategy[] | null | undefined): Strategy[] {
  const byName = new Map<StrategyName, Strategy>();
  for (const s of given ?? []) {
    const valid = strategyFromJson(s);
    if (valid) byName.set(valid.name, valid);
  }
  return defaultStrategies().map((d) => byName.get(d.name) ?? d);
}

export function strategyLabel(name: string): string {
  return (STRATEGY_LABELS as Record<string, string>)[name] ?? name;
}

/** "knee · max roots 20". */
export function describeStrategy(strategy: Strategy): string {
  const params = STRATEGY_FIELDS[strategy.name].map((spec) => {
    const v = (strategy as unknown as Record<string, unknown>)[spec.key];
    return `${spec.label} ${typeof v === 'number' ? v : '?'}`;
  });
  return [strategy.name, ...params].join(' · ');
}

export const FUSION_LABELS: Record<FusionMethod, string> = {
  rrf: 'RRF',
  dbsf: 'DBSF',
  'min-max': 'Min–max',
};

export const FUSION_HELP: Record<FusionMethod, string> = {
  rrf: 'Reciprocal rank fusion: only ranks count, so the score curve has nearly the same shape for every question.',
  dbsf: 'Each list (dense, BM25) normalised by its mean ± 3 standard deviations, then summed with the weights.',
  'min-max': 'Each list (dense, BM25) scaled to 0–1, then summed with the weights.',
};

/** Why the RRF k input is off: a score fusion has no k, and the knee follows the scores. */
export const RRF_K_UNUSED = 'Only RRF uses k; DBSF and min–max fuse the scores themselves, so the knee follows the evidence.';

export const SECTION_SCORING_LABELS: Record<SectionScoring, string> = {
  'own-text': 'Own text',
  'best-page': 'Best page',
};

export const SECTION_SCORING_HELP: Record<SectionScoring, string> = {
  'own-text': 'A section is scored by its own summary and keywords only.',
  'best-page': 'A section scores the best of its own and its pages’ similarities, so it cannot hide a good page.',
};

/** "RRF k = 2", "DBSF": what the fusion is, with k only where it counts. */
export function describeFusion(fusion: Fusion): string {
  // A shell from before the choice sends no method; its fusion was RRF.
  const method: FusionMethod = isFusionMethod(fusion.method) ? fusion.method : 'rrf';
  const label = FUSION_LABELS[method];
  return method === 'rrf' ? `${label} k = ${fusion.rrf_k}` : label;
}

/** "Best page"; a result from a shell without the setting says so rather than guess. */
export function sectionScoringLabel(scoring: SectionScoring | undefined): string {
  return isSectionScoring(scoring) ? SECTION_SCORING_LABELS[scoring] : 'not recorded';
}

export function isFusionMethod(value: unknown): value is FusionMethod {
  return typeof value === 'string' && (FUSION_METHODS as readonly string[]).includes(value);
}

export function isSectionScoring(value: unknown): value is SectionScoring {
  return typeof value === 'string' && (SECTION_SCORINGS as readonly string[]).includes(value);
}

/**
 * Validates JSON that claims to be a Fusion (history, the shell's defaults); null when it
 * is not. A missing method is RRF, as the engine reads it: it was the only fusion there was.
 */
export function fusionFromJson(json: unknown): Fusion | null {
  if (!json || typeof json !== 'object') return null;
  const fusion = json as Record<string, unknown>;
  if (typeof fusion.rrf_k !== 'number') return null;
  const method = fusion.method === undefined ? 'rrf' : fusion.method;
  if (!isFusionMethod(method)) return null;
  return {
    method,
    rrf_k: fusion.rrf_k,
    dense_weight: typeof fusion.dense_weight === 'number' ? fusion.dense_weight : 1,
    sparse_weight: typeof fusion.sparse_weight === 'number' ? fusion.sparse_weight : 1,
  };
}

export interface SearchFormValues {
  rrfK: string;
  tokenBudget: string;
  denseWeight?: string;
  sparseWeight?: string;
  /** Missing: the base fusion's method. */
  fusionMethod?: string;
  /** Missing: the default section scoring. */
  sectionScoring?: string;
}

/** Search settings from the fusion and token budget inputs (an empty budget means none). */
export function valuesToSettings(
  values: SearchFormValues,
  documents: number[] | null = null,
  base: Fusion = defaultFusion(),
): Parsed<SearchSettings> {
  const errors: Record<string, string> = {};
  let method = base.method;
  if (values.fusionMethod !== undefined) {
    if (isFusionMethod(values.fusionMethod)) method = values.fusionMethod;
    else errors.fusionMethod = 'Fusion must be RRF, DBSF or min–max';
  }
  let sectionScoring = DEFAULT_SECTION_SCORING;
  if (values.sectionScoring !== undefined) {
    if (isSectionScoring(values.sectionScoring)) sectionScoring = values.sectionScoring;
    else errors.sectionScoring = 'Section scoring must be own text or best page';
  }
  const rawK = values.rrfK.trim();
  const rrf = Number(rawK);
  // k = 0 would give the best rank 1/0, and the shell refuses it.
  const validK = rawK !== '' && Number.isFinite(rrf) && rrf >= 1 && Number.isInteger(rrf);
  // The other fusions ignore k, and their form disables its input: a stale or blank
  // value there must not block a search.
  if (!validK && method === 'rrf') errors.rrfK = 'RRF k must be a whole number, 1 or more';
  let budget: number | null = null;
  const rawBudget = values.tokenBudget.trim();
  if (rawBudget !== '') {
    const b = Number(rawBudget);
    if (!Number.isInteger(b) || b <= 0) errors.tokenBudget = 'Token budget must be a whole number above 0, or empty';
    else budget = b;
  }
  const weight = (raw: string | undefined, fallback: number, key: string) => {
    if (raw === undefined || raw.trim() === '') return fallback;
    const w = Number(raw.trim());
    if (!Number.isFinite(w) || w < 0) {
      errors[key] = 'Weights must be numbers, 0 or more';
      return fallback;
    }
    return w;
  };
  const dense = weight(values.denseWeight, base.dense_weight, 'denseWeight');
  const sparse = weight(values.sparseWeight, base.sparse_weight, 'sparseWeight');
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      fusion: { method, rrf_k: validK ? rrf : base.rrf_k, dense_weight: dense, sparse_weight: sparse },
      section_scoring: sectionScoring,
      token_budget: budget,
      documents,
    },
  };
}

export function settingsToValues(
  settings: Pick<SearchSettings, 'fusion' | 'token_budget'> & { section_scoring?: SectionScoring },
): SearchFormValues {
  return {
    rrfK: String(settings.fusion.rrf_k),
    tokenBudget: settings.token_budget === null ? '' : String(settings.token_budget),
    denseWeight: String(settings.fusion.dense_weight),
    sparseWeight: String(settings.fusion.sparse_weight),
    fusionMethod: settings.fusion.method,
    sectionScoring: settings.section_scoring ?? DEFAULT_SECTION_SCORING,
  };
}

/** What a history entry's `settings` holds: `{ strategy, search }`, each checked. */
export function runSettings(settings: unknown): { strategy: Strategy | null; search: SearchSettings | null } {
  if (!settings || typeof settings !== 'object') return { strategy: null, search: null };
  const record = settings as Record<string, unknown>;
  const strategy = strategyFromJson(record.strategy);
  let search: SearchSettings | null = null;
  const s = record.search;
  if (s && typeof s === 'object') {
    const fields = s as Record<string, unknown>;
    const fusion = fusionFromJson(fields.fusion);
    const budget = fields.token_budget;
    const docs = fields.documents;
    if (fusion) {
      search = {
        fusion,
        // Runs recorded before the choice scored sections by their own text: say what
        // they did, and re-run them the same way.
        section_scoring: isSectionScoring(fields.section_scoring) ? fields.section_scoring : 'own-text',
        token_budget: typeof budget === 'number' ? budget : null,
        documents: Array.isArray(docs) ? docs.filter((d): d is number => typeof d === 'number') : null,
      };
    }
  }
  return { strategy, search };
}
