import { describe, expect, it } from 'vitest';
import { emptyCard } from './card';
import { documentRecord } from './test-records';
import { countText, filterWords, isSortKey, matches, visibleDocuments } from './library-list';

const doc = documentRecord;

const boeing = doc(1, 'BOEING_2022_10K', {
  page_count: 120,
  card: { ...emptyCard(), organization: 'The Boeing Company', aliases: ['BA'], kind: 'annual-report', fiscal_year: 2022 },
});
const mmm = doc(2, '3M_2018_10K', { page_count: 80, status: 'failed', card: { ...emptyCard(), organization: '3M Company' } });
const societe = doc(3, 'report_9', { page_count: null, status: 'ingesting', card: { ...emptyCard(), organization: 'Société Générale' } });
const report10 = doc(4, 'report_10', { page_count: 5 });
const all = [boeing, mmm, societe, report10];

describe('the library filter', () => {
  it('looks in names, file names and the card, every word, without case or accents', () => {
    expect(filterWords('  Boeing   2022 ')).toEqual(['boeing', '2022']);
    expect(matches(boeing, filterWords('boeing annual'))).toBe(true);
    expect(matches(boeing, filterWords('10-K annual report'))).toBe(true);
    expect(matches(boeing, filterWords('fiscal year 2022'))).toBe(true);
    expect(matches(boeing, filterWords('ba'))).toBe(true);
    expect(matches(boeing, filterWords('boeing 2018'))).toBe(false);
    expect(matches(societe, filterWords('societe generale'))).toBe(true);
    expect(matches(report10, filterWords('report_10.pdf'))).toBe(true);
    expect(visibleDocuments(all, 'company', 'name').map((d) => d.id)).toEqual([mmm.id, boeing.id]);
    expect(visibleDocuments(all, '', 'name')).toHaveLength(4);
  });

  it('sorts by name (numbers in order), date added, pages and status, ties by name', () => {
    expect(visibleDocuments(all, '', 'name').map((d) => d.name)).toEqual([
      '3M_2018_10K',
      'BOEING_2022_10K',
      'report_9',
      'report_10',
    ]);
    expect(visibleDocuments(all, '', 'added').map((d) => d.id)).toEqual([4, 3, 2, 1]);
    expect(visibleDocuments(all, '', 'pages').map((d) => d.id)).toEqual([1, 2, 4, 3]);
    expect(visibleDocuments(all, '', 'status').map((d) => d.id)).toEqual([2, 3, 1, 4]);
    // The input is not reordered in place.
    expect(all.map((d) => d.id)).toEqual([1, 2, 3, 4]);
  });

  it('says how many are shown, and knows its sort keys', () => {
    expect(countText(3, 500)).toBe('3 of 500 documents');
    expect(countText(1, 1)).toBe('1 document');
    expect(isSortKey('pages')).toBe(true);
    expect(isSortKey('size')).toBe(false);
  });
});
