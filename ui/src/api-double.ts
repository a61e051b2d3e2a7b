// TEST DOUBLE — "DemoBackend".
//
// Stands in for the Tauri shell when the UI runs in a plain browser (no
// `window.__TAURI_INTERNALS__`): for screenshots, browser tests and working on the UI
// without building the app. It answers the same commands and emits the same events as
// the shell (see the contract in api.ts and README.md) from a small in-memory library:
// two made-up annual reports, their page trees, searches whose scores come from word
// overlap fused as the engine fuses (RRF, DBSF or min–max), the knee and largest-gap
// cuts ported from the engine, and an answer streamed token by token. Nothing here is
// real retrieval or a real model; the UI shows a "demo data" badge whenever this class
// is in use.
//
// Handy switches for trying the UI:
// - a question containing "fail" makes `ask` / `search` reject with a message;
// - ingesting a file whose name contains "broken" fails at the reading stage;
// - clearing the model in Settings makes proxy-pointer skipped and answers extractive.

import type {
  AppSettings,
  AskOutcome,
  CommandArgs,
  CommandName,
  CommandResult,
  ContextPage,
  DocumentCard,
  DocumentRecord,
  EventName,
  Events,
  Fusion,
  GoldPage,
  LocalModelStatus,
  Node,
  OutlineDocument,
  PageLabel,
  RunRecord,
  ScoredNode,
  SearchResult,
  SearchSettings,
  SectionScoring,
  SelectedNode,
  Strategy,
  TraceStep,
  Transport,
  Unlisten,
} from './api';
import { ANSWER_DEADLINE, DEFAULT_SECTION_SCORING, defaultFusion, defaultStrategies } from './api';
import { findCitations, sameDocument } from './citations';
import { DENSE_MODELS } from './model-choice';
import { analyseDemoQuestion, correctDemoCardAll } from './demo-cards';
import { DEMO_DOCUMENTS, demoIngestedDocument, demoPageLabel, demoPageText, demoShelf, type DemoDocument } from './demo-content';
import { bestSentence, contentWords } from './highlight';

// ---------------------------------------------------------------------------------------
// The knee, as the engine cuts it (src/search/knee.rs)
// ---------------------------------------------------------------------------------------

const TOLERANCE = 1e-6;

export function chordDistances(sorted: number[]): number[] {
  const n = sorted.length;
  if (n <= 2) return [];
  const first = sorted[0] ?? 0;
  const last = sorted[n - 1] ?? 0;
  const range = first - last;
  if (Math.abs(range) <= Number.EPSILON * Math.max(Math.abs(first), 1)) return [];
  return sorted.map((score, i) => {
    const x = i / (n - 1);
    const y = (score - last) / range;
    return Math.abs(1 - x - y) / Math.SQRT2;
  });
}

export function kneeCut(sorted: number[], sensitivity = 1): { knee: number | null; keep: number } {
  const n = sorted.length;
  const distances = chordDistances(sorted);
  const max = distances.reduce((m, d) => Math.max(m, d), 0);
  if (max <= TOLERANCE) return { knee: null, keep: n };
  const knee = Math.max(0, distances.findIndex((d) => d >= max - TOLERANCE));
  const s = Math.min(1, Math.max(0, sensitivity));
  if (s <= 0) return { knee, keep: n };
  if (s >= 1) return { knee, keep: knee + 1 };
  const threshold = s * max;
  let lastAbove = knee;
  distances.forEach((d, i) => {
    if (d >= threshold - TOLERANCE) lastAbove = i;
  });
  return { knee, keep: Math.max(lastAbove, knee) + 1 };
}

/**
 * The largest-gap cut (src/search/knee.rs): keep what is above the largest drop between
 * neighbours, the earliest of equal drops; a curve with no drop keeps all.
 */
export function largestGapCut(sorted: number[]): { knee: number | null; keep: number } {
  let best: { index: number; drop: number } | null = null;
  for (let i = 0; i + 1 < sorted.length; i++) {
    const drop = (sorted[i] ?? 0) - (sorted[i + 1] ?? 0);
    if (drop > TOLERANCE && (best === null || drop > best.drop + TOLERANCE)) best = { index: i, drop };
  }
  return best === null ? { knee: null, keep: sorted.length } : { knee: best.index, keep: best.index + 1 };
}

// ---------------------------------------------------------------------------------------
// Fusion, as the engine fuses a dense and a sparse list (src/store/fusion.rs)
// ---------------------------------------------------------------------------------------

type Signal = { dense: number; sparse: number };

/** What each node of one list (best first or not) adds to its fused score. */
function listScores(list: [number, number][], fusion: Fusion, weight: number): [number, number][] {
  if (weight <= 0) return [];
  // Settings from before the choice have no method: RRF, as the engine reads them.
  const method = fusion.method ?? 'rrf';
  if (method === 'rrf') {
    const ranked = [...list].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    return ranked.map(([id], p) => [id, 1 / ((p + 1) / weight + fusion.rrf_k - 1)]);
  }
  const scores = list.map(([, s]) => s);
  let bounds: [number, number] | null = null;
  if (method === 'dbsf' && scores.length >= 2) {
    const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
    const deviation = Math.sqrt(scores.reduce((a, s) => a + (s - mean) ** 2, 0) / (scores.length - 1));
    bounds = [mean - 3 * deviation, mean + 3 * deviation];
  } else if (method === 'min-max' && scores.length > 0) {
    bounds = [Math.min(...scores), Math.max(...scores)];
  }
  // Bounds that coincide tell no point from another: 0.5 each, as Qdrant gives.
  const range = bounds && bounds[1] > bounds[0] ? bounds : null;
  return list.map(([id, s]) => [id, (range ? (s - range[0]) / (range[1] - range[0]) : 0.5) * weight]);
}

/** The fused ranking of `ids`, best first, ties by id. */
export function fuseSignals(ids: number[], signals: Map<number, Signal>, fusion: Fusion): ScoredNode[] {
  const fused = new Map<number, number>(ids.map((id) => [id, 0]));
  const lists: [(s: Signal) => number, number][] = [
    [(s) => s.dense, fusion.dense_weight],
    [(s) => s.sparse, fusion.sparse_weight],
  ];
  for (const [of, weight] of lists) {
    const list = ids.map((id): [number, number] => [id, of(signals.get(id) ?? { dense: 0, sparse: 0 })]);
    for (const [id, score] of listScores(list, fusion, weight)) fused.set(id, (fused.get(id) ?? 0) + score);
  }
  return [...fused].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || a.id - b.id);
}

// ---------------------------------------------------------------------------------------
// The library
// ---------------------------------------------------------------------------------------

interface DemoDoc {
  record: DocumentRecord;
  content: DemoDocument;
  nodes: Node[];
  rootId: number;
}

