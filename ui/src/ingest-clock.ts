// Overall progress of an ingestion batch, counted in files and pages, an honest estimate
// of the time left, and what the batch came to, worked out from the shell's
// `ingest://queued`, `ingest://progress` and `ingest://finished` events.
//
// The shell adds one file at a time, so the rate is the batch's own: the work done (each
// file weighs its pages; finished ones count whole, the one in progress its fraction)
// over the time since the batch began. No estimate is given before one file finished or
// half a file's worth of work took a while, nor when the files were not announced (a
// batch that was going on when the window opened).

import type { IngestFinished, IngestProgress, IngestQueued } from './api';
import { overallProgress } from './format';

/** Half a file's work over at least this long is enough to go on without a finished file. */
const MIN_WORK_FOR_ESTIMATE = 0.5;
const MIN_TIME_FOR_ESTIMATE_MS = 10_000;
/** A batch whose files are all done is over once nothing happened for this long. */
const IDLE_MS = 3_000;

export interface IngestSummary {
  /** Files done (added, already present, or failed while being added). */
  finished: number;
  /** Files known to be in the batch; a lower bound when `countKnown` is false. */
  total: number;
  countKnown: boolean;
  /** Pages read so far, of `pagesTotal` (the pages of the files counted so far; 0: none yet). */
  pagesDone: number;
  pagesTotal: number;
  /** Share of the batch done, 0..1, each file weighing its pages. */
  fraction: number;
  /** The time left, or null when there is too little to go on. */
  remainingMs: number | null;
}

/** What a finished batch came to. */
export interface BatchOutcome {
  added: number;
  /** Files that were in the library already. */
  already: number;
  failed: { file: string; error: string }[];
  cancelled: boolean;
}

interface FileState {
  /** Its page count, once the shell counted it (or its describing stage said). */
  pages: number | null;
  fraction: number;
  pagesRead: number;
  finished: boolean;
  /** Whether the engine worked on it (progress was seen), i.e. it counts for the rate. */
  worked: boolean;
  /** Whether the shell announced it as queued (else its batch's count is not known). */
  announced: boolean;
}

const emptyOutcome = (): BatchOutcome => ({ added: 0, already: 0, failed: [], cancelled: false });

export class IngestClock {
  private files = new Map<string, FileState>();
  private started: number | null = null;
  private lastEvent = 0;
  private result: BatchOutcome = emptyOutcome();
  /** The last batch's outcome, once it is over, until the next one begins or it is dismissed. */
  private shownOutcome: BatchOutcome | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /** The shell queued files (`counted: false`), or counted their pages (`counted: true`). */
  queued(event: IngestQueued): void {
    if (event.counted) {
      for (const f of event.files) {
        const file = this.files.get(f.file);
        if (file && f.pages !== null) file.pages = f.pages;
      }
      return;
    }
    if (event.files.length === 0) return;
    this.begin(true);
    for (const f of event.files) {
      const file = this.files.get(f.file);
      if (file && !file.finished) file.announced = true;
      else this.files.set(f.file, { pages: f.pages, fraction: 0, pagesRead: 0, finished: false, worked: false, announced: true });
    }
  }

  progress(p: IngestProgress): void {
    this.begin(false);
    let file = this.files.get(p.file);
    if (!file || file.finished) {
      file = { pages: null, fraction: 0, pagesRead: 0, finished: false, worked: true, announced: false };
      this.files.set(p.file, file);
    }
    file.worked = true;
    file.fraction = Math.max(file.fraction, overallProgress(p));
    if (p.stage === 'describing') {
      // Its total is the document's page count, whatever the shell counted.
      file.pages = p.total;
      file.pagesRead = Math.max(file.pagesRead, p.done);
    } else if (p.stage === 'summarising' || p.stage === 'embedding' || p.stage === 'indexing') {
      file.pagesRead = file.pages ?? file.pagesRead;
    }
  }

  finished(f: IngestFinished): void {
    if (this.started === null) return;
    this.lastEvent = this.now();
    const file = this.files.get(f.file);
    if (file && !file.finished) {
      file.finished = true;
      file.fraction = 1;
      file.pagesRead = file.pages ?? file.pagesRead;
    }
    if (f.error) this.result.failed.push({ file: f.file, error: f.error });
    else if (file && !file.worked) this.result.already++;
    else if (file || f.document) this.result.added++;
    if (!file && !f.error) {
      // Done at once, and not work the rate should include.
      this.files.set(f.file, { pages: null, fraction: 1, pagesRead: 0, finished: true, worked: false, announced: false });
    }
    // An error for a file never queued is a path the shell skipped: not part of the
    // count, but part of what the batch came to.
    if (this.over()) this.shownOutcome = this.result;
  }

  /** The user cancelled: the files left are reported as not added. */
  cancel(): void {
    if (this.started !== null) this.result.cancelled = true;
  }

  /** Forgets the batch and its outcome. */
  reset(): void {
    this.files.clear();
    this.started = null;
    this.result = emptyOutcome();
    this.shownOutcome = null;
  }

