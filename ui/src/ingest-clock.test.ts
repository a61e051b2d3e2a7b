import { describe, expect, it } from 'vitest';
import type { IngestFinished, IngestProgress } from './api';
import { IngestClock, remainingText, summaryText } from './ingest-clock';

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

describe('the ingestion clock', () => {
  it('gives no estimate before a file finished, then one from the batch’s own rate', () => {
    const { c, at } = clock();
    c.queue(4);
    at(1_000);
    c.progress(progress('a.pdf', 'reading', 0, 1));
    at(5_000);
    c.progress(progress('a.pdf', 'describing', 5, 10));
    const early = c.summary();
    expect(early?.remainingMs).toBeNull();
    expect(early?.total).toBe(4);
    expect(summaryText(early!)).toMatch(/^Ingesting 1 of 4 files · \d+% · estimating the time left…$/);
    at(60_000);
    c.finished(finished('a.pdf'));
    // One file a minute, three to go.
    expect(c.summary()?.remainingMs).toBe(180_000);
    expect(summaryText(c.summary()!)).toBe('Ingesting 2 of 4 files · 25% · about 3 min left');
  });

  it('estimates from enough progress on a long first file', () => {
    const { c, at } = clock();
    c.queue(1);
    c.progress(progress('big.pdf', 'embedding', 0, 10));
    at(5_000);
    expect(c.summary()?.remainingMs).toBeNull();
    at(20_000);
    // 70% done in 20 s: 30% more takes about 8.6 s.
    expect(Math.round((c.summary()?.remainingMs ?? 0) / 100)).toBe(86);
  });

  it('leaves skipped paths out of the count, and counts files already present as done', () => {
    const { c, at } = clock();
    c.finished(finished('/dev/pipe.pdf', 'not a regular file'));
    expect(c.summary()).toBeNull();
    c.queue(2);
    c.progress(progress('a.pdf', 'reading', 0, 1));
    c.finished(finished('/tmp/unreadable', 'permission denied'));
    c.finished(finished('b.pdf'));
    const s = c.summary()!;
    expect(s.total).toBe(2);
    expect(s.finished).toBe(1);
    at(1_000);
    c.finished(finished('a.pdf'));
    expect(c.summary()).toBeNull();
  });

  it('does not pretend to know a count the shell did not give', () => {
    const { c, at } = clock();
    c.progress(progress('picked.pdf', 'reading', 0, 1));
    at(30_000);
    c.finished(finished('picked.pdf'));
    at(30_100);
    c.progress(progress('picked2.pdf', 'reading', 0, 1));
    const s = c.summary()!;
    expect(s.countKnown).toBe(false);
    expect(s.remainingMs).toBeNull();
    expect(summaryText(s)).toBe('Ingesting: 1 file done, more in progress');
  });

  it('starts afresh after a pause, and forgets a cancelled batch', () => {
    const { c, at } = clock();
    c.queue(1);
    c.progress(progress('a.pdf', 'reading', 0, 1));
    c.finished(finished('a.pdf'));
    at(60_000);
    c.queue(2);
    expect(c.summary()?.total).toBe(2);
    expect(c.summary()?.finished).toBe(0);
    c.reset();
    c.finished(finished('b.pdf', 'Ingestion cancelled.'));
    expect(c.summary()).toBeNull();
  });

  it('says the time left in round words', () => {
    expect(remainingText(20_000)).toBe('less than a minute left');
    expect(remainingText(61_000)).toBe('about 1 min left');
    expect(remainingText(44 * 60_000)).toBe('about 44 min left');
    expect(remainingText(128 * 60_000)).toBe('about 2 h 10 min left');
    expect(remainingText(180 * 60_000)).toBe('about 3 h left');
  });
});
