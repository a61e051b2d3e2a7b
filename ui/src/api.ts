// The ONE module through which the UI talks to the shell (src-tauri).
//
// Inside Tauri every call goes through `invoke` / `listen` of @tauri-apps/api. Opened in
// a plain browser (no `window.__TAURI_INTERNALS__`), the same calls go to the test
// double in ./api-double.ts ("DemoBackend"), an in-memory library of canned data, so
// the UI can be looked at, screenshotted and browser-tested without the shell. The UI
// shows a "demo data" badge whenever the double is in use (see `isDemo`).
//
// The JSON types are generated from the Rust types (./bindings.ts) exactly as serde emits
// them (snake_case). Command arguments are camelCase: Tauri maps them onto the Rust
// parameter names.

// ---------------------------------------------------------------------------------------
// Payload types: generated from the Rust types into ./bindings.ts (src-tauri/src/bindings.rs;
// `cargo test` fails when that file is stale)
// ---------------------------------------------------------------------------------------

import type {
  About,
  AppSettings,
  AskOutcome,
  AskToken,
  CompareResult,
  ConnectionTest,
  DenseModel,
  DocumentRecord,
  DocumentTree,
  Fusion,
  FusionMethod,
  DownloadFinished,
  GoldPage,
  IngestFinished,
  IngestProgress,
  IngestQueued,
  KeyWarnings,
  LibraryDrag,
  LibraryDropped,
  LocalModelStatus,
  LocalServer,
  OutlineDocument,
  PageLabel,
  RunRecord,
  SearchResult,
  SearchSettings,
  SectionScoring,
  Stage,
  Strategy,
} from './bindings';

export type * from './bindings';

export type StrategyName = Strategy['name'];

/** The dense embedding models a library can be made with, as settings name them. */
export type DenseModelId = DenseModel;

/** A stage of ingestion, as `ingest://progress` names it. */
export type IngestStage = Stage;

/** The shell's bounds and default for `llm_answer_deadline_secs` (src/settings.rs). */
export const ANSWER_DEADLINE = { min: 10, max: 3600, default: 300 } as const;

/** The format `export_history` writes (src-tauri/src/commands/history.rs). */
export type ExportFormat = 'md' | 'json';

// ---------------------------------------------------------------------------------------
// The contract: command names with their arguments and results, event names with payloads
// ---------------------------------------------------------------------------------------

export interface Commands {
  list_documents: { args: Record<string, never>; result: DocumentRecord[] };
  ingest_paths: { args: { paths: string[] }; result: number };
  pick_and_ingest: { args: Record<string, never>; result: void };
  cancel_ingest: { args: Record<string, never>; result: void };
  delete_document: { args: { key: string }; result: DocumentRecord };
  document_tree: { args: { key: string }; result: DocumentTree };
  correct_card: { args: { document: string; assignments: string[] }; result: DocumentRecord };
  page_image: { args: { docId: number; page: number; width: number }; result: string };
  page_text: { args: { docId: number; page: number }; result: string };
  page_labels: { args: { docId: number }; result: PageLabel[] };
  search: {
    args: { question: string; strategy: Strategy; settings: SearchSettings };
    result: SearchResult;
  };
  compare: {
    args: { question: string; strategies: Strategy[]; settings: SearchSettings };
    result: CompareResult;
  };
  trace_outline: { args: { nodeIds: number[] }; result: OutlineDocument[] };
  bench_gold: { args: { question: string }; result: GoldPage[] };
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
  change_dense_model: { args: { model: DenseModelId }; result: AppSettings };
  test_llm_connection: { args: { settings: AppSettings }; result: ConnectionTest };
  settings_warnings: { args: { settings: AppSettings }; result: KeyWarnings };
  about: { args: Record<string, never>; result: About };
  detect_llm_servers: { args: Record<string, never>; result: LocalServer[] };
  pick_model_file: { args: Record<string, never>; result: string | null };
  use_model_file: { args: { file: string }; result: AppSettings };
  stop_model_file: { args: Record<string, never>; result: AppSettings };
  model_file_status: { args: Record<string, never>; result: LocalModelStatus };
}

export type CommandName = keyof Commands;
export type CommandArgs<C extends CommandName> = Commands[C]['args'];
export type CommandResult<C extends CommandName> = Commands[C]['result'];

export interface Events {
  'ingest://progress': IngestProgress;
  'ingest://finished': IngestFinished;
  'ingest://queued': IngestQueued;
  'ask://token': AskToken;
  'library://dropped': LibraryDropped;
  'library://drag': LibraryDrag;
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
  /** Resolves to the number of PDFs queued (folders are searched by the shell). */
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
  /** Every printed page label of a document, in page order (none for a PDF without). */
  pageLabels: (docId: number) => call('page_labels', { docId }),
  search: (question: string, strategy: Strategy, settings: SearchSettings) =>
    call('search', { question, strategy, settings }),
  compare: (question: string, strategies: Strategy[], settings: SearchSettings) =>
    call('compare', { question, strategies, settings }),
  /** The touched part of each document's tree, for drawing a trace. */
  traceOutline: (nodeIds: number[]) => call('trace_outline', { nodeIds }),
  /** The pages that answer `question` when a bench run asked it (empty otherwise). */
  benchGold: (question: string) => call('bench_gold', { question }),
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
  changeDenseModel: (model: DenseModelId) => call('change_dense_model', { model }),
  testLlmConnection: (settings: AppSettings) => call('test_llm_connection', { settings }),
  settingsWarnings: (settings: AppSettings) => call('settings_warnings', { settings }),
  about: () => call('about', none),
  /** The language model servers answering on this computer's usual ports. */
  detectLlmServers: () => call('detect_llm_servers', none),
  /** The system's file dialog for a .gguf model; null when cancelled. */
  pickModelFile: () => call('pick_model_file', none),
  /** Serves `file` with the app's own llama-server and makes it the library's model. */
  useModelFile: (file: string) => call('use_model_file', { file }),
  stopModelFile: () => call('stop_model_file', none),
  modelFileStatus: () => call('model_file_status', none),
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
export const onIngestQueued = (h: (p: IngestQueued) => void) => on('ingest://queued', h);
export const onAskToken = (h: (p: AskToken) => void) => on('ask://token', h);
export const onLibraryDropped = (h: (p: LibraryDropped) => void) => on('library://dropped', h);
export const onLibraryDrag = (h: (p: LibraryDrag) => void) => on('library://drag', h);
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
    { name: 'knee', max_roots: 10 },
    { name: 'sensitive-knee', sensitivity: 0.85, max_roots: 10 },
    { name: 'largest-gap', max_roots: 10 },
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
