import { describe, expect, it } from 'vitest';
import type { Passage } from './api';
import { boxStyles, passageFor, rowLabel, rowRanges } from './passages';

const passage = (quote: string, page: number): Passage => ({
  document: 'A',
  doc_id: 1,
  page,
  page_label: null,
  quote,
  kind: 'sentence',
  score: 1,
  boxes: { page_width: 600, page_height: 800, rects: [{ x: 60, y: 81.5, width: 120, height: 10 }] },
  values: [],
  label: null,
});

describe('passages', () => {
  it('finds the passage a citation stands for by its quote', () => {
    const passages = [passage('Revenue rose.', 2), passage('Costs fell sharply.', 2)];
    expect(passageFor(passages, { document: 'a', page: 2, page_label: null }, '- "Costs fell sharply." ')?.quote).toBe(
      'Costs fell sharply.',
    );
    expect(passageFor(passages, { document: 'A', page: 2, page_label: null }, 'something else')?.quote).toBe('Revenue rose.');
    expect(passageFor(passages, { document: 'A', page: 3, page_label: null }, 'Revenue rose.')).toBeUndefined();
  });

  it('scales boxes to the page as percentages', () => {
    const boxes = passage('x', 1).boxes;
    if (!boxes) throw new Error('boxes');
    expect(boxStyles(boxes)).toEqual([{ left: '9.750%', top: '10.000%', width: '20.500%', height: '1.625%' }]);
    expect(boxStyles({ page_width: 0, page_height: 0, rects: boxes.rects })).toEqual([]);
  });

  it('finds a row by its label across line breaks', () => {
    const text = 'Cash flows\nNet sales\n3,909\nPurchases of property,\nplant 1,577';
    expect(rowRanges(text, 'Purchases of property, plant', [])).toEqual([{ start: 27, end: 55 }]);
    expect(rowRanges(text, 'Missing', ['1'])).toEqual([]);
  });

  it("takes a row's label from the passage, which may itself hold a dash", () => {
    const row = { quote: 'Revenue — Americas — 2023: 1,200; 2022: 1,100', label: 'Revenue — Americas' };
    expect(rowLabel(row)).toBe('Revenue — Americas');
    const text = 'Segments\nRevenue — Americas 1,200 1,100';
    const ranges = rowRanges(text, rowLabel(row), ['1,200', '1,100']);
    expect(ranges.map((r) => text.slice(r.start, r.end))).toEqual(['Revenue — Americas', '1,200', '1,100']);
    // A passage kept from before passages carried their label.
    expect(rowLabel({ quote: 'Net sales — 2023: 1', label: null })).toBe('Net sales');
  });

  it("marks a row's figures after its label, each as printed and none inside a longer one", () => {
    const text = 'Net sales 1,897 $ 2,777 897 3,673\nOther 897';
    const ranges = rowRanges(text, 'Net sales', ['$2,777', '897', '3,673']);
    expect(ranges.map((r) => text.slice(r.start, r.end))).toEqual(['Net sales', '$ 2,777', '897', '3,673']);
  });

  it('leaves out a figure the text does not hold near the row', () => {
    const text = `Net income 5,363${' '.repeat(500)}4,869`;
    const ranges = rowRanges(text, 'Net income', ['5,363', '4,869']);
    expect(ranges.map((r) => text.slice(r.start, r.end))).toEqual(['Net income', '5,363']);
  });
});
