import { describe, expect, it, vi } from 'vitest';
import { documentRecord } from './test-records';
import {
  answerNotes,
  appWords,
  debounce,
  documentFor,
  downloadOutcome,
  documentForFile,
  formatMs,
  overallProgress,
  pageLabel,
  progressText,
  uniquePages,
} from './format';

const doc = (id: number, name: string) => documentRecord(id, name, { path: `/lib/${name}.pdf`, node_count: 14 });

describe('progress', () => {
  it('grows through the stages and never passes 1', () => {
    const a = overallProgress({ stage: 'reading', done: 0, total: 1 });
    const b = overallProgress({ stage: 'describing', done: 10, total: 40 });
    const c = overallProgress({ stage: 'describing', done: 40, total: 40 });
    const d = overallProgress({ stage: 'embedding', done: 1, total: 2 });
    const e = overallProgress({ stage: 'indexing', done: 9, total: 9 });
    expect(a).toBe(0);
    expect(b).toBeGreaterThan(a);
    expect(c).toBeGreaterThan(b);
    expect(d).toBeGreaterThan(c);
    expect(e).toBeCloseTo(1);
    expect(overallProgress({ stage: 'indexing', done: 50, total: 9 })).toBeLessThanOrEqual(1);
    expect(overallProgress({ stage: 'describing', done: 3, total: 0 })).toBeCloseTo(0.05);
  });

  it('says what is happening', () => {
    expect(progressText({ file: 'a.pdf', stage: 'describing', done: 3, total: 40 })).toBe('describing pages 3/40');
    expect(progressText({ file: 'a.pdf', stage: 'reading', done: 0, total: 1 })).toBe('reading pages');
    expect(progressText({ file: 'scan.pdf', stage: 'ocr', done: 3, total: 20 })).toBe('reading scanned pages (OCR) 3/20');
  });

  it('holds at the end of reading while a scan is read by OCR', () => {
    const read = overallProgress({ stage: 'reading', done: 1, total: 1 });
    expect(overallProgress({ stage: 'ocr', done: 10, total: 20 })).toBeCloseTo(read);
    expect(overallProgress({ stage: 'describing', done: 0, total: 4 })).toBeCloseTo(read);
  });
});

describe('answerNotes', () => {
  it('adds the missing notes once', () => {
    const notes = answerNotes({ notes: [], model: null, answer: { removed: ['[X p.9]'], uncited: true } });
    expect(notes).toHaveLength(3);
    expect(notes[0]).toContain('[X p.9]');
    expect(notes[1]).toContain('cites no page');
    expect(notes[2]).toContain('no language model');
  });

  it('does not repeat what the shell said', () => {
    const shell = [
      'No language model is configured, so here are the most relevant passages of the pages found',
      'removed citations of pages that were not in the context: [X p.9]',
    ];
    expect(answerNotes({ notes: shell, model: null, answer: { removed: ['[X p.9]'], uncited: false } })).toEqual(shell);
    expect(answerNotes({ notes: [], model: 'llama', answer: { removed: [], uncited: false } })).toEqual([]);
  });
});

describe('lookups and labels', () => {
  const docs = [doc(1, 'BOEING_2022_10K'), doc(2, '3M_2018_10K')];

  it('finds the document a citation names', () => {
    expect(documentFor({ document: 'boeing_2022_10k', page: 1, page_label: null }, docs)?.id).toBe(1);
    expect(documentFor('3M_2018_10K.pdf', docs)?.id).toBe(2);
    expect(documentFor('NOPE', docs)).toBeNull();
  });

  it('finds the document an ingestion event names', () => {
    expect(documentForFile('3M_2018_10K.pdf', docs)?.id).toBe(2);
    expect(documentForFile('/lib/BOEING_2022_10K.pdf', docs)?.id).toBe(1);
    expect(documentForFile('other.pdf', docs)).toBeNull();
  });

  it('labels pages and dedupes them', () => {
    expect(pageLabel({ file_name: 'BOEING_2022_10K.pdf', page: 34 })).toBe('BOEING_2022_10K p.34');
    const pages = [
      { doc_id: 1, file_name: 'A.pdf', page: 2, page_label: null, tokens: 10 },
      { doc_id: 1, file_name: 'A.pdf', page: 2, page_label: null, tokens: 10 },
      { doc_id: 2, file_name: 'B.pdf', page: 2, page_label: null, tokens: 5 },
    ];
    expect(uniquePages(pages)).toHaveLength(2);
  });

  it('formats durations', () => {
    expect(formatMs(3.14159)).toBe('3.1 ms');
    expect(formatMs(250.4)).toBe('250 ms');
    expect(formatMs(12_345)).toBe('12.3 s');
    expect(formatMs(null)).toBe('–');
  });
});

describe('debounce', () => {
  it('calls once after the burst', () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const d = debounce(fn, 250);
    d(1);
    d(2);
    vi.advanceTimersByTime(200);
    d(3);
    vi.advanceTimersByTime(249);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(fn).toHaveBeenCalledWith(3);
    d(4);
    d.cancel();
    vi.advanceTimersByTime(1000);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.useRealTimers();
  });
});

describe('downloadOutcome', () => {
  it('says where an export went, or that it failed', () => {
    expect(downloadOutcome({ ok: true, path: '/home/a/Downloads/h.md' })).toBe('Saved to /home/a/Downloads/h.md');
    expect(downloadOutcome({ ok: true, path: null })).toBe('Saved to your Downloads folder.');
    expect(downloadOutcome({ ok: false, path: null })).toBe('The export could not be saved.');
  });
});

describe('the engine’s words in the app', () => {
  it('leaves out the CLI commands the engine suggests', () => {
    expect(
      appWords(
        "this document is in french, and the library's embedding model (all-MiniLM-L6-v2) reads English only, so its pages are found by their words alone; to find them by meaning too, choose multilingual-e5-small in Settings (or run `pagetree reindex --model e5-small`)",
      ),
    ).toBe(
      "this document is in french, and the library's embedding model (all-MiniLM-L6-v2) reads English only, so its pages are found by their words alone; to find them by meaning too, choose multilingual-e5-small in Settings",
    );
    expect(appWords('plain words (with brackets)')).toBe('plain words (with brackets)');
  });
});
