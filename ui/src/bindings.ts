// Generated from the Rust types by src-tauri/src/bindings.rs: do not edit.
// PAGETREE_WRITE_BINDINGS=1 cargo test -p pagetree-app bindings rewrites it.

export type DocumentStatus = "ingesting" | "ready" | "failed" | "interrupted";

/**
 * What kind of document a card describes. Filings have their SEC form; everything
 * else has a generic kind.
 */
export type DocumentKind = "annual-report" | "quarterly-report" | "current-report" | "earnings-release" | "paper" | "contract" | "report" | "slides" | "manual" | "brochure" | "form" | "other";

/**
 * A card's fields, by the names `pagetree card DOC --set field=value` takes.
 */
export type CardField = "title" | "organization" | "aliases" | "kind" | "fiscal_year" | "fiscal_quarter" | "period_end" | "date";

/**
 * Where a card's values came from.
 */
export type CardSource = "rules" | "llm";

/**
 * A document's identity. Every field may be missing; `unsure` names the fields the
 * reader guessed at, and `corrected` those a person set by hand.
 */
export type DocumentCard = { title: string | null, 
/**
 * The issuing organisation as the document names itself ("3M Company").
 */
organization: string | null, 
/**
 * Short forms and tickers the organisation goes by ("3M", "MMM").
 */
aliases: Array<string>, kind: DocumentKind | null, 
/**
 * The fiscal year the document reports on (for a 10-K, the year its fiscal year
 * ends in; for a 10-Q or an earnings release, the fiscal year of its quarter).
 */
fiscal_year: number | null, 
/**
 * 1–4 for a quarterly document.
 */
fiscal_quarter: number | null, 
/**
 * The last day of the period covered, `YYYY-MM-DD`.
 */
period_end: string | null, 
/**
 * The document's own date (an 8-K's date of report, a release's date), `YYYY-MM-DD`.
 */
date: string | null, unsure: Array<CardField>, corrected: Array<CardField>, source: CardSource, };

export type DocumentRecord = { id: number, name: string, file_name: string, path: string, content_hash: string, page_count: number | null, pages_without_text: number | null, 
/**
 * Pages whose text OCR read.
 */
pages_read_by_ocr: number | null, 
/**
 * Scans left unread: OCR is off for the library or Tesseract was missing.
 */
pages_needing_ocr: number | null, node_count: number | null, status: DocumentStatus, error: string | null, describer: string | null, warnings: string | null, 
/**
 * What the document says it is; none for documents ingested before cards.
 */
card: DocumentCard | null, 
/**
 * The language its text is in, as BM25 stems it; none if it could not be told or
 * the library stems every document alike.
 */
language: string | null, added_at: string, updated_at: string, };

/**
 * The number printed on a page of a document (its PDF page label, see
 * [`PageText::label`]), for a reader who pages through it.
 */
export type PageLabel = { 
/**
 * The PDF page, 1-based.
 */
page: number, label: string, };

/**
 * One node of a document tree, exactly as it is stored as a point's payload.
 */
export type Node = { id: number, doc_id: number, file_name: string, parent_id: number, child_ids: Array<number>, 
/**
 * 0 for pages; a parent is one above its highest child.
 */
level: number, 
/**
 * 1-based and inclusive.
 */
page_start: number, page_end: number, description: string, keywords: Array<string>, 
/**
 * The section's heading as the document gives it (its outline or a heading on its
 * first page), on sections and on pages that are a section of their own.
 */
title?: string | null, 
/**
 * The document's card, on its root only: what a reader of the index (or another
 * client of a shared Qdrant collection) needs to know which document a tree is.
 */
card?: DocumentCard | null, };

export type DocumentTree = { document: DocumentRecord, root_id: number | null, nodes: Array<Node>, };

export type Strategy = { "name": "flat", k: number, } | { "name": "branch", roots: number, } | { "name": "beam", width: number, } | { "name": "knee", max_roots: number, } | { "name": "sensitive-knee", sensitivity: number, max_roots: number, } | { "name": "largest-gap", max_roots: number, } | { "name": "collapsed-tree", depth: number, } | { "name": "proxy-pointer", proxies: number, };

/**
 * How [`Fusion`] combines the two rankings (see [`fusion`] for the formulas).
 */
export type FusionMethod = "rrf" | "dbsf" | "min-max";

/**
 * How the dense and the sparse ranking of the same candidates become one.
 */
export type Fusion = { 
/**
 * Missing from JSON (settings and history written before there was a choice)
 * means RRF, the only fusion there was.
 */
method: FusionMethod, 
/**
 * RRF's `k`: `score = Σ w / (k + rank)`, ranks from 0. Unused by the other methods.
 */
rrf_k: number, dense_weight: number, sparse_weight: number, };