const TREE_WIDTH = 4;
/** Words too common in filings to make good keywords. */
const DULL = new Set(['united', 'states', 'continued', 'statements', 'discussion', 'amounts', 'millions', 'dollars', 'unless', 'stated', 'otherwise', 'compared', 'company', 'management']);
const NO_MODEL_NOTE =
  'No language model is configured, so here are the most relevant passages of the pages found';

function buildTree(docId: number, fileName: string, content: DemoDocument): { nodes: Node[]; rootId: number } {
  const nodes: Node[] = [];
  let next = docId * 10_000 + 1;
  const sectionOf = (page: number) => content.sections.find((s) => page >= s.first && page <= s.last);
  let level: Node[] = [];
  for (let page = 1; page <= content.pages; page++) {
    const text = demoPageText(content, page);
    const section = sectionOf(page);
    const words = contentWords(text).filter((w) => w.length > 5 && !/^\d/.test(w) && !DULL.has(w));
    const keywords = [...new Set([...(section?.keywords.slice(0, 1) ?? []), ...words.slice(0, 3)])];
    const firstSentence = text.split(/(?<=\.)\s/)[0] ?? '';
    level.push({
      id: next++,
      doc_id: docId,
      file_name: fileName,
      parent_id: -1,
      child_ids: [],
      level: 0,
      page_start: page,
      page_end: page,
      description: text === '' ? 'Page without a text layer (scanned image).' : firstSentence.slice(0, 160),
      keywords: text === '' ? ['scanned'] : keywords,
    });
  }
  nodes.push(...level);
  let height = 0;
  while (level.length > 1) {
    height++;
    const up: Node[] = [];
    for (let i = 0; i < level.length; i += TREE_WIDTH) {
      const kids = level.slice(i, i + TREE_WIDTH);
      const first = kids[0];
      const last = kids[kids.length - 1];
      if (!first || !last) continue;
      const titles = [
        ...new Set(
          content.sections
            .filter((s) => s.last >= first.page_start && s.first <= last.page_end)
            .map((s) => s.title),
        ),
      ];
      const keywords = [...new Set(kids.flatMap((k) => k.keywords))].slice(0, 5);
      const parent: Node = {
        id: next++,
        doc_id: docId,
        file_name: fileName,
        parent_id: -1,
        child_ids: kids.map((k) => k.id),
        level: height,
        page_start: first.page_start,
        page_end: last.page_end,
        description:
          height === 1
            ? `${titles.join('; ')}. ${kids.find((k) => !k.description.startsWith('Page without'))?.description ?? ''}`.slice(0, 240)
            : titles.length === 1
              ? `Part of ${titles[0]}.`
              : `Sections: ${titles.join('; ')}.`,
        keywords,
      };
      for (const kid of kids) kid.parent_id = parent.id;
      up.push(parent);
    }
    nodes.push(...up);
    level = up;
  }
  const root = level[0];
  if (root && root.level > 0) {
    root.description = `${content.name}: ${content.sections.map((s) => s.title).join('; ')}.`;
  }
  return { nodes, rootId: root?.id ?? -1 };
}

function record(id: number, content: DemoDocument, status: DocumentRecord['status'], nodeCount: number | null): DocumentRecord {
  const now = new Date(Date.UTC(2026, 10, 30, 9, id, 0)).toISOString().replace(/\.\d+Z$/, 'Z');
  return {
    id,
    name: content.name,
    file_name: `${content.name}.pdf`,
    path: `/home/demo/Documents/${content.name}.pdf`,
    content_hash: `demo${id.toString(16).padStart(60, '0')}`,
    page_count: content.pages,
    pages_without_text: content.blank.length,
    pages_read_by_ocr: 0,
    pages_needing_ocr: 0,
    node_count: nodeCount,
    status,
    error: null,
    describer: 'offline (demo)',
    warnings: content.warnings,
    card: content.card ? structuredClone(content.card) : null,
    language: null,
    added_at: now,
    updated_at: now,
  };
}

// ---------------------------------------------------------------------------------------
// Page pictures: an SVG "page" with the text set in lines (a PNG in the real shell)
// ---------------------------------------------------------------------------------------

