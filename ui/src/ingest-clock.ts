// Overall progress of an ingestion batch and an honest estimate of the time left,
// worked out from the shell's `ingest://progress` and `ingest://finished` events and
// the count `ingest_paths` says it queued.
//
// The shell adds one file at a time, so the rate is the batch's own: the share of files
// done (finished ones count 1, the one in progress its fraction) over the time since the
// batch began. No estimate is given before one file finished or half a file's worth of
// work took a while, nor when the count of files is not known (files picked in the
// system dialog, whose count the shell does not tell).

import type { IngestFinished, IngestProgress } from './api';
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
  /** Share of the batch done, 0..1. */
  fraction: number;
  /** The time left, or null when there is too little to go on. */
  remainingMs: number | null;
}

interface FileState {
  fraction: number;
  finished: boolean;
  /** Whether the engine worked on it (progress was seen), i.e. it counts for the rate. */
  worked: boolean;
}

export class IngestClock {
  private files = new Map<string, FileState>();
  private queued = 0;
  private started: number | null = null;
  private lastEvent = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** The shell queued `count` files for ingestion. */
  queue(count: number): void {
    this.begin();
    this.queued += count;
  }

  progress(p: IngestProgress): void {
    this.begin();
    const file = this.files.get(p.file);
    const fraction = overallProgress(p);
    if (file && !file.finished) file.fraction = Math.max(file.fraction, fraction);
    else this.files.set(p.file, { fraction, finished: false, worked: true });
  }

  finished(f: IngestFinished): void {
    if (this.started === null) return;
    this.lastEvent = this.now();
    const file = this.files.get(f.file);
    if (file) {
      file.finished = true;
      file.fraction = 1;
    } else if (!f.error) {
      // Already in the library: done at once, and not work the rate should include.
      this.files.set(f.file, { fraction: 1, finished: true, worked: false });
    }
    // An error with no progress is a path the shell skipped (never queued) or a file
    // cancelled before it started: neither is part of the count.
  }

  /** Forgets the batch (after the user cancelled it). */
  reset(): void {
    this.files.clear();
    this.queued = 0;
    this.started = null;
  }

  summary(): IngestSummary | null {
    if (this.started === null || this.over()) return null;
    let finished = 0;
    let done = 0;
    let worked = 0;
    let workedFinished = 0;
    for (const f of this.files.values()) {
      if (f.finished) finished++;
      done += f.fraction;
      if (f.worked) {
        worked += f.fraction;
        if (f.finished) workedFinished++;
      }
    }
    const countKnown = this.queued >= this.files.size;
    const total = Math.max(this.queued, this.files.size);
    const elapsed = this.now() - this.started;
    const enough = workedFinished >= 1 || (worked >= MIN_WORK_FOR_ESTIMATE && elapsed >= MIN_TIME_FOR_ESTIMATE_MS);
    const remainingMs =
      countKnown && enough && worked > 0 && elapsed > 0 ? Math.max(0, ((total - done) * elapsed) / worked) : null;
    return { finished, total, countKnown, fraction: total > 0 ? Math.min(1, done / total) : 0, remainingMs };
  }

  private over(): boolean {
    for (const f of this.files.values()) if (!f.finished) return false;
    return this.files.size >= this.queued;
  }

  /** Starts a batch unless one is going on (or only just ended, between two files). */
  private begin(): void {
    const now = this.now();
    if (this.started !== null && this.over() && now - this.lastEvent > IDLE_MS) this.reset();
    if (this.started === null) this.started = now;
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

/** The status line: "Ingesting 4 of 12 files · 31% · about 6 min left". */
export function summaryText(s: IngestSummary): string {
  const percent = `${Math.round(s.fraction * 100)}%`;
  if (!s.countKnown) {
    return `Ingesting: ${s.finished} ${s.finished === 1 ? 'file' : 'files'} done, more in progress`;
  }
  const which = s.total === 1 ? 'Ingesting 1 file' : `Ingesting ${Math.min(s.finished + 1, s.total)} of ${s.total} files`;
  const left = s.remainingMs === null ? 'estimating the time left…' : remainingText(s.remainingMs);
  return `${which} · ${percent} · ${left}`;
}