/**
 * How a section (a parent or a root) is scored when a step ranks it.
 */
export type SectionScoring = "own-text" | "best-page";

export type SearchSettings = { fusion: Fusion, 
/**
 * Fusion for the first step, over the documents' roots (e.g. keywords first to find
 * the right filing); `fusion` otherwise.
 */
root_fusion?: Fusion | null, 
/**
 * Largest context, in LLM tokens; the lowest-scored nodes go first.
 */
token_budget: number | null, 
/**
 * A selected section wider than this many pages is narrowed to its best pages
 * (ranked in one more hybrid query, cut at the knee); none keeps whole sections.
 * Missing from JSON means the default, so that clients that do not know the field
 * (the app's settings) get page-precise contexts; an explicit null turns it off.
 */
max_node_pages?: number | null, 
/**
 * Restrict the search to these documents (ids); all ready documents otherwise.
 */
documents: Array<number> | null, 
/**
 * Read organisations, periods and kinds of document in the question and use the
 * documents' cards at the first step (see [`crate::card::question`]). Only over the
 * whole library: a search told its documents has nothing to choose.
 */
query_analysis?: boolean, 
/**
 * How sections are scored by the tree strategies. Missing from JSON means the
 * default.
 */
section_scoring: SectionScoring, 
/**
 * With a token budget, a tree strategy's choice comes first and, when it chose
 * within one document, what it leaves of the budget goes to that document's best
 * other pages (the pages flat top-k would take there), so that an early stop never
 * leaves evidence unread.
 * Missing from JSON means on.
 */
fill_budget?: boolean, };

export type ScoredNode = { id: number, score: number, };

/**
 * One step of a search, as the UI draws it.
 */
export type TraceStep = { label: string, 
/**
 * Every candidate ranked in this step, best first.
 */
candidates: Array<ScoredNode>, 
/**
 * Where the knee was found in `candidates`, for the knee strategies.
 */
knee_index: number | null, 
/**
 * How many candidates survived the cut (all of them when there is no cut).
 */
kept: number, eliminated: Array<number>, 
/**
 * The beam (or selection) after this step.
 */
beam: Array<number>, };

/**
 * A node the strategy chose, with what a person needs to cite it.
 */
export type SelectedNode = { id: number, doc_id: number, file_name: string, level: number, page_start: number, page_end: number, score: number, };

export type ContextPage = { doc_id: number, file_name: string, 
/**
 * 1-based.
 */
page: number, 
/**
 * The number printed on the page (its PDF page label), when the PDF has labels.
 */
page_label: string | null, tokens: number, };

export type Context = { text: string, pages: Array<ContextPage>, tokens: number, tokenizer: string, 
/**
 * Nodes left out to fit the token budget, lowest score first.
 */
dropped_nodes: Array<number>, 
/**
 * Set when the budget cut the context, in words.
 */
truncation: string | null, };

export type FinancialStatement = "balance-sheet" | "income-statement" | "cash-flows";

export type SearchResult = { question: string, strategy: Strategy, 
/**
 * As given: the fusion weights relative to the library model's balance (see
 * [`balance::DenseBalance`]).
 */
settings: SearchSettings, selected: Array<SelectedNode>, context: Context, 
/**
 * Time to embed the question.
 */
embed_ms: number, 
/**
 * Time of the search itself, without embedding.
 */
search_ms: number, 
/**
 * Everything: embedding, search and context assembly.
 */
latency_ms: number, store_queries: number, trace: Array<TraceStep>, stopped_because: string, 
/**
 * What the question named and how the first step used it.
 */
analysis: QuestionAnalysis | null, 
/**
 * The financial statements the question asks about, whose pages were ranked up.
 */
statements?: Array<FinancialStatement>, };

/**
 * What was recognised in a question, and how the search used it.
 */
export type QuestionAnalysis = { 
/**
 * Organisations named, as the library's cards name them.
 */
organizations: Array<string>, 
/**
 * Fiscal or calendar years named, in the order they appear.
 */
years: Array<number>, quarters: Array<number>, kinds: Array<DocumentKind>, 
/**
 * Dates named (`YYYY-MM-DD`).
 */
dates: Array<string>, 
/**
 * The documents the search was restricted to, when an organisation was named
 * unambiguously.
 */
filter: Array<number> | null, 
/**
 * Documents ranked up at the first step, with their boosts, best first.
 */
boosts: Array<[number, number]>, 
/**
 * How the analysis was used, in words, for the trace.
 */
note: string, };

/**
 * Every strategy that ran on one question, and why the others did not.
 */
export type CompareResult = { results: Array<SearchResult>, 
/**
 * "strategy: reason", one per strategy that could not run.
 */
skipped: Array<string>, };