  /** The finished batch's outcome, or null while one runs (or after it was dismissed). */
  outcome(): BatchOutcome | null {
    return this.started !== null && this.over() ? this.shownOutcome : null;
  }

  dismissOutcome(): void {
    this.shownOutcome = null;
  }

  /** A file's page count as the shell counted it, or null. */
  pagesOf(file: string): number | null {
    return this.files.get(file)?.pages ?? null;
  }

  /** The files queued that have not started, in the order they were queued. */
  waiting(): string[] {
    if (this.started === null) return [];
    const out: string[] = [];
    for (const [name, f] of this.files) if (f.announced && !f.worked && !f.finished) out.push(name);
    return out;
  }

  summary(): IngestSummary | null {
    if (this.started === null || this.over()) return null;
    let known = 0;
    let knownPages = 0;
    for (const f of this.files.values()) {
      if (f.pages !== null) {
        known++;
        knownPages += f.pages;
      }
    }
    // A file not counted yet weighs what the others do on average.
    const average = known > 0 ? knownPages / known : 1;
    let finished = 0;
    let weight = 0;
    let done = 0;
    let worked = 0;
    let workedFinished = 0;
    let pagesDone = 0;
    let countKnown = true;
    for (const f of this.files.values()) {
      const w = f.pages ?? average;
      weight += w;
      done += f.fraction * w;
      if (f.finished) finished++;
      if (f.pages !== null) pagesDone += Math.min(f.pagesRead, f.pages);
      if (f.worked) {
        worked += f.fraction * w;
        if (f.finished) workedFinished++;
      }
      if (!f.announced && f.worked) countKnown = false;
    }
    const total = this.files.size;
    const elapsed = this.now() - this.started;
    const enough =
      workedFinished >= 1 || (worked >= MIN_WORK_FOR_ESTIMATE * average && elapsed >= MIN_TIME_FOR_ESTIMATE_MS);
    const remainingMs =
      countKnown && enough && worked > 0 && elapsed > 0 ? Math.max(0, ((weight - done) * elapsed) / worked) : null;
    return {
      finished,
      total,
      countKnown,
      pagesDone,
      pagesTotal: knownPages,
      fraction: weight > 0 ? Math.min(1, done / weight) : 0,
      remainingMs,
    };
  }

  private over(): boolean {
    for (const f of this.files.values()) if (!f.finished) return false;
    return true;
  }

  /**
   * Starts a batch unless one is going on. Progress on a new file just after the last
   * finished (a file picked while another was added) belongs to the same batch; files
   * queued after a batch is over start a new one.
   */
  private begin(announced: boolean): void {
    const now = this.now();
    if (this.started !== null && this.over() && (announced || now - this.lastEvent > IDLE_MS)) this.reset();
    if (this.started === null) {
      this.started = now;
      this.result = emptyOutcome();
      this.shownOutcome = null;
    }
    this.lastEvent = now;
  }
}

/** "less than a minute left", "about 4 min left", "about 2 h 10 min left". */
export function remainingText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (ms < 60_000) return 'less than a minute left';
  if (minutes < 90) return `about ${minutes} min left`;
  const tens = Math.round(minutes / 10) * 10;
  const hours = Math.floor(tens / 60);
  const rest = tens % 60;
  return rest === 0 ? `about ${hours} h left` : `about ${hours} h ${rest} min left`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The status line: "Adding 3 of 5 files · 41 of 96 pages · about 1 min left". */
export function summaryText(s: IngestSummary): string {
  const pages = s.pagesTotal > 0 ? ` · ${s.pagesDone} of ${plural(s.pagesTotal, 'page', 'pages')}` : '';
  if (!s.countKnown) {
    return `Adding PDFs: ${plural(s.finished, 'file', 'files')} done, more in progress${pages}`;
  }
  const which = s.total === 1 ? 'Adding 1 file' : `Adding ${Math.min(s.finished + 1, s.total)} of ${s.total} files`;
  const left = s.remainingMs === null ? 'estimating the time left…' : remainingText(s.remainingMs);
  return `${which}${pages} · ${left}`;
}

/** One file that was not added, as a line: its error names it already, or it is named first. */
export function failureText(f: { file: string; error: string }): string {
  const name = f.file.split(/[\\/]/).pop() ?? f.file;
  return f.error.includes(name) ? f.error : `${name}: ${f.error}`;
}

/** "5 added, 1 could not be added: broken.pdf: the PDF is damaged…". */
export function outcomeText(o: BatchOutcome): string {
  const parts: string[] = [`${o.added} added`];
  if (o.already > 0) parts.push(`${plural(o.already, 'was', 'were')} already in the library`);
  if (o.cancelled) {
    if (o.failed.length > 0) parts.push(`${o.failed.length} not added`);
    return `Cancelled: ${parts.join(', ')}`;
  }
  if (o.failed.length === 1) parts.push(`1 could not be added: ${failureText(o.failed[0]!)}`);
  else if (o.failed.length > 1) parts.push(`${o.failed.length} could not be added (below)`);
  return parts.join(', ');
}
