// The ONE module through which the UI talks to the shell (src-tauri).
//
// Inside Tauri every call goes through `invoke` / `listen` of @tauri-apps/api. Opened in
// a plain browser (no `window.__TAURI_INTERNALS__`), the same calls go to the test
// double in ./api-double.ts ("DemoBackend"), an in-memory library of canned data, so
// the UI can be looked at, screenshotted and browser-tested without the shell. The UI
// shows a "demo data" badge whenever the double is in use (see `isDemo`).
//
// The engine's JSON is mirrored below exactly as serde emits it (snake_case). Command
// arguments are camelCase: Tauri maps them onto the Rust parameter names.

// ---------------------------------------------------------------------------------------
// Engine JSON types
// ---------------------------------------------------------------------------------------

export type DocumentStatus = 'ingesting' | 'ready' | 'failed';

/** What kind of document a card describes (src/card/mod.rs, `DocumentKind`). */
export type DocumentKind =
  | 'annual-report'
  | 'quarterly-report'
  | 'current-report'
  | 'earnings-release'
  | 'paper'
  | 'contract'
  | 'other';

/** A card's fields, by the names `correct_card` assignments take. */
export type CardField =
  | 'title'
  | 'organization'
  | 'aliases'
  | 'kind'
  | 'fiscal_year'
  | 'fiscal_quarter'
  | 'period_end'
  | 'date';

/** What a document says it is: read by rules or an LLM at ingestion, corrected by people. */
export interface DocumentCard {
  title: string | null;
  organization: string | null;
  aliases: string[];
  kind: DocumentKind | null;
  fiscal_year: number | null;
  /** 1–4. */
  fiscal_quarter: number | null;
  /** `YYYY-MM-DD`. */
  period_end: string | null;
  /** `YYYY-MM-DD`. */
  date: string | null;
  /** Fields the reader guessed at. */
  unsure: CardField[];
  /** Fields a person set by hand. */
  corrected: CardField[];
  source: 'rules' | 'llm';
}

export interface DocumentRecord {
  id: number;
  name: string;
  file_name: string;
  path: string;
  content_hash: string;
  page_count: number | null;
  pages_without_text: number | null;
  node_count: number | null;
  status: DocumentStatus;
  error: string | null;
  describer: string | null;
  warnings: string | null;
  /** null for documents ingested before cards existed. */
  card: DocumentCard | null;
  /** The language BM25 stems it in (e.g. "russian"); null when not detected. */
  language?: string | null;
  added_at: string;
  updated_at: string;
}

export interface Node {
  id: number;
  doc_id: number;
  file_name: string;
  /** -1 for the root. */
  parent_id: number;
  child_ids: number[];
  /** 0 = page. */
  level: number;
  /** 1-based, inclusive. */
  page_start: number;
  page_end: number;
  description: string;
  keywords: string[];
}

export interface DocumentTree {
  document: DocumentRecord;
  root_id: number | null;
  nodes: Node[];
}

export type Strategy =
  | { name: 'flat'; k: number }
  | { name: 'branch'; roots: number }
  | { name: 'beam'; width: number }
  | { name: 'knee'; max_roots: number }
  | { name: 'sensitive-knee'; sensitivity: number; max_roots: number }
  | { name: 'largest-gap'; max_roots: number }
  | { name: 'collapsed-tree'; depth: number }
  | { name: 'proxy-pointer'; proxies: number };

export type StrategyName = Strategy['name'];

/** How the dense and the sparse ranking become one (src/store/mod.rs, `FusionMethod`). */
export type FusionMethod = 'rrf' | 'dbsf' | 'min-max';

export interface Fusion {
  /** The engine reads a fusion without one (settings and runs from before) as RRF. */
  method: FusionMethod;
  /** Used by RRF only. */
  rrf_k: number;
  dense_weight: number;
  sparse_weight: number;
}

/** How the tree strategies score a section (src/search/mod.rs, `SectionScoring`). */
export type SectionScoring = 'own-text' | 'best-page';