/**
 * One node of a trace outline.
 */
export type OutlineNode = { id: number, 
/**
 * `-1` for the root.
 */
parent_id: number, 
/**
 * 0 for pages.
 */
level: number, page_start: number, page_end: number, 
/**
 * The start of the node's description, on one line.
 */
title: string, };

/**
 * One document a search touched, with the touched part of its tree.
 */
export type OutlineDocument = { doc_id: number, name: string, page_count: number, 
/**
 * Touched nodes and their ancestors, parents before children, siblings in page order.
 */
nodes: Array<OutlineNode>, };

/**
 * A page that answers a benchmark question, as a bench run recorded it.
 */
export type GoldPage = { 
/**
 * The document's name in the library.
 */
document: string, 
/**
 * 1-based.
 */
page: number, };

export type Citation = { 
/**
 * The document's name as written (a `.pdf` suffix is dropped).
 */
document: string, 
/**
 * The PDF page, 1-based: what the citation is written with.
 */
page: number, 
/**
 * The number printed on that page (its PDF page label), when the PDF has labels:
 * what a reader finds the page by. Filled from the context after the answer.
 */
page_label: string | null, };

/**
 * What validation did to an answer.
 */
export type CheckedAnswer = { 
/**
 * The answer with citations of pages outside the context removed.
 */
text: string, 
/**
 * Valid citations, in order of first appearance.
 */
citations: Array<Citation>, 
/**
 * Citations that pointed outside the context, as written.
 */
removed: Array<string>, 
/**
 * True when the answer cites nothing at all.
 */
uncited: boolean, };

/**
 * A rectangle on a page in PDF points, measured from the page's top-left corner with
 * y growing downwards, as on the page's image.
 */
export type BoxRect = { x: number, y: number, width: number, height: number, };

/**
 * Where a passage is on its page: rectangles in points (see [`BoxRect`]) and the
 * page's size in points, so that a viewer can scale them to any image of the page.
 */
export type PassageBoxes = { page_width: number, page_height: number, rects: Array<BoxRect>, };

/**
 * A quoted passage of an answer.
 */
export type Passage = { 
/**
 * The document's name, as citations write it.
 */
document: string, doc_id: number, 
/**
 * 1-based PDF page.
 */
page: number, 
/**
 * The page's printed label, where the PDF has one.
 */
page_label: string | null, quote: string, 
/**
 * "sentence" or "row".
 */
kind: string, score: number, 
/**
 * Where the passage is on its page; None for a page without a text layer.
 */
boxes: PassageBoxes | null, 
/**
 * A row's values as printed, left to right (none for a sentence): the viewer marks
 * them in the page's text with the row's label.
 */
values: Array<string>, 
/**
 * A row's label as printed (none for a sentence): the quote cannot be split to
 * find it, since a label may itself hold " — ".
 */
label: string | null, };

/**
 * What checking an answer's figures found.
 */
export type NumberCheck = { 
/**
 * Figures looked for.
 */
checked: number, 
/**
 * Figures on none of the pages cited for them, as written.
 */
missing: Array<string>, };

export type AskOutcome = { run_id: number, conversation_id: number, search: SearchResult, answer: CheckedAnswer, 
/**
 * The passages an extractive answer quotes, best first, each with where it is on
 * its page (empty for a written answer).
 */
passages: Array<Passage>, 
/**
 * A written answer's figures looked for on the pages cited for them (None for an
 * extractive answer, which only quotes).
 */
numbers: NumberCheck | null, 
/**
 * None when no model is configured (the answer is extractive).
 */
model: string | null, first_token_ms: number | null, total_ms: number, notes: Array<string>, };

export type AnswerRecord = { text: string, citations: Array<Citation>, removed: Array<string>, uncited: boolean, model: string | null, first_token_ms: number | null, total_ms: number | null, };

export type RunKind = "search" | "compare" | "ask" | "bench";

export type RunRecord = { id: number, kind: RunKind, conversation_id: number | null, question: string, strategy: string | null, settings: unknown, selected: unknown, pages: unknown, trace?: TraceStep[], metrics: unknown, context_tokens: number | null, latency_ms: number | null, embed_ms: number | null, status: string, error: string | null, created_at: string, answer: AnswerRecord | null, };

export type QdrantMode = "embedded" | "remote";

/**
 * How a library's collection is spread over a cluster. The defaults suit one server;
 * docs/storage.md gives the values for a three-node cluster.
 */
export type ClusterSettings = { 
/**
 * Shards of the collection; none lets the server choose (one per node).
 */
shard_number: number | null, 
/**
 * Copies of each shard.
 */
replication_factor: number, 
/**
 * Copies that must confirm a write before it counts.
 */
write_consistency_factor: number, };

