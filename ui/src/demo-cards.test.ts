import { describe, expect, it } from 'vitest';
import { emptyCard } from './card';
import { analyseDemoQuestion, correctDemoCard, correctDemoCardAll } from './demo-cards';
import type { DocumentCard } from './api';

const threeM: DocumentCard = { ...emptyCard(), organization: '3M Company', aliases: ['3M', 'MMM'], kind: 'annual-report', fiscal_year: 2018 };
const boeing: DocumentCard = { ...emptyCard(), organization: 'The Boeing Company', aliases: ['Boeing'], kind: 'annual-report', fiscal_year: 2022 };

describe("the double's cards", () => {
  it('corrects as the engine does, with its messages', () => {
    const c = correctDemoCard({ ...emptyCard(), unsure: ['fiscal_year'] }, 'fiscal-year=2019');
    expect(c.fiscal_year).toBe(2019);
    expect(c.unsure).toEqual([]);
    expect(c.corrected).toEqual(['fiscal_year']);
    expect(correctDemoCard(c, 'kind=10-Q').kind).toBe('quarterly-report');
    expect(correctDemoCard(c, 'fiscal_quarter=Q2').fiscal_quarter).toBe(2);
    expect(correctDemoCard(c, 'fiscal_year=').fiscal_year).toBeNull();
    expect(() => correctDemoCard(c, 'fiscal_year=twenty')).toThrow('fiscal_year cannot be `twenty`: a year such as 2018');
    expect(() => correctDemoCard(c, 'date=2022-13-01')).toThrow(/YYYY-MM-DD/);
    expect(() => correctDemoCard(c, 'colour=red')).toThrow(/not a card field/);
    expect(() => correctDemoCardAll(c, ['kind=10-K', 'kind=poem'])).toThrow(/one of 10-K/);
  });

  it('reads organisations, years and kinds, and filters on one organisation', () => {
    const cards: [number, DocumentCard][] = [
      [1, boeing],
      [2, threeM],
    ];
    const a = analyseDemoQuestion('How much did 3M pay in dividends in FY2018 (10-K)?', cards);
    expect(a.organizations).toEqual(['3M Company']);
    expect(a.years).toEqual([2018]);
    expect(a.kinds).toEqual(['annual-report']);
    expect(a.filter).toEqual([2]);
    expect(a.boosts.map(([id]) => id)).toEqual([2]);
    expect(a.note).toBe('searched the 1 document(s) of 3M Company; ranked up 1 document(s) whose period or kind matches');
    const none = analyseDemoQuestion('What is a knee point?', cards);
    expect(none.filter).toBeNull();
    expect(none.note).toBe('nothing in the question names a document');
  });
});
