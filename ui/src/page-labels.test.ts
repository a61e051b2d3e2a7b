// Page numbers people read: a page named by its printed number beside its PDF page.

import { describe, expect, it } from 'vitest';
import type { Citation } from './api';
import { citationLabel, withLabel } from './citations';
import { pageLabel } from './format';
import { labelBeside, labelsByPage, pageInWords } from './page-labels';

const cite = (document: string, page: number, page_label: string | null = null): Citation => ({
  document,
  page,
  page_label,
});

describe('page labels', () => {
  it('shows the printed number and the PDF page when they differ', () => {
    expect(pageInWords(52, '47')).toBe('p. 47 · PDF page 52');
    expect(pageInWords(3, 'iii')).toBe('p. iii · PDF page 3');
  });

  it('shows the PDF page alone when there is no label or it is the same number', () => {
    expect(pageInWords(52, null)).toBe('p.52');
    expect(pageInWords(52, undefined)).toBe('p.52');
    expect(pageInWords(52, '')).toBe('p.52');
    expect(pageInWords(52, '52')).toBe('p.52');
  });

  it('shows a label beside the PDF page by the one rule of the engine', () => {
    expect(labelBeside('iv', 5)).toBe('iv');
    expect(labelBeside('5', 5)).toBeNull();
    expect(labelBeside('', 5)).toBeNull();
    expect(labelBeside(null, 5)).toBeNull();
  });

  it("reads a document's labels by PDF page", () => {
    const labels = labelsByPage([
      { page: 1, label: 'i' },
      { page: 3, label: '1' },
    ]);
    expect(labels.get(1)).toBe('i');
    expect(labels.get(2)).toBeUndefined();
    expect(labels.get(3)).toBe('1');
  });

  it('labels citation chips and page chips', () => {
    expect(citationLabel(cite('REPORT', 52, '47'))).toBe('REPORT p. 47 · PDF page 52');
    expect(citationLabel(cite('REPORT', 52))).toBe('REPORT p.52');
    expect(pageLabel({ file_name: 'REPORT.pdf', page: 52, page_label: '47' })).toBe('REPORT p. 47 · PDF page 52');
    expect(pageLabel({ file_name: 'REPORT.pdf', page: 52 })).toBe('REPORT p.52');
  });

  it("gives a citation read from the answer's text the label of the engine's citation", () => {
    const labelled = [cite('Report', 52, '47'), cite('Other', 3, 'iii')];
    expect(withLabel(cite('report', 52), labelled).page_label).toBe('47');
    expect(withLabel(cite('REPORT.pdf', 52), labelled).page_label).toBe('47');
    expect(withLabel(cite('Report', 53), labelled).page_label).toBeNull();
    expect(withLabel(cite('Other', 52), labelled).page_label).toBeNull();
    expect(withLabel(cite('Report', 52, 'x'), labelled).page_label).toBe('x');
  });
});