export type StrategyDefaults = { strategies: Array<Strategy>, fusion: Fusion, token_budget: number | null, };

/**
 * The model that makes a library's dense vectors. A library keeps the model it was
 * made with: vectors of two models cannot be compared.
 */
export type DenseModel = "minilm" | "e5-small" | "e5-small+minilm";

/**
 * The UI's settings form, both ways.
 */
export type AppSettings = { llm_base_url: string | null, llm_model: string | null, 
/**
 * Write-only: sent by the UI when the field is filled, never sent back.
 */
llm_api_key: string | null, llm_key_storage: string, 
/**
 * Seconds one answer may take (the library's setting).
 */
llm_answer_deadline_secs: number, embedding_model_dir: string | null, 
/**
 * Read-only: the name of the model that made the library's dense vectors.
 */
embedding_model?: string, 
/**
 * The library's dense model (`minilm`, `e5-small` or `e5-small+minilm`), read from the
 * library. Read-only here: saving the settings never changes it (`change_dense_model` does).
 */
dense_model?: DenseModel | null, qdrant_mode: QdrantMode, qdrant_url: string | null, 
/**
 * Write-only, as the LLM key.
 */
qdrant_api_key: string | null, qdrant_key_storage: string, 
/**
 * How a collection made by switching to a server is spread over its nodes.
 */
qdrant_cluster: ClusterSettings, defaults: StrategyDefaults, 
/**
 * Read scanned pages by OCR (the library's setting); none keeps it.
 */
ocr?: boolean | null, 
/**
 * Read-only: the Tesseract OCR runs, or why there is none and how to install it.
 */
ocr_engine?: string | null, };

/**
 * One sentence a server, or none when its key would not cross the network in clear.
 */
export type KeyWarnings = { llm: string | null, qdrant: string | null, };

export type ConnectionTest = { ok: boolean, message: string, latency_ms: number | null, };

/**
 * What kind of server answered, told by what it answers besides the OpenAI API.
 */
export type LocalServerKind = "ollama" | "llama-cpp" | "lm-studio" | "other";

/**
 * A server found on this machine, and the models it offers.
 */
export type LocalServer = { kind: LocalServerKind, port: number, 
/**
 * The base URL to give PageTree, e.g. `http://127.0.0.1:11434/v1`.
 */
base_url: string, models: Array<string>, };

/**
 * What the app's own server is doing, for the Settings view.
 */
export type LocalModelState = "off" | "starting" | "running" | "failed";

export type LocalModelStatus = { state: LocalModelState, 
/**
 * The model file, when one was chosen.
 */
file: string | null, 
/**
 * The name the server answers to, its URL and process id while it runs.
 */
model: string | null, base_url: string | null, pid: number | null, 
/**
 * Why it is not running, when it failed.
 */
message: string | null, };

/**
 * One of the run-time assets, as `scripts/assets.txt` pins it.
 */
export type PinnedAsset = { 
/**
 * What it is, for a person.
 */
name: string, 
/**
 * The PyPI package it comes from, and that package's pinned version.
 */
package: string, version: string, };

export type About = { version: string, assets: Array<PinnedAsset>, 
/**
 * Where PDFium, ONNX Runtime and the models were found.
 */
assets_folder: string | null, 
/**
 * Why PDFs cannot be read yet: which file is missing and how to get it.
 */
assets_problem: string | null, 
/**
 * Where the log files are; none when the log goes to standard error only.
 */
log_folder: string | null, };

export type Stage = "reading" | "ocr" | "describing" | "summarising" | "embedding" | "indexing";

export type IngestProgress = { file: string, stage: Stage, done: number, total: number, };

export type IngestFinished = { file: string, document: DocumentRecord | null, error: string | null, warnings: Array<string>, };

/**
 * One file waiting in the queue, as the window lists it.
 */
export type QueuedFile = { file: string, 
/**
 * Its page count, once counted (null at first, or when pdfium cannot open it).
 */
pages: number | null, };

/**
 * Files just queued: sent at once without page counts, then again with them, so the
 * window can list the files at once and count the batch in pages soon after.
 */
export type IngestQueued = { files: Array<QueuedFile>, 
/**
 * False when the files were just queued, true for the later event with their counts.
 */
counted: boolean, };

/**
 * One piece of a streamed answer; snake_case like every other payload.
 */
export type AskToken = { request_id: string, piece: string, };

export type LibraryDropped = { paths: Array<string>, };

/**
 * Files are being dragged over the window (or no longer are): the window shows where
 * they will go only while they are.
 */
export type LibraryDrag = { over: boolean, };

export type DownloadFinished = { path: string | null, ok: boolean, };
