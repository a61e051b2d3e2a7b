// Small pure helpers shared by the views: labels, numbers, progress, notes, lookups.

import type {
  AnswerRecord,
  AskOutcome,
  Citation,
  ContextPage,
  DocumentRecord,
  DownloadFinished,
  IngestProgress,
  IngestStage,
} from './api';
import { sameDocument } from './citations';
import { pageInWords } from './page-labels';

/** `BOEING_2022_10K.pdf` → `BOEING_2022_10K`. */
export function stem(fileName: string): string {
  return fileName.replace(/\.pdf$/i, '');
}

/** `FILE p.N`, the chip text of a page; `FILE p. 47 · PDF page 52` with a printed number. */
export function pageLabel(page: { file_name: string; page: number; page_label?: string | null }): string {
  return `${stem(page.file_name)} ${pageInWords(page.page, page.page_label)}`;
}

/** Pages in a stable order (document, then page), without duplicates. */
export function uniquePages(pages: ContextPage[]): ContextPage[] {
  const seen = new Set<string>();
  const out: ContextPage[] = [];
  for (const p of pages) {
    const key = `${p.doc_id}:${p.page}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(p);
    }
  }
  return out;
}

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 10_000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '–';
  return n.toLocaleString('en-US');
}

/** `2026-11-30T17:21:00Z` → local "2026-11-30 18:21"; anything unparsable as is. */
export function formatDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export const STAGES: readonly IngestStage[] = [
  'reading',
  'ocr',
  'describing',
  'summarising',
  'embedding',
  'indexing',
];

/** Share of the whole ingestion each stage takes (describing pages dominates). */
const STAGE_SHARE: Record<IngestStage, number> = {
  reading: 0.05,
  // Most documents have no scans and skip it; a scan's count of pages shows in the text.
  ocr: 0,
  describing: 0.55,
  summarising: 0.1,
  embedding: 0.2,
  indexing: 0.1,
};

export const STAGE_LABELS: Record<IngestStage, string> = {
  reading: 'reading pages',
  ocr: 'reading scanned pages (OCR)',
  describing: 'describing pages',
  summarising: 'summarising sections',
  embedding: 'embedding',
  indexing: 'indexing',
};

/** Progress of a whole document, 0..1, from the stage it is in and that stage's count. */
export function overallProgress(p: Pick<IngestProgress, 'stage' | 'done' | 'total'>): number {
  let before = 0;
  for (const stage of STAGES) {
    if (stage === p.stage) break;
    before += STAGE_SHARE[stage];
  }
  const share = STAGE_SHARE[p.stage] ?? 0;
  const within = p.total > 0 ? Math.min(1, Math.max(0, p.done / p.total)) : 0;
  return Math.min(1, before + share * within);
}

/** "describing pages 12/40". */
export function progressText(p: IngestProgress): string {
  const label = STAGE_LABELS[p.stage] ?? p.stage;
  return p.total > 1 ? `${label} ${p.done}/${p.total}` : label;
}

const NO_MODEL = 'no language model is configured';

/**
 * The notes to show under an answer: the shell's own, plus removed citations, an uncited
 * answer and a missing model when the shell's notes do not already say so.
 */
export function answerNotes(
  outcome: Pick<AskOutcome, 'notes' | 'model'> & { answer: Pick<AnswerRecord, 'removed' | 'uncited'> },
): string[] {
  const notes = [...outcome.notes];
  const said = (needle: string) => notes.some((n) => n.toLowerCase().includes(needle));
  if (outcome.answer.removed.length > 0 && !said('removed')) {
    notes.push(`removed citations of pages that were not in the context: ${outcome.answer.removed.join(', ')}`);
  }
  if (outcome.answer.uncited && !said('cites no page')) {
    notes.push('the answer cites no page of the context: treat it with care');
  }
  if (outcome.model === null && !said('language model') && !said('no model')) {
    notes.push(`${NO_MODEL}: the answer is made of passages of the pages found`);
  }
  return notes;
}

/** The library document a citation names (by name or file name, without case). */
export function documentFor(citation: Citation | string, documents: DocumentRecord[]): DocumentRecord | null {
  const name = typeof citation === 'string' ? citation : citation.document;
  return (
    documents.find((d) => sameDocument(d.name, name)) ??
    documents.find((d) => sameDocument(d.file_name, name)) ??
    null
  );
}

/** The document an ingestion event is about (the shell reports the file name). */
export function documentForFile(file: string, documents: DocumentRecord[]): DocumentRecord | null {
  const base = file.split(/[\\/]/).pop() ?? file;
  return (
    documents.find((d) => d.path === file) ??
    documents.find((d) => d.file_name === base) ??
    documents.find((d) => sameDocument(d.name, base)) ??
    null
  );
}

/** Debounce: call `fn` once `ms` after the last of a burst of calls. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): ((...args: A) => void) & { cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const wrapped = (...args: A) => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      fn(...args);
    }, ms);
  };
  wrapped.cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  return wrapped;
}

/** Only PDF files (by name) and folders go to ingestion. */
export function isPdfName(name: string): boolean {
  return /\.pdf$/i.test(name);
}

/** Where the shell saved an export (in a browser, the browser's own download UI says). */
export function downloadOutcome(outcome: DownloadFinished): string {
  if (!outcome.ok) return 'The export could not be saved.';
  return outcome.path ? `Saved to ${outcome.path}` : 'Saved to your Downloads folder.';
}

/**
 * The engine's words as the app says them: a CLI command the engine names as a way out
 * ("(or run `pagetree reindex …`)") is left out, since the app has its own way (Settings).
 */
export function appWords(text: string): string {
  return text
    .replace(/\s*\((?:or )?(?:run )?`pagetree [^`]*`[^)]*\)/g, '')
    .replace(/[,;]?\s*(?:or )?run `pagetree [^`]*`/g, '')
    .replace(/`pagetree [^`]*`/g, 'the command line')
    .trim();
}