export interface SearchSettings {
  fusion: Fusion;
  section_scoring: SectionScoring;
  token_budget: number | null;
  documents: number[] | null;
}

export interface ScoredNode {
  id: number;
  score: number;
}

export interface TraceStep {
  label: string;
  /** Best first. */
  candidates: ScoredNode[];
  knee_index: number | null;
  /** How many candidates survived the cut (all of them when there is no cut). */
  kept: number;
  eliminated: number[];
  /** The beam (or selection) after this step. */
  beam: number[];
}

export interface SelectedNode {
  id: number;
  doc_id: number;
  file_name: string;
  level: number;
  page_start: number;
  page_end: number;
  score: number;
}

export interface ContextPage {
  doc_id: number;
  file_name: string;
  page: number;
  tokens: number;
}

export interface Context {
  text: string;
  pages: ContextPage[];
  tokens: number;
  tokenizer: string;
  dropped_nodes: number[];
  truncation: string | null;
}

export interface SearchResult {
  question: string;
  strategy: Strategy;
  settings: SearchSettings;
  selected: SelectedNode[];
  context: Context;
  embed_ms: number;
  search_ms: number;
  latency_ms: number;
  store_queries: number;
  trace: TraceStep[];
  stopped_because: string;
  /** What the question named and how the first step used it; null when analysis was off. */
  analysis: QuestionAnalysis | null;
}

/** What a question names that cards hold (src/card/question.rs). */
export interface QuestionAnalysis {
  organizations: string[];
  years: number[];
  quarters: number[];
  kinds: DocumentKind[];
  dates: string[];
  /** The documents the search was restricted to. */
  filter: number[] | null;
  /** Documents ranked up at the first step, `[docId, boost]`, best first. */
  boosts: [number, number][];
  /** How the analysis was used, in words. */
  note: string;
}

export interface CompareResult {
  results: SearchResult[];
  skipped: string[];
}

export interface Citation {
  document: string;
  page: number;
}

export interface CheckedAnswer {
  text: string;
  citations: Citation[];
  removed: string[];
  uncited: boolean;
}

export interface AskOutcome {
  run_id: number;
  conversation_id: number;
  search: SearchResult;
  answer: CheckedAnswer;
  model: string | null;
  first_token_ms: number | null;
  total_ms: number;
  notes: string[];
}

export interface AnswerRecord {
  text: string;
  citations: Citation[];
  removed: string[];
  uncited: boolean;
  model: string | null;
  first_token_ms: number | null;
  total_ms: number | null;
}

export type RunKind = 'search' | 'compare' | 'ask' | 'bench';

export interface RunRecord {
  id: number;
  kind: RunKind;
  conversation_id: number | null;
  question: string;
  /** The strategy's name (e.g. "knee"); its parameters are in `settings.strategy`. */
  strategy: string | null;
  /** As the engine stores it: `{ strategy: Strategy, search: SearchSettings }`. */
  settings: unknown;
  selected: unknown;
  pages: ContextPage[] | unknown;
  trace?: TraceStep[];
  metrics: unknown | null;
  context_tokens: number | null;
  latency_ms: number | null;
  embed_ms: number | null;
  status: 'ok' | 'failed';
  error: string | null;
  created_at: string;
  answer: AnswerRecord | null;
}

export type QdrantMode = 'embedded' | 'remote';

/** How a collection made on a Qdrant cluster is spread over its nodes. */
export interface ClusterSettings {
  /** null lets the server choose (one shard per node). */
  shard_number: number | null;
  replication_factor: number;
  write_consistency_factor: number;
}

/** The shell keeps no section scoring among them: searches start from DEFAULT_SECTION_SCORING. */
export interface StrategyDefaults {
  strategies: Strategy[];
  fusion: Fusion;
  token_budget: number | null;
}

/** The shell's bounds and default for `llm_answer_deadline_secs` (src/settings.rs). */
export const ANSWER_DEADLINE = { min: 10, max: 3600, default: 300 } as const;

