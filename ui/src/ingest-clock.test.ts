import { describe, expect, it } from 'vitest';
import type { IngestFinished, IngestProgress } from './api';
import { IngestClock, outcomeText, remainingText, summaryText } from './ingest-clock';

function clock() {
  let t = 0;
  const c = new IngestClock(() => t);
  return { c, at: (ms: number) => (t = ms) };
}

const progress = (file: string, stage: IngestProgress['stage'], done: number, total: number): IngestProgress => ({
  file,
  stage,
  done,
  total,
});
const finished = (file: string, error: string | null = null): IngestFinished => ({ file, document: null, error, warnings: [] });
const queue = (c: IngestClock, files: Record<string, number | null>) => {
  const names = Object.keys(files);
  c.queued({ files: names.map((file) => ({ file, pages: null })), counted: false });
  c.queued({ files: names.map((file) => ({ file, pages: files[file] ?? null })), counted: true });
};

describe('the ingestion clock', () => {
  it('counts files and pages, and estimates from the batch’s own rate in pages', () => {
    const { c, at } = clock();
    queue(c, { 'a.pdf': 10, 'b.pdf': 30, 'c.pdf': 20, 'd.pdf': 36 });
    expect(c.waiting()).toEqual(['a.pdf', 'b.pdf', 'c.pdf', 'd.pdf']);
    at(1_000);
    c.progress(progress('a.pdf', 'reading', 0, 1));
    expect(c.waiting()).toEqual(['b.pdf', 'c.pdf', 'd.pdf']);
    at(5_000);
    c.progress(progress('a.pdf', 'describing', 5, 10));
    const early = c.summary()!;
    expect(early.remainingMs).toBeNull();
    expect(early.total).toBe(4);
    expect(summaryText(early)).toBe('Adding 1 of 4 files · 5 of 96 pages · estimating the time left…');
    at(60_000);
    c.finished(finished('a.pdf'));
    // 10 pages a minute, 86 to go.
    expect(c.summary()?.remainingMs).toBe(516_000);
    at(90_000);
    c.progress(progress('b.pdf', 'describing', 31, 31));
    const s = c.summary()!;
    // b.pdf has 31 pages by its own count: the describing stage corrects the shell's.
    expect(s.pagesTotal).toBe(97);
    expect(summaryText(s)).toMatch(/^Adding 2 of 4 files · 41 of 97 pages · about \d+ min left$/);
  });

  it('moves the bar with pages: a long file weighs more than a short one', () => {
    const { c } = clock();
    queue(c, { 'short.pdf': 10, 'long.pdf': 90 });
    c.progress(progress('short.pdf', 'reading', 0, 1));
    c.finished(finished('short.pdf'));
    expect(c.summary()?.fraction).toBeCloseTo(0.1);
    c.progress(progress('long.pdf', 'describing', 45, 90));
    expect(c.summary()?.fraction).toBeGreaterThan(0.3);
    expect(c.summary()?.pagesDone).toBe(55);
  });

  it('estimates from enough progress on a long first file', () => {
    const { c, at } = clock();
    queue(c, { 'big.pdf': null });
    c.progress(progress('big.pdf', 'embedding', 0, 10));
    at(5_000);
    expect(c.summary()?.remainingMs).toBeNull();
    at(20_000);
    // 70% done in 20 s: 30% more takes about 8.6 s.
    expect(Math.round((c.summary()?.remainingMs ?? 0) / 100)).toBe(86);
  });

  it('sums the batch up at the end: added, already there, and why a file was not added', () => {
    const { c } = clock();
    c.finished(finished('/dev/pipe.pdf', 'not a regular file'));
    expect(c.summary()).toBeNull();
    expect(c.outcome()).toBeNull();
    queue(c, { 'a.pdf': 3, 'b.pdf': 4, 'broken.pdf': null });
    c.finished(finished('/tmp/notes.txt', 'not a PDF'));
    c.progress(progress('a.pdf', 'reading', 0, 1));
    c.finished(finished('a.pdf'));
    c.finished(finished('b.pdf'));
    const s = c.summary()!;
    expect(s.total).toBe(3);
    expect(s.finished).toBe(2);
    expect(c.outcome()).toBeNull();
    c.progress(progress('broken.pdf', 'reading', 0, 1));
    c.finished(finished('broken.pdf', 'broken.pdf: the PDF is damaged or truncated'));
    expect(c.summary()).toBeNull();
    const o = c.outcome()!;
    expect(o).toMatchObject({ added: 1, already: 1 });
    expect(outcomeText(o)).toBe('1 added, 1 was already in the library, 2 could not be added (below)');
    c.dismissOutcome();
    expect(c.outcome()).toBeNull();
  });

  it('names the one failure in the summary line', () => {
    const { c } = clock();
    queue(c, { 'a.pdf': 3, 'b.pdf': 4 });
    for (const f of ['a.pdf', 'b.pdf']) c.progress(progress(f, 'reading', 0, 1));
    c.finished(finished('a.pdf'));
    c.finished(finished('b.pdf', 'the file could not be read'));
    expect(outcomeText(c.outcome()!)).toBe('1 added, 1 could not be added: b.pdf: the file could not be read');
  });

  it('says a cancelled batch was cancelled', () => {
    const { c } = clock();
    queue(c, { 'a.pdf': 3, 'b.pdf': 4, 'c.pdf': 5 });
    c.progress(progress('a.pdf', 'reading', 0, 1));
    c.finished(finished('a.pdf'));
    c.cancel();
    c.finished(finished('b.pdf', 'ingestion was cancelled'));
    c.finished(finished('c.pdf', 'ingestion was cancelled before this file started'));
    expect(outcomeText(c.outcome()!)).toBe('Cancelled: 1 added, 2 not added');
  });

  it('does not pretend to know a count the shell did not give', () => {
    const { c, at } = clock();
    c.progress(progress('running.pdf', 'reading', 0, 1));
    at(30_000);
    c.finished(finished('running.pdf'));
    at(30_100);
    c.progress(progress('next.pdf', 'reading', 0, 1));
    const s = c.summary()!;
    expect(s.countKnown).toBe(false);
    expect(s.remainingMs).toBeNull();
    expect(summaryText(s)).toBe('Adding PDFs: 1 file done, more in progress');
  });

  it('starts afresh with the next files queued, and ignores counts that come late', () => {
    const { c, at } = clock();
    queue(c, { 'a.pdf': 2 });
    c.progress(progress('a.pdf', 'reading', 0, 1));
    c.finished(finished('a.pdf'));
    expect(c.outcome()?.added).toBe(1);
    at(1_000);
    c.queued({ files: [{ file: 'b.pdf', pages: null }, { file: 'c.pdf', pages: null }], counted: false });
    expect(c.outcome()).toBeNull();
    expect(c.summary()?.total).toBe(2);
    expect(c.summary()?.finished).toBe(0);
    c.reset();
    c.queued({ files: [{ file: 'b.pdf', pages: 3 }], counted: true });
    c.finished(finished('b.pdf', 'Ingestion cancelled.'));
    expect(c.summary()).toBeNull();
    expect(c.waiting()).toEqual([]);
  });

  it('says the time left in round words', () => {
    expect(remainingText(20_000)).toBe('less than a minute left');
    expect(remainingText(61_000)).toBe('about 1 min left');
    expect(remainingText(44 * 60_000)).toBe('about 44 min left');
    expect(remainingText(128 * 60_000)).toBe('about 2 h 10 min left');
    expect(remainingText(180 * 60_000)).toBe('about 3 h left');
  });
});
