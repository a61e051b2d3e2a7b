// Strategy parameters as form fields (strings, as inputs hold them) and back to the
// engine's `Strategy` JSON, with the checks the engine would otherwise reject.

import {
  defaultFusion,
  defaultStrategies,
  STRATEGY_NAMES,
  type Fusion,
  type SearchSettings,
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
  'proxy-pointer': 'Proxy-pointer',
};

export const STRATEGY_HELP: Record<StrategyName, string> = {
  flat: 'Hybrid top-k over pages only: the baseline.',
  branch: 'The best roots; each node is replaced by the children that rank above it.',
  beam: 'A beam of fixed width descending the trees.',
  knee: 'A beam cut at the knee of the score curve at every step.',
  'sensitive-knee': 'As knee, keeping every point within the sensitivity of the knee.',
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

/** All six strategies: those given (in any order) and the defaults for the rest, in order. */
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

export interface SearchFormValues {
  rrfK: string;
  tokenBudget: string;
  denseWeight?: string;
  sparseWeight?: string;
}

/** Search settings from the RRF k and token budget inputs (an empty budget means none). */
export function valuesToSettings(
  values: SearchFormValues,
  documents: number[] | null = null,
  base: Fusion = defaultFusion(),
): Parsed<SearchSettings> {
  const errors: Record<string, string> = {};
  const rrf = Number(values.rrfK.trim());
  if (values.rrfK.trim() === '' || !Number.isFinite(rrf) || rrf < 0 || !Number.isInteger(rrf)) {
    errors.rrfK = 'RRF k must be a whole number, 0 or more';
  }
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
      fusion: { rrf_k: rrf, dense_weight: dense, sparse_weight: sparse },
      token_budget: budget,
      documents,
    },
  };
}

export function settingsToValues(settings: Pick<SearchSettings, 'fusion' | 'token_budget'>): SearchFormValues {
  return {
    rrfK: String(settings.fusion.rrf_k),
    tokenBudget: settings.token_budget === null ? '' : String(settings.token_budget),
    denseWeight: String(settings.fusion.dense_weight),
    sparseWeight: String(settings.fusion.sparse_weight),
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
    const fusion = (s as Record<string, unknown>).fusion as Record<string, unknown> | undefined;
    const budget = (s as Record<string, unknown>).token_budget;
    const docs = (s as Record<string, unknown>).documents;
    if (fusion && typeof fusion.rrf_k === 'number') {
      search = {
        fusion: {
          rrf_k: fusion.rrf_k,
          dense_weight: typeof fusion.dense_weight === 'number' ? fusion.dense_weight : 1,
          sparse_weight: typeof fusion.sparse_weight === 'number' ? fusion.sparse_weight : 1,
        },
        token_budget: typeof budget === 'number' ? budget : null,
        documents: Array.isArray(docs) ? docs.filter((d): d is number => typeof d === 'number') : null,
      };
    }
  }
  return { strategy, search };
}