/** The dense embedding models a library can be made with, as settings name them. */
export type DenseModelId = 'minilm' | 'e5-small';

export interface AppSettings {
  llm_base_url: string | null;
  llm_model: string | null;
  /** Write-only: the shell returns null. */
  llm_api_key: string | null;
  /** Where the key lives, as the shell says it, e.g. "OS keyring" or "not stored". */
  llm_key_storage: string;
  /** Seconds one answer may take, retries included (10 s to 60 min); then it is cut short. */
  llm_answer_deadline_secs: number;
  embedding_model_dir: string | null;
  /** Read-only: the name of the model that made the library's dense vectors. */
  embedding_model?: string;
  /** The library's dense model. Saving another one re-embeds a library that has documents. */
  dense_model?: DenseModelId | null;
  qdrant_mode: QdrantMode;
  qdrant_url: string | null;
  /** Write-only, as the LLM key. */
  qdrant_api_key: string | null;
  qdrant_key_storage: string;
  qdrant_cluster: ClusterSettings;
  defaults: StrategyDefaults;
}

/** Why a key would cross the network in clear, a server; null when it would not. */
export interface KeyWarnings {
  llm: string | null;
  qdrant: string | null;
}

export interface ConnectionTest {
  ok: boolean;
  message: string;
  latency_ms: number | null;
}

export type ExportFormat = 'md' | 'json';

// ---------------------------------------------------------------------------------------
// Event payloads
// ---------------------------------------------------------------------------------------

export type IngestStage = 'reading' | 'describing' | 'summarising' | 'embedding' | 'indexing';

export interface IngestProgress {
  file: string;
  stage: IngestStage;
  done: number;
  total: number;
}

export interface IngestFinished {
  file: string;
  document: DocumentRecord | null;
  error: string | null;
  warnings: string[];
}

export interface AskToken {
  requestId: string;
  piece: string;
}

export interface LibraryDropped {
  paths: string[];
}

/** A file the UI offered for saving (a history export) was written by the shell. */
export interface DownloadFinished {
  path: string | null;
  ok: boolean;
}

// ---------------------------------------------------------------------------------------
// The contract: command names with their arguments and results, event names with payloads
// ---------------------------------------------------------------------------------------

export interface Commands {
  list_documents: { args: Record<string, never>; result: DocumentRecord[] };
  ingest_paths: { args: { paths: string[] }; result: void };
  pick_and_ingest: { args: Record<string, never>; result: void };
  cancel_ingest: { args: Record<string, never>; result: void };
  delete_document: { args: { key: string }; result: DocumentRecord };
  document_tree: { args: { key: string }; result: DocumentTree };
  correct_card: { args: { document: string; assignments: string[] }; result: DocumentRecord };
  page_image: { args: { docId: number; page: number; width: number }; result: string };
  page_text: { args: { docId: number; page: number }; result: string };
  search: {
    args: { question: string; strategy: Strategy; settings: SearchSettings };
    result: SearchResult;
  };
  compare: {
    args: { question: string; strategies: Strategy[]; settings: SearchSettings };
    result: CompareResult;
  };
  ask: {
    args: {
      question: string;
      strategy: Strategy;
      settings: SearchSettings;
      conversationId: number | null;
      requestId: string;
    };
    result: AskOutcome;
  };
  history: { args: { search: string | null; limit: number }; result: RunRecord[] };
  history_entry: { args: { id: number }; result: RunRecord };
  export_history: { args: { format: ExportFormat }; result: string };
  get_settings: { args: Record<string, never>; result: AppSettings };
  save_settings: { args: { settings: AppSettings }; result: AppSettings };
  test_llm_connection: { args: { settings: AppSettings }; result: ConnectionTest };
  settings_warnings: { args: { settings: AppSettings }; result: KeyWarnings };
}

export type CommandName = keyof Commands;
export type CommandArgs<C extends CommandName> = Commands[C]['args'];
export type CommandResult<C extends CommandName> = Commands[C]['result'];