function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line.length + word.length + 1 > width && line !== '') {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

function pageSvg(doc: DemoDoc, page: number, width: number): string {
  const w = 612;
  const h = 792;
  const text = demoPageText(doc.content, page);
  const lines = text === '' ? [] : wrap(text, 62);
  const body = lines
    .slice(0, 30)
    .map((l, i) => `<text x="56" y="${130 + i * 22}" font-size="15">${escapeXml(l)}</text>`)
    .join('');
  const filler = Array.from({ length: 12 }, (_, i) => {
    const y = 150 + lines.length * 22 + i * 22;
    const lw = 420 + ((page * 37 + i * 53) % 80);
    return y < h - 80 ? `<rect x="56" y="${y}" width="${lw}" height="8" rx="3" fill="#d8dce3"/>` : '';
  }).join('');
  const scanned =
    text === ''
      ? `<rect x="56" y="120" width="500" height="560" fill="#eceae4"/><text x="306" y="410" font-size="22" text-anchor="middle" fill="#8a8578">scanned page — no text layer</text>`
      : '';
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${Math.round((width * h) / w)}" viewBox="0 0 ${w} ${h}" font-family="Georgia, serif" fill="#1f2933">` +
    `<rect width="${w}" height="${h}" fill="#ffffff"/>` +
    `<rect x="0" y="0" width="${w}" height="6" fill="#2f5fb3"/>` +
    `<text x="56" y="70" font-size="13" fill="#52606d">${escapeXml(doc.record.name)}</text>` +
    `<text x="556" y="70" font-size="13" text-anchor="end" fill="#52606d">demo page</text>` +
    `<line x1="56" y1="86" x2="556" y2="86" stroke="#cbd2d9"/>` +
    body +
    filler +
    scanned +
    `<text x="306" y="${h - 40}" font-size="14" text-anchor="middle" fill="#52606d">${page}</text>` +
    `</svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

// ---------------------------------------------------------------------------------------
// The backend
// ---------------------------------------------------------------------------------------

type Handler<E extends EventName> = (payload: Events[E]) => void;
type Handlers = { [C in CommandName]: (args: CommandArgs<C>) => Promise<CommandResult<C>> };

export interface DemoOptions {
  /** Multiplies every simulated delay: 1 feels like the app, 0 answers at once (tests). */
  speed?: number;
  /** What `about` says is missing, as the shell does when an asset cannot be found. */
  assetsProblem?: string;
  /** Made-up filings added after the two demo reports, for a library of hundreds. */
  shelf?: number;
}

export class DemoBackend implements Transport {
  readonly demo = true;
  private readonly speed: number;
  private readonly assetsProblem: string | null;
  private docs: DemoDoc[] = [];
  private nextDocId = 1;
  private runs: RunRecord[] = [];
  /** Gold pages by question, as a bench run would have recorded them (set by tests). */
  readonly benchGold = new Map<string, GoldPage[]>();
  private nextRunId = 1;
  private nextConversation = 1;
  private listeners = new Map<EventName, Set<Handler<EventName>>>();
  private ingestQueue: string[] = [];
  private ingesting = false;
  private cancelRequested = false;
  /** While set, each file waits here before it is finished (see `holdIngestion`). */
  private ingestionHeld: Promise<void> | null = null;
  /** The model file the demo pretends to serve. */
  private modelFile: LocalModelStatus = offModel();
  private settings: AppSettings = {
    llm_base_url: 'http://127.0.0.1:8080/v1',
    llm_model: 'demo-model',
    llm_api_key: null,
    llm_key_storage: 'not stored (demo data: nothing leaves this page)',
    llm_answer_deadline_secs: ANSWER_DEADLINE.default,
    embedding_model_dir: '~/.local/share/pagetree/assets/bge-small-en-v1.5',
    embedding_model: 'multilingual-e5-small',
    dense_model: 'e5-small',
    qdrant_mode: 'embedded',
    qdrant_url: null,
    qdrant_api_key: null,
    qdrant_key_storage: 'not stored (demo data: nothing leaves this page)',
    qdrant_cluster: { shard_number: null, replication_factor: 1, write_consistency_factor: 1 },
    defaults: { strategies: defaultStrategies(), fusion: defaultFusion(), token_budget: null },
  };

  constructor(options: DemoOptions = {}) {
    this.speed = options.speed ?? 1;
    this.assetsProblem = options.assetsProblem ?? null;
    for (const content of DEMO_DOCUMENTS) this.addDocument(content, 'ready');
    for (const content of demoShelf(options.shelf ?? 0)) this.addDocument(content, 'ready');
    this.seedHistory();
  }

  // ------------------------------------------------------------------ transport

  invoke<C extends CommandName>(command: C, args: CommandArgs<C>): Promise<CommandResult<C>> {
    const handler = this.handlers[command] as ((a: CommandArgs<C>) => Promise<CommandResult<C>>) | undefined;
    if (!handler) return Promise.reject(`Unknown command ${command}`);
    return handler(args);
  }

  listen<E extends EventName>(event: E, handler: (payload: Events[E]) => void): Promise<Unlisten> {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    const h = handler as Handler<EventName>;
    set.add(h);
    return Promise.resolve(() => {
      set?.delete(h);
    });
  }

  /** Emits an event to the UI, as the shell would (exposed for tests: OS drops). */
  emit<E extends EventName>(event: E, payload: Events[E]): void {
    for (const handler of this.listeners.get(event) ?? []) (handler as Handler<E>)(payload);
  }

  /**
   * Keeps every file from finishing until the returned function is called (exposed for
   * tests: at speed 0 a whole batch can end between two frames, so a state that only
   * lasts while files are in progress would otherwise never be drawn).
   */
  holdIngestion(): () => void {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.ingestionHeld = held;
    return () => {
      if (this.ingestionHeld === held) this.ingestionHeld = null;
      release();
    };
  }

  private wait(ms: number): Promise<void> {
    const t = ms * this.speed;
    return new Promise((resolve) => setTimeout(resolve, t));
  }

  private readonly handlers: Handlers = {
    list_documents: async () => {
      await this.wait(40);
      return this.docs.map((d) => structuredClone(d.record));
    },
    ingest_paths: async ({ paths }) => {
      await this.wait(20);
      if (paths.length === 0) throw 'No files to add.';
      this.ingestQueue.push(...paths);
      this.emitQueued(paths);
      void this.runIngestion();
      // A folder becomes one made-up file (see ingestOne), so each path is one file.
      return paths.length;
    },
    pick_and_ingest: async () => {
      await this.wait(300);
      const picked = '/home/demo/Downloads/ANNUAL_REPORT_2023.pdf';
      this.ingestQueue.push(picked);
      this.emitQueued([picked]);
      void this.runIngestion();
    },
    cancel_ingest: async () => {
      if (this.ingesting) this.cancelRequested = true;
    },
    delete_document: async ({ key }) => {
      await this.wait(120);
      const doc = this.resolve(key);
      if (doc.record.status === 'ingesting') throw `${doc.record.name} is being ingested; cancel it first.`;
      this.docs = this.docs.filter((d) => d !== doc);
      return structuredClone(doc.record);
    },
    document_tree: async ({ key }) => {
      await this.wait(80);
      const doc = this.resolve(key);
      if (doc.record.status !== 'ready') throw `${doc.record.name} has no tree yet (${doc.record.status}).`;
      return {
        document: structuredClone(doc.record),
        root_id: doc.rootId,
        nodes: doc.nodes.map((n) => ({ ...n, child_ids: [...n.child_ids], keywords: [...n.keywords] })),
      };
    },
    correct_card: async ({ document, assignments }) => {
      await this.wait(150);
      const doc = this.resolve(document);
      if (doc.record.status !== 'ready') throw `${doc.record.name} is being ingested; correct its card when it is ready.`;
      // Every assignment is checked before anything is stored, as in the engine.
      doc.record.card = correctDemoCardAll(doc.record.card, assignments);
      doc.record.updated_at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
      return structuredClone(doc.record);
    },
    page_image: async ({ docId, page, width }) => {
      await this.wait(60 + (page % 5) * 20);
      const doc = this.byId(docId);
      this.checkPage(doc, page);
      return pageSvg(doc, page, Math.max(40, Math.min(2400, Math.round(width))));
    },
    page_text: async ({ docId, page }) => {
      await this.wait(30);
      const doc = this.byId(docId);
      this.checkPage(doc, page);
      return demoPageText(doc.content, page);
    },
    page_labels: async ({ docId }) => {
      await this.wait(20);
      const doc = this.byId(docId);
      const labels: PageLabel[] = [];
      for (let page = 1; page <= doc.content.pages; page++) {
        const label = demoPageLabel(doc.content, page);
        if (label !== null) labels.push({ page, label });
      }
      return labels;
    },
    search: async ({ question, strategy, settings }) => {
      await this.wait(180);
      const result = this.runSearch(question, strategy, settings);
      this.record('search', null, result);
      return result;
    },
    compare: async ({ question, strategies, settings }) => {
      await this.wait(350);
      if (strategies.length === 0) throw 'Choose at least one strategy to compare.';
      const results: SearchResult[] = [];
      const skipped: string[] = [];
      for (const strategy of strategies) {
        if (strategy.name === 'proxy-pointer' && !this.llmConfigured()) {
          skipped.push('proxy-pointer: no language model is configured (Settings → Language model)');
          continue;
        }
        results.push(this.runSearch(question, strategy, settings));
      }
      for (const r of results) this.record('compare', null, r);
      return { results, skipped };
    },
    trace_outline: async ({ nodeIds }) => {
      await this.wait(40);
      return this.outline(nodeIds);
    },
    bench_gold: async ({ question }) => {
      await this.wait(10);
      return structuredClone(this.benchGold.get(question.trim()) ?? []);
    },
    ask: async (args) => this.ask(args),
    history: async ({ search, limit }) => {
      await this.wait(60);
      const needle = search?.trim().toLowerCase() ?? '';
      return this.runs
        .filter(
          (r) =>
            needle === '' ||
            r.question.toLowerCase().includes(needle) ||
            (r.answer?.text.toLowerCase().includes(needle) ?? false) ||
            (r.strategy ?? '').includes(needle),
        )
        .sort((a, b) => b.id - a.id)
        .slice(0, Math.max(0, limit))
        .map((r) => structuredClone(r));
    },
    history_entry: async ({ id }) => {
      await this.wait(30);
      const run = this.runs.find((r) => r.id === id);
      if (!run) throw `There is no run ${id} in the history.`;
      return structuredClone(run);
    },
    export_history: async ({ format }) => {
      await this.wait(80);
      const runs = [...this.runs].sort((a, b) => b.id - a.id);
      if (format === 'json') return JSON.stringify(runs, null, 2);
      return [
        '# PageTree history (demo data)',
        '',
        ...runs.flatMap((r) => [
          `## ${r.created_at} — ${r.kind}, ${r.strategy ?? 'no strategy'}`,
          '',
          `**Question:** ${r.question}`,
          '',
          ...(r.answer ? [r.answer.text, ''] : []),
          `Pages: ${Array.isArray(r.pages) ? (r.pages as ContextPage[]).map((p) => `${p.file_name} p.${p.page}`).join(', ') : '–'}`,
          '',
        ]),
      ].join('\n');
    },
    get_settings: async () => {
      await this.wait(30);
      return structuredClone({ ...this.settings, llm_api_key: null });
    },
    save_settings: async ({ settings }) => {
      await this.wait(120);
      // The demo pretends to move the vectors to any server but one whose host is
      // `offline.invalid`, which it answers as the shell answers a server that is away.
      if (settings.qdrant_mode === 'remote' && settings.qdrant_url?.includes('offline.invalid')) {
        throw `the Qdrant server at ${settings.qdrant_url} cannot be reached (Connection refused); check the address and that the server is running`;
      }
      if (settings.qdrant_mode === 'remote' && settings.qdrant_url !== this.settings.qdrant_url) await this.wait(400);
      if (settings.llm_base_url && !/^https?:\/\//.test(settings.llm_base_url)) {
        throw `The LLM base URL must start with http:// or https:// (got “${settings.llm_base_url}”).`;
      }
      const deadline = settings.llm_answer_deadline_secs;
      if (!Number.isInteger(deadline) || deadline < ANSWER_DEADLINE.min || deadline > ANSWER_DEADLINE.max) {
        throw `the time one answer may take must be between ${ANSWER_DEADLINE.min} seconds and ${ANSWER_DEADLINE.max / 60} minutes, not ${deadline} seconds`;
      }
      // As the shell: saving never changes the model (change_dense_model does).
      this.settings = structuredClone({
        ...settings,
        dense_model: this.settings.dense_model,
        embedding_model: this.settings.embedding_model,
        llm_api_key: null,
        qdrant_api_key: null,
        llm_key_storage: settings.llm_api_key
          ? 'not stored: the demo keeps no secrets (the app uses the OS keyring)'
          : this.settings.llm_key_storage,
      });
      return structuredClone(this.settings);
    },
    change_dense_model: async ({ model }) => {
      await this.wait(model === this.settings.dense_model ? 10 : 400);
      this.settings = { ...this.settings, dense_model: model, embedding_model: DENSE_MODELS[model].name };
      return structuredClone({ ...this.settings, llm_api_key: null });
    },
    // The shell's rule (src/redact.rs), enough for the demo: a key typed (the demo keeps
    // none), http://, and a host that is not this computer.
    settings_warnings: async ({ settings }) => {
      await this.wait(10);
      const inClear = (what: string, url: string | null, typed: string | null): string | null => {
        if (!url || !typed) return null;
        let parsed: URL;
        try {
          parsed = new URL(url.trim());
        } catch {
          return null;
        }
        const host = parsed.hostname.replace(/^\[|\]$/g, '');
        if (parsed.protocol !== 'http:' || /^(localhost|127\.\d+\.\d+\.\d+|::1)$/i.test(host)) return null;
        return `the ${what} API key goes to ${url.trim()} over plain http://, readable by anyone on the network in between; use https:// for a server on another machine`;
      };
      return {
        llm: inClear('LLM', settings.llm_base_url, settings.llm_api_key),
        qdrant: settings.qdrant_mode === 'remote' ? inClear('Qdrant', settings.qdrant_url, settings.qdrant_api_key) : null,
      };
    },
    about: async () => {
      await this.wait(10);
      return {
        version: 'demo',
        assets: [
          { name: 'PDFium', package: 'pypdfium2', version: 'demo' },
          { name: 'ONNX Runtime', package: 'onnxruntime', version: 'demo' },
        ],
        assets_folder: null,
        assets_problem: this.assetsProblem,
        log_folder: null,
      };
    },
    detect_llm_servers: async () => {
      await this.wait(200);
      return [{ kind: 'ollama', port: 11434, base_url: 'http://127.0.0.1:11434/v1', models: ['llama3.2:3b', 'qwen2.5:7b'] }];
    },
    pick_model_file: async () => {
      await this.wait(300);
      return '/home/demo/models/SmolLM2-135M-Instruct.Q4_1.gguf';
    },
    use_model_file: async ({ file }) => {
      await this.wait(800);
      if (!file.toLowerCase().endsWith('.gguf')) throw `${file} is not a GGUF model file`;
      const model = (file.split('/').pop() ?? file).replace(/\.gguf$/i, '');
      this.modelFile = { state: 'running', file, model, base_url: 'http://127.0.0.1:41234/v1', pid: 4242, message: null };
      this.settings = { ...this.settings, llm_base_url: this.modelFile.base_url, llm_model: model };
      return structuredClone({ ...this.settings, llm_api_key: null });
    },
    stop_model_file: async () => {
      await this.wait(100);
      if (this.modelFile.state !== 'off') this.settings = { ...this.settings, llm_base_url: null, llm_model: null };
      this.modelFile = offModel();
      return structuredClone({ ...this.settings, llm_api_key: null });
    },
    model_file_status: async () => {
      await this.wait(20);
      return structuredClone(this.modelFile);
    },
    test_llm_connection: async ({ settings }) => {
      await this.wait(400);
      if (!settings.llm_base_url || !settings.llm_model) {
        return { ok: false, message: 'Set a base URL and a model first.', latency_ms: null };
      }
      if (!/^https?:\/\//.test(settings.llm_base_url)) {
        return { ok: false, message: `Cannot reach ${settings.llm_base_url}: not an http(s) URL.`, latency_ms: null };
      }
      return {
        ok: true,
        message: `${settings.llm_model} answered at ${settings.llm_base_url} (demo data: no request was sent).`,
        latency_ms: 42,
      };
    },
  };

  // ------------------------------------------------------------------ documents

  private addDocument(content: DemoDocument, status: DocumentRecord['status']): DemoDoc {
    const id = this.nextDocId++;
    const { nodes, rootId } = buildTree(id, `${content.name}.pdf`, content);
    const doc: DemoDoc = { record: record(id, content, status, status === 'ready' ? nodes.length : null), content, nodes, rootId };
    this.docs.push(doc);
    return doc;
  }

  private resolve(key: string): DemoDoc {
    const doc =
      this.docs.find((d) => d.record.name === key) ??
      this.docs.find((d) => d.record.file_name === key) ??
      this.docs.find((d) => String(d.record.id) === key);
    if (!doc) throw `No document “${key}” in the library.`;
    return doc;
  }

  /** The touched nodes and their ancestors per document, parents first (as the engine). */
  private outline(ids: number[]): OutlineDocument[] {
    const out: OutlineDocument[] = [];
    for (const doc of this.docs) {
      const byId = new Map(doc.nodes.map((n) => [n.id, n]));
      const keep = new Set<number>();
      for (const id of ids) {
        for (let n = byId.get(id); n && !keep.has(n.id); n = byId.get(n.parent_id)) keep.add(n.id);
      }
      if (keep.size === 0) continue;
      const nodes: OutlineDocument['nodes'] = [];
      const visit = (n: Node | undefined) => {
        if (!n || !keep.has(n.id)) return;
        const { id, parent_id, level, page_start, page_end } = n;
        nodes.push({ id, parent_id, level, page_start, page_end, title: n.description.slice(0, 80) });
        for (const kid of n.child_ids) visit(byId.get(kid));
      };
      visit(byId.get(doc.rootId));
      out.push({ doc_id: doc.record.id, name: doc.record.name, page_count: doc.content.pages, nodes });
    }
    return out;
  }

  private byId(id: number): DemoDoc {
    const doc = this.docs.find((d) => d.record.id === id);
    if (!doc) throw `No document with id ${id} in the library.`;
    return doc;
  }

  private checkPage(doc: DemoDoc, page: number): void {
    if (!Number.isInteger(page) || page < 1 || page > doc.content.pages) {
      throw `${doc.record.name} has no page ${page} (it has ${doc.content.pages}).`;
    }
  }

  private async runIngestion(): Promise<void> {
    if (this.ingesting) return;
    this.ingesting = true;
    try {
      for (let path = this.ingestQueue.shift(); path !== undefined; path = this.ingestQueue.shift()) {
        await this.ingestOne(path);
      }
    } finally {
      this.ingesting = false;
      this.cancelRequested = false;
    }
  }

  /** The file a queued path becomes: a folder is one made-up file in it. */
  private static queuedFile(path: string): string {
    const file = path.split(/[\\/]/).pop() ?? path;
    if (/\.pdf$/i.test(file)) return path;
    return `${path}/${file.replace(/\.pdf$/i, '') || 'folder'}_NOTES.pdf`;
  }

  private static demoPages(file: string): number {
    return 8 + (file.length % 9);
  }

  /** Like the shell: the files at once, then their page counts. */
  private emitQueued(paths: string[]): void {
    const files = paths.map((p) => DemoBackend.queuedFile(p).split(/[\\/]/).pop() ?? p);
    this.emit('ingest://queued', { files: files.map((file) => ({ file, pages: null })), counted: false });
    setTimeout(() => {
      this.emit('ingest://queued', { files: files.map((file) => ({ file, pages: DemoBackend.demoPages(file) })), counted: true });
    }, 30);
  }

  private async ingestOne(queuedPath: string): Promise<void> {
    const path = DemoBackend.queuedFile(queuedPath);
    const file = path.split(/[\\/]/).pop() ?? path;
    const name = file.replace(/\.pdf$/i, '');
    const existing = this.docs.find((d) => d.record.file_name === file && d.record.status === 'ready');
    if (existing) {
      this.emit('ingest://finished', {
        file,
        document: { ...existing.record },
        error: null,
        warnings: ['already in the library (same content); nothing to do'],
      });
      return;
    }
    const pages = DemoBackend.demoPages(file);
    const content = demoIngestedDocument(name, pages);
    const doc = this.addDocument(content, 'ingesting');
    doc.record.path = path;
    const stop = (error: string) => {
      doc.record.status = 'failed';
      doc.record.error = error;
      this.emit('ingest://finished', { file, document: structuredClone(doc.record), error, warnings: [] });
    };
    const stages: { stage: Events['ingest://progress']['stage']; total: number; ms: number }[] = [
      { stage: 'reading', total: 1, ms: 250 },
      { stage: 'describing', total: pages, ms: 220 },
      { stage: 'summarising', total: 1, ms: 300 },
      { stage: 'embedding', total: doc.nodes.length, ms: 40 },
      { stage: 'indexing', total: doc.nodes.length, ms: 20 },
    ];
    for (const { stage, total, ms } of stages) {
      for (let done = 0; done <= total; done++) {
        if (this.cancelRequested) {
          this.docs = this.docs.filter((d) => d !== doc);
          this.ingestQueue = [];
          this.emit('ingest://finished', { file, document: null, error: 'Ingestion cancelled.', warnings: [] });
          return;
        }
        this.emit('ingest://progress', { file, stage, done, total });
        if (stage === 'reading' && done === 1 && /broken/i.test(file)) {
          return stop(`${file} could not be read: the file is damaged (no cross-reference table).`);
        }
        if (done < total) await this.wait(ms);
      }
    }
    if (this.ingestionHeld) await this.ingestionHeld;
    doc.record.status = 'ready';
    doc.record.node_count = doc.nodes.length;
    doc.record.updated_at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    this.emit('ingest://finished', {
      file,
      document: structuredClone(doc.record),
      error: null,
      warnings: ['pages were described offline (no language model was used for ingestion in the demo)'],
    });
  }

  // ------------------------------------------------------------------ search

  private llmConfigured(): boolean {
    return Boolean(this.settings.llm_base_url && this.settings.llm_model);
  }

  /**
   * Dense and sparse "scores" of every node for a question: word overlap with a page's
   * text, or with a section's own summary and keywords. Best-page scoring lifts a section,
   * half by half, to its best page, as the engine max-pools its pages' similarities.
   */
  private signals(question: string, docs: DemoDoc[], scoring: SectionScoring): Map<number, Signal> {
    const wanted = new Set(contentWords(question));
    const overlap = (text: string, id: number): Signal => {
      const words = contentWords(text);
      const set = new Set(words);
      const shared = [...wanted].filter((w) => set.has(w)).length;
      const occurrences = words.filter((w) => wanted.has(w)).length;
      // Breaks ties the same way every time, as near-equal similarities would.
      const noise = ((id * 2654435761) % 1000) / 1e5;
      return { dense: (wanted.size === 0 ? 0 : shared / wanted.size) + noise, sparse: occurrences + noise };
    };
    const out = new Map<number, Signal>();
    for (const doc of docs) {
      const pageSignal = new Map<number, Signal>();
      for (const node of doc.nodes) {
        if (node.level !== 0) continue;
        const signal = overlap(demoPageText(doc.content, node.page_start) + ' ' + node.keywords.join(' '), node.id);
        pageSignal.set(node.page_start, signal);
        out.set(node.id, signal);
      }
      for (const node of doc.nodes) {
        if (node.level === 0) continue;
        const own = overlap(`${node.description} ${node.keywords.join(' ')}`, node.id);
        if (scoring === 'own-text') {
          out.set(node.id, own);
          continue;
        }
        const best = { ...own };
        for (let p = node.page_start; p <= node.page_end; p++) {
          const s = pageSignal.get(p);
          if (!s) continue;
          best.dense = Math.max(best.dense, s.dense);
          best.sparse = Math.max(best.sparse, s.sparse);
        }
        out.set(node.id, best);
      }
    }
    return out;
  }

  private rank(ids: number[], signals: Map<number, Signal>, settings: SearchSettings): ScoredNode[] {
    return fuseSignals(ids, signals, settings.fusion);
  }

  /**
   * A search as the engine runs it: the question read against the cards first (unless
   * the documents are given; never for proxy-pointer), a named organisation's documents
   * searched alone, and the whole library after all when they hold nothing.
   */
  private runSearch(question: string, strategy: Strategy, settings: SearchSettings): SearchResult {
    if (/fail/i.test(question)) {
      throw 'The search failed: the vector index is locked by another PageTree process (demo error).';
    }
    if (question.trim() === '') throw 'Type a question first.';
    if (settings.documents !== null || strategy.name === 'proxy-pointer') {
      return this.searchDocuments(question, strategy, settings, settings.documents);
    }
    const cards = this.docs
      .filter((d) => d.record.status === 'ready' && d.record.card)
      .map((d): [number, DocumentCard] => [d.record.id, d.record.card as DocumentCard]);
    const analysis = analyseDemoQuestion(question, cards);
    // Documents without a card stay in: nothing says they are not the named one's.
    const only = analysis.filter
      ? [...analysis.filter, ...this.docs.filter((d) => !d.record.card).map((d) => d.record.id)]
      : null;
    let result = this.searchDocuments(question, strategy, settings, only);
    if (only && result.context.pages.length === 0) {
      analysis.filter = null;
      analysis.note += '; nothing was found in those documents, so the whole library was searched';
      result = this.searchDocuments(question, strategy, settings, null);
    }
    return { ...result, analysis };
  }

  private searchDocuments(question: string, strategy: Strategy, settings: SearchSettings, only: number[] | null): SearchResult {
    const docs = this.docs.filter((d) => d.record.status === 'ready' && (only === null || only.includes(d.record.id)));
    const trace: TraceStep[] = [];
    const started = performance.now();
    if (docs.length === 0) {
      return this.result(question, strategy, settings, [], trace, 'the library has no searchable documents', new Map(), started);
    }
    const nodeById = new Map<number, Node>();
    for (const d of docs) for (const n of d.nodes) nodeById.set(n.id, n);
    // The engine lifts sections by their pages only where it walks the tree; older
    // callers send no scoring and get the default.
    const scoring: SectionScoring =
      strategy.name === 'flat' || strategy.name === 'collapsed-tree'
        ? 'own-text'
        : (settings.section_scoring ?? DEFAULT_SECTION_SCORING);
    const signals = this.signals(question, docs, scoring);
    const sections = docs.flatMap((d) => d.nodes.filter((n) => n.level === 1)).map((n) => n.id);
    const leaves = docs.flatMap((d) => d.nodes.filter((n) => n.level === 0)).map((n) => n.id);
    const childrenOf = (id: number) => nodeById.get(id)?.child_ids ?? [];
    const isLeaf = (id: number) => (nodeById.get(id)?.level ?? 0) === 0;
    const step = (label: string, ranked: ScoredNode[], knee: number | null, kept: number, beam: number[]) => {
      const beamSet = new Set(beam);
      trace.push({
        label,
        candidates: ranked.slice(0, 60),
        knee_index: knee,
        kept,
        eliminated: ranked.filter((c) => !beamSet.has(c.id)).map((c) => c.id),
        beam,
      });
    };
    let selected: ScoredNode[] = [];
    let stopped = '';

    switch (strategy.name) {
      case 'flat': {
        const ranked = this.rank(leaves, signals, settings);
        selected = ranked.slice(0, strategy.k);
        step('pages', ranked, null, selected.length, selected.map((s) => s.id));
        stopped = `took the ${selected.length} best pages`;
        break;
      }
      case 'branch': {
        const ranked = this.rank(sections, signals, settings);
        let frontier = ranked.slice(0, strategy.roots);
        step('roots', ranked, null, frontier.length, frontier.map((s) => s.id));
        const final: ScoredNode[] = [];
        while (frontier.length > 0 && trace.length < 14) {
          const next: ScoredNode[] = [];
          for (const node of frontier) {
            const kids = childrenOf(node.id);
            if (kids.length === 0) {
              final.push(node);
              continue;
            }
            const local = this.rank([node.id, ...kids], signals, settings);
            const at = local.findIndex((c) => c.id === node.id);
            const above = local.slice(0, at);
            const n = nodeById.get(node.id);
            const label = n ? `children of ${n.file_name.replace(/\.pdf$/i, '')} pp.${n.page_start}–${n.page_end}` : 'children';
            if (above.length === 0) {
              step(label, local, null, 1, [node.id]);
              final.push(node);
            } else {
              step(label, local, null, above.length, above.map((c) => c.id));
              next.push(...above);
            }
          }
          frontier = next;
        }
        final.push(...frontier);
        selected = final;
        stopped = 'every branch ended at a node that beats its children';
        break;
      }
      case 'beam':
      case 'knee':
      case 'sensitive-knee':
      case 'largest-gap': {
        const cut = (ranked: ScoredNode[]): { knee: number | null; keep: number } => {
          if (strategy.name === 'beam') return { knee: null, keep: Math.min(strategy.width, ranked.length) };
          if (strategy.name === 'largest-gap') return largestGapCut(ranked.map((r) => r.score));
          const sensitivity = strategy.name === 'sensitive-knee' ? strategy.sensitivity : 1;
          return kneeCut(ranked.map((r) => r.score), sensitivity);
        };
        let ranked = this.rank(sections, signals, settings);
        if (strategy.name !== 'beam') ranked = ranked.slice(0, strategy.max_roots);
        let beam: ScoredNode[] = [];
        for (let i = 0; i < 8; i++) {
          const { knee, keep } = cut(ranked);
          const keptNodes = ranked.slice(0, keep);
          const keptIds = new Set(keptNodes.map((c) => c.id));
          // A kept child eliminates its parent.
          const next = keptNodes.filter((c) => !childrenOf(c.id).some((kid) => keptIds.has(kid)));
          step(i === 0 ? 'roots' : `step ${i + 1}`, ranked, knee, keep, next.map((c) => c.id));
          const same = next.length === beam.length && next.every((c, j) => c.id === beam[j]?.id);
          beam = next;
          if (beam.every((c) => isLeaf(c.id))) {
            stopped = 'the beam holds only pages';
            break;
          }
          if (same) {
            stopped = 'the beam no longer changes';
            break;
          }
          const candidateIds = [...new Set([...beam.map((c) => c.id), ...beam.flatMap((c) => childrenOf(c.id))])];
          ranked = this.rank(candidateIds, signals, settings);
          stopped = 'reached the step limit';
        }
        selected = beam;
        break;
      }
      case 'collapsed-tree': {
        const every = docs.flatMap((d) => d.nodes).map((n) => n.id);
        const ranked = this.rank(every, signals, settings).slice(0, strategy.depth);
        const { knee, keep } = kneeCut(ranked.map((r) => r.score));
        // Of a section and its pages, the better ranked stands for both.
        const covered: Node[] = [];
        for (const candidate of ranked.slice(0, keep)) {
          const n = nodeById.get(candidate.id);
          if (!n) continue;
          const overlaps = covered.some(
            (c) => c.doc_id === n.doc_id && c.page_start <= n.page_end && n.page_start <= c.page_end,
          );
          if (overlaps) continue;
          covered.push(n);
          selected.push(candidate);
        }
        step('every level', ranked, knee, keep, selected.map((s) => s.id));
        stopped = `kept the ${selected.length} nodes above the knee that do not overlap a better one`;
        break;
      }
      case 'proxy-pointer': {
        if (!this.llmConfigured()) throw 'proxy-pointer needs a language model: set one in Settings.';
        const ranked = this.rank(
          docs.flatMap((d) => d.nodes.filter((n) => n.level >= 1 && n.id !== d.rootId)).map((n) => n.id),
          signals,
          settings,
        );
        const proxies = ranked.slice(0, strategy.proxies);
        step('proxies', ranked, null, proxies.length, proxies.map((p) => p.id));
        const pages = this.rank(
          [...new Set(proxies.flatMap((p) => leavesUnder(p.id, nodeById)))],
          signals,
          settings,
        );
        selected = pages.slice(0, 4);
        step('pointers', pages, null, selected.length, selected.map((p) => p.id));
        stopped = `the model pointed at ${selected.length} pages in ${Math.min(3, proxies.length)} sections`;
        break;
      }
    }
    return this.result(question, strategy, settings, selected, trace, stopped, nodeById, started);
  }

  private result(
    question: string,
    strategy: Strategy,
    settings: SearchSettings,
    chosen: ScoredNode[],
    trace: TraceStep[],
    stopped: string,
    nodeById: Map<number, Node>,
    started: number,
  ): SearchResult {
    let selected: SelectedNode[] = chosen.flatMap((c) => {
      const n = nodeById.get(c.id);
      return n
        ? [{ id: n.id, doc_id: n.doc_id, file_name: n.file_name, level: n.level, page_start: n.page_start, page_end: n.page_end, score: c.score }]
        : [];
    });
    const pageTokens = (docId: number, page: number) => {
      const doc = this.docs.find((d) => d.record.id === docId);
      const text = doc ? demoPageText(doc.content, page) : '';
      return Math.ceil(text.split(/\s+/).filter(Boolean).length * 1.33) + 8;
    };
    const pageLabelOf = (docId: number, page: number) => {
      const doc = this.docs.find((d) => d.record.id === docId);
      return doc ? demoPageLabel(doc.content, page) : null;
    };
    const pagesOf = (nodes: SelectedNode[]) => {
      const pages: ContextPage[] = [];
      const seen = new Set<string>();
      for (const n of [...nodes].sort((a, b) => b.score - a.score)) {
        for (let p = n.page_start; p <= n.page_end; p++) {
          const key = `${n.doc_id}:${p}`;
          if (seen.has(key)) continue;
          seen.add(key);
          pages.push({ doc_id: n.doc_id, file_name: n.file_name, page: p, page_label: pageLabelOf(n.doc_id, p), tokens: pageTokens(n.doc_id, p) });
        }
      }
      return pages;
    };
    let pages = pagesOf(selected);
    const dropped: number[] = [];
    let truncation: string | null = null;
    const budget = settings.token_budget;
    if (budget !== null) {
      const total = () => pages.reduce((s, p) => s + p.tokens, 0);
      while (selected.length > 0 && total() > budget) {
        const worst = selected.reduce((a, b) => (b.score < a.score ? b : a));
        dropped.push(worst.id);
        selected = selected.filter((s) => s !== worst);
        pages = pagesOf(selected);
      }
      if (dropped.length > 0) {
        truncation = `dropped ${dropped.length} of the lowest-scored nodes to fit the token budget of ${budget}`;
      }
    }
    const text = pages
      .map((p) => {
        const doc = this.docs.find((d) => d.record.id === p.doc_id);
        return `[${p.file_name.replace(/\.pdf$/i, '')} p.${p.page}]\n${doc ? demoPageText(doc.content, p.page) : ''}`;
      })
      .join('\n\n');
    const elapsed = performance.now() - started;
    const embed = 9.5 + (question.length % 7);
    const search = 3.2 * Math.max(1, trace.length) + elapsed;
    return {
      question,
      strategy,
      settings,
      selected,
      context: {
        text,
        pages,
        tokens: pages.reduce((s, p) => s + p.tokens, 0),
        tokenizer: 'demo (words × 1.33)',
        dropped_nodes: dropped,
        truncation,
      },
      embed_ms: embed,
      search_ms: search,
      latency_ms: embed + search + 1.4,
      store_queries: Math.max(1, trace.length),
      trace,
      stopped_because: stopped,
      analysis: null,
    };
  }

  // ------------------------------------------------------------------ ask

  private async ask(args: CommandArgs<'ask'>): Promise<AskOutcome> {
    const started = performance.now();
    await this.wait(250);
    if (/fail/i.test(args.question)) {
      const run = this.failedRun(args.question, args.strategy, args.settings, args.conversationId);
      this.runs.push(run);
      throw 'The language model did not answer: connection refused at http://127.0.0.1:8080/v1 (demo error).';
    }
    const search = this.runSearch(args.question, args.strategy, args.settings);
    const conversationId = args.conversationId ?? this.nextConversation++;
    const model = this.llmConfigured() ? this.settings.llm_model : null;
    const notes: string[] = [];
    if (search.context.truncation) notes.push(search.context.truncation);
    const passages: { sentence: string; cite: string }[] = [];
    for (const page of search.context.pages.slice(0, 8)) {
      const doc = this.docs.find((d) => d.record.id === page.doc_id);
      if (!doc) continue;
      const match = bestSentence(demoPageText(doc.content, page.page), args.question);
      if (match && !passages.some((p) => p.sentence === match.text)) {
        passages.push({ sentence: match.text.replace(/\s+/g, ' '), cite: `[${doc.record.name} p.${page.page}]` });
      }
      if (passages.length >= 3) break;
    }
    let text: string;
    if (model === null) {
      notes.push(NO_MODEL_NOTE);
      text = `${NO_MODEL_NOTE}:\n${passages.map((p) => `- ${p.sentence} ${p.cite}`).join('\n') || '(none of the pages found shares words with the question)'}`;
    } else if (passages.length === 0) {
      text = 'The pages found do not say. Try rephrasing the question or another strategy.';
    } else {
      const body = passages.map((p, i) => {
        const sentence = p.sentence.replace(/[.]$/, '');
        return i === 0 ? `${sentence} ${p.cite}.` : `The filing also notes: ${lowerFirst(sentence)} ${p.cite}.`;
      });
      text = (args.conversationId !== null ? 'Following up on that: ' : '') + body.join(' ');
    }
    let firstToken: number | null = null;
    for (const piece of text.match(/\S+\s*|\s+/g) ?? []) {
      await this.wait(28);
      if (firstToken === null) firstToken = performance.now() - started;
      this.emit('ask://token', { request_id: args.requestId, piece });
    }
    const citations = findCitations(text).flatMap((s) => s.citations);
    // Each cited page carries the number printed on it, as the engine fills it from the context.
    const unique = citations
      .filter((c, i) => citations.findIndex((d) => d.document === c.document && d.page === c.page) === i)
      .map((c) => {
        const page = search.context.pages.find((p) => p.page === c.page && sameDocument(p.file_name, c.document));
        return { ...c, page_label: page?.page_label ?? null };
      });
    if (model !== null && unique.length === 0) notes.push('the answer cites no page of the context: treat it with care');
    const answer = { text, citations: unique, removed: [], uncited: unique.length === 0 };
    const total = performance.now() - started;
    const run = this.runFrom('ask', conversationId, search);
    run.answer = { ...answer, model, first_token_ms: model ? firstToken : null, total_ms: total };
    this.runs.push(run);
    return {
      run_id: run.id,
      conversation_id: conversationId,
      search,
      answer,
      passages: [],
      numbers: null,
      model,
      first_token_ms: model ? firstToken : null,
      total_ms: total,
      notes,
    };
  }

  // ------------------------------------------------------------------ history

  private runFrom(kind: RunRecord['kind'], conversationId: number | null, result: SearchResult): RunRecord {
    return {
      id: this.nextRunId++,
      kind,
      conversation_id: conversationId,
      question: result.question,
      strategy: result.strategy.name,
      settings: { strategy: result.strategy, search: result.settings },
      selected: result.selected,
      pages: result.context.pages,
      trace: result.trace,
      metrics: null,
      context_tokens: result.context.tokens,
      latency_ms: result.latency_ms,
      embed_ms: result.embed_ms,
      status: 'ok',
      error: null,
      created_at: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      answer: null,
    };
  }

  private failedRun(question: string, strategy: Strategy, settings: SearchSettings, conversationId: number | null): RunRecord {
    return {
      id: this.nextRunId++,
      kind: 'ask',
      conversation_id: conversationId,
      question,
      strategy: strategy.name,
      settings: { strategy, search: settings },
      selected: [],
      pages: [],
      metrics: null,
      context_tokens: null,
      latency_ms: null,
      embed_ms: null,
      status: 'failed',
      error: 'The language model did not answer: connection refused (demo error).',
      created_at: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      answer: null,
    };
  }

  private record(kind: RunRecord['kind'], conversationId: number | null, result: SearchResult): void {
    this.runs.push(this.runFrom(kind, conversationId, result));
    if (this.runs.length > 500) this.runs.shift();
  }

  private seedHistory(): void {
    const settings: SearchSettings = {
      fusion: defaultFusion(),
      section_scoring: DEFAULT_SECTION_SCORING,
      token_budget: null,
      documents: null,
    };
    // The oldest run is stored as runs were before fusions and section scorings were a
    // choice (no `method`, no `section_scoring`): RRF over sections' own text.
    const before: SearchSettings = {
      fusion: { method: 'rrf', rrf_k: 2, dense_weight: 1, sparse_weight: 1 },
      section_scoring: 'own-text',
      token_budget: null,
      documents: null,
    };
    const legacy = { fusion: { rrf_k: 2, dense_weight: 1, sparse_weight: 1 }, token_budget: null, documents: null };
    const seeds: { q: string; s: Strategy; at: string; old?: boolean }[] = [
      { q: 'How much did 3M pay in dividends in 2018?', s: { name: 'flat', k: 5 }, at: '2026-11-28T14:02:11Z', old: true },
      { q: 'What was Boeing’s total backlog at the end of 2022?', s: { name: 'knee', max_roots: 20 }, at: '2026-11-29T09:41:37Z' },
    ];
    for (const seed of seeds) {
      const result = this.runSearch(seed.q, seed.s, seed.old ? before : settings);
      const run = this.runFrom('search', null, result);
      if (seed.old) run.settings = { strategy: seed.s, search: legacy };
      run.created_at = seed.at;
      this.runs.push(run);
    }
    const askResult = this.runSearch('What were Boeing’s total revenues in 2022?', { name: 'knee', max_roots: 20 }, settings);
    const run = this.runFrom('ask', this.nextConversation++, askResult);
    run.created_at = '2026-11-29T10:05:02Z';
    run.answer = {
      text: 'Total revenues were $66.6 billion in 2022, up 7% from 2021 [BOEING_2022_10K p.34].',
      citations: [{ document: 'BOEING_2022_10K', page: 34, page_label: '31' }],
      removed: [],
      uncited: false,
      model: 'demo-model',
      first_token_ms: 312,
      total_ms: 1840,
    };
    this.runs.push(run);
  }
}

function leavesUnder(id: number, nodeById: Map<number, Node>): number[] {
  const out: number[] = [];
  const stack = [id];
  while (stack.length > 0) {
    const at = stack.pop();
    if (at === undefined) break;
    const node = nodeById.get(at);
    if (!node) continue;
    if (node.level === 0) out.push(node.id);
    else stack.push(...node.child_ids);
  }
  return out;
}

function lowerFirst(s: string): string {
  return s.length > 1 && /^[A-Z][a-z]/.test(s) ? s[0]!.toLowerCase() + s.slice(1) : s;
}

/** No model file served. */
function offModel(): LocalModelStatus {
  return { state: 'off', file: null, model: null, base_url: null, pid: null, message: null };
}