export interface Events {
  'ingest://progress': IngestProgress;
  'ingest://finished': IngestFinished;
  'ask://token': AskToken;
  'library://dropped': LibraryDropped;
  'download://finished': DownloadFinished;
}

export type EventName = keyof Events;
export type Unlisten = () => void;

/** What carries commands and events: the Tauri shell, or the DemoBackend test double. */
export interface Transport {
  readonly demo: boolean;
  invoke<C extends CommandName>(command: C, args: CommandArgs<C>): Promise<CommandResult<C>>;
  listen<E extends EventName>(event: E, handler: (payload: Events[E]) => void): Promise<Unlisten>;
}

// ---------------------------------------------------------------------------------------
// Choosing the transport
// ---------------------------------------------------------------------------------------

/** True inside the Tauri webview (the shell injects `__TAURI_INTERNALS__`). */
export function insideTauri(): boolean {
  return typeof window !== 'undefined' && '__TAURI_INTERNALS__' in window;
}

async function tauriTransport(): Promise<Transport> {
  const [core, event] = await Promise.all([
    import('@tauri-apps/api/core'),
    import('@tauri-apps/api/event'),
  ]);
  return {
    demo: false,
    invoke: (command, args) => core.invoke(command, args as Record<string, unknown>),
    listen: async (name, handler) => event.listen(name, (e) => handler(e.payload as never)),
  };
}

let chosen: Promise<Transport> | null = null;
let demoInUse = false;

function transport(): Promise<Transport> {
  if (!chosen) {
    chosen = insideTauri()
      ? tauriTransport()
      : import('./api-double').then((m) => {
          demoInUse = true;
          return new m.DemoBackend();
        });
  }
  return chosen;
}

/** For tests: use this transport instead of choosing one. */
export function useTransport(t: Transport): void {
  chosen = Promise.resolve(t);
  demoInUse = t.demo;
  imageCache.clear();
}

/** Resolves to true when the DemoBackend test double answers instead of the shell. */
export async function isDemo(): Promise<boolean> {
  await transport();
  return demoInUse;
}

async function call<C extends CommandName>(command: C, args: CommandArgs<C>): Promise<CommandResult<C>> {
  const t = await transport();
  try {
    return await t.invoke(command, args);
  } catch (err) {
    throw new ShellError(command, errorMessage(err));
  }
}

/** A rejected command; `message` is the shell's text, written for people. */
export class ShellError extends Error {
  constructor(
    readonly command: string,
    message: string,
  ) {
    super(message);
    this.name = 'ShellError';
  }
}

/** The text to show for anything a command or the UI threw. */
export function errorMessage(err: unknown): string {
  if (typeof err === 'string') return err;
  if (err instanceof Error) return err.message;
  if (err && typeof err === 'object' && 'message' in err && typeof err.message === 'string') {
    return err.message;
  }
  try {
    return JSON.stringify(err);
  } catch {
    return String(err);
  }
}

// ---------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------

const none = {} as Record<string, never>;

export const api = {
  listDocuments: () => call('list_documents', none),
  ingestPaths: (paths: string[]) => call('ingest_paths', { paths }),
  pickAndIngest: () => call('pick_and_ingest', none),
  cancelIngest: () => call('cancel_ingest', none),
  /** `key` is a document's name, file name or id as text. */
  deleteDocument: (key: string) => call('delete_document', { key }),
  documentTree: (key: string) => call('document_tree', { key }),
  /** `document` as `deleteDocument`'s key; `assignments` are `field=value` (empty clears). */
  correctCard: (document: string, assignments: string[]) => call('correct_card', { document, assignments }),
  pageImage,
  pageText: (docId: number, page: number) => call('page_text', { docId, page }),
  search: (question: string, strategy: Strategy, settings: SearchSettings) =>
    call('search', { question, strategy, settings }),
  compare: (question: string, strategies: Strategy[], settings: SearchSettings) =>
    call('compare', { question, strategies, settings }),
  ask: (
    question: string,
    strategy: Strategy,
    settings: SearchSettings,
    conversationId: number | null,
    requestId: string,
  ) => call('ask', { question, strategy, settings, conversationId, requestId }),
  history: (search: string | null, limit: number) => call('history', { search, limit }),
  historyEntry: (id: number) => call('history_entry', { id }),
  exportHistory: (format: ExportFormat) => call('export_history', { format }),
  getSettings: () => call('get_settings', none),
  saveSettings: (settings: AppSettings) => call('save_settings', { settings }),
  testLlmConnection: (settings: AppSettings) => call('test_llm_connection', { settings }),
  settingsWarnings: (settings: AppSettings) => call('settings_warnings', { settings }),
};

// Page images are the heaviest calls (a PNG rendered by PDFium per page): keep the
// recent ones, keyed by document, page and width, and share calls in flight.
const IMAGE_CACHE_SIZE = 400;
const imageCache = new Map<string, Promise<string>>();

function pageImage(docId: number, page: number, width: number): Promise<string> {
  const key = `${docId}:${page}:${width}`;
  const hit = imageCache.get(key);
  if (hit) {
    imageCache.delete(key);
    imageCache.set(key, hit);
    return hit;
  }
  const pending = call('page_image', { docId, page, width });
  imageCache.set(key, pending);
  pending.catch(() => imageCache.delete(key));
  while (imageCache.size > IMAGE_CACHE_SIZE) {
    const oldest = imageCache.keys().next().value;
    if (oldest === undefined) break;
    imageCache.delete(oldest);
  }
  return pending;
}

/** Forget cached page images of a document (after it is removed or re-ingested). */
export function forgetImages(docId: number): void {
  for (const key of [...imageCache.keys()]) {
    if (key.startsWith(`${docId}:`)) imageCache.delete(key);
  }
}

// ---------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------

export async function on<E extends EventName>(
  event: E,
  handler: (payload: Events[E]) => void,
): Promise<Unlisten> {
  const t = await transport();
  return t.listen(event, handler);
}

export const onIngestProgress = (h: (p: IngestProgress) => void) => on('ingest://progress', h);
export const onIngestFinished = (h: (p: IngestFinished) => void) => on('ingest://finished', h);
export const onAskToken = (h: (p: AskToken) => void) => on('ask://token', h);
export const onLibraryDropped = (h: (p: LibraryDropped) => void) => on('library://dropped', h);
export const onDownloadFinished = (h: (p: DownloadFinished) => void) => on('download://finished', h);

// ---------------------------------------------------------------------------------------
// Defaults (the engine's, see src/search/strategy.rs)
// ---------------------------------------------------------------------------------------

export const STRATEGY_NAMES: readonly StrategyName[] = [
  'flat',
  'branch',
  'beam',
  'knee',
  'sensitive-knee',
  'largest-gap',
  'collapsed-tree',
  'proxy-pointer',
];

export const FUSION_METHODS: readonly FusionMethod[] = ['rrf', 'dbsf', 'min-max'];

export const SECTION_SCORINGS: readonly SectionScoring[] = ['own-text', 'best-page'];

export function defaultStrategies(): Strategy[] {
  return [
    { name: 'flat', k: 10 },
    { name: 'branch', roots: 2 },
    { name: 'beam', width: 3 },
    { name: 'knee', max_roots: 40 },
    { name: 'sensitive-knee', sensitivity: 0.85, max_roots: 40 },
    { name: 'largest-gap', max_roots: 40 },
    { name: 'collapsed-tree', depth: 40 },
    { name: 'proxy-pointer', proxies: 12 },
  ];
}

/** The engine's default (`DEFAULT_FUSION` in src/search/mod.rs), for when the shell sends none. */
export function defaultFusion(): Fusion {
  return { method: 'min-max', rrf_k: 2, dense_weight: 1, sparse_weight: 1 };
}

export const DEFAULT_SECTION_SCORING: SectionScoring = 'best-page';

/** A fresh request id for `ask`, to tell its `ask://token` events from others. */
export function newRequestId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `req-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
