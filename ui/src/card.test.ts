import { describe, expect, it } from 'vitest';
import type { DocumentCard } from './api';
import { cardAssignments, cardValues, emptyCard, fieldDisplay, fieldMark, shortForm, shortFormParts } from './card';

function card(fields: Partial<DocumentCard>): DocumentCard {
  return { ...emptyCard(), ...fields };
}

describe('short form', () => {
  it('mirrors the engine: organisation · kind · period', () => {
    // The engine's own test case (src/card/mod.rs, short_form_and_search_words).
    expect(
      shortForm(card({ organization: '3M Company', aliases: ['3M', 'MMM'], kind: 'annual-report', fiscal_year: 2018 })),
    ).toBe('3M Company · 10-K annual report · fiscal year 2018');
    expect(shortForm(card({ kind: 'current-report', fiscal_year: 2022, date: '2022-07-01' }))).toBe(
      '8-K current report · fiscal year 2022 · dated 2022-07-01',
    );
    expect(shortForm(emptyCard())).toBe('');
  });

  it('names the quarter with the year, and the date only where the year does not say enough', () => {
    expect(shortForm(card({ organization: 'Foot Locker, Inc.', kind: 'quarterly-report', fiscal_year: 2023, fiscal_quarter: 2 }))).toBe(
      'Foot Locker, Inc. · 10-Q quarterly report · Q2 fiscal year 2023',
    );
    expect(shortForm(card({ kind: 'annual-report', fiscal_year: 2022, date: '2023-01-27' }))).toBe(
      '10-K annual report · fiscal year 2022',
    );
    expect(shortForm(card({ kind: 'paper', date: '2024-03-01' }))).toBe('paper · dated 2024-03-01');
    // The engine's own case (short_form_of_a_document_that_reports_no_period): a paper's
    // year is not a fiscal year.
    expect(shortForm(card({ kind: 'paper', fiscal_year: 2019, date: '2019-05-02' }))).toBe('paper · dated 2019-05-02');
    expect(shortForm(card({ kind: 'contract', fiscal_year: 2019 }))).toBe('contract · 2019');
    expect(shortForm(card({ fiscal_year: 2026 }))).toBe('2026');
    // A quarter without a year says nothing the engine would print.
    expect(shortForm(card({ kind: 'other', fiscal_quarter: 3 }))).toBe('document');
  });

  it('marks each part by its fields: a correction outranks a guess', () => {
    const parts = shortFormParts(
      card({
        organization: 'MGM Resorts International',
        kind: 'earnings-release',
        fiscal_year: 2022,
        fiscal_quarter: 4,
        unsure: ['fiscal_year', 'kind'],
        corrected: ['fiscal_quarter'],
      }),
    );
    expect(parts.map((p) => [p.text, p.mark])).toEqual([
      ['MGM Resorts International', 'read'],
      ['earnings release', 'unsure'],
      ['Q4 fiscal year 2022', 'corrected'],
    ]);
    expect(parts[2]?.fields).toEqual(['fiscal_quarter', 'fiscal_year']);
    const c = card({ unsure: ['date'], corrected: ['date'] });
    expect(fieldMark(c, 'date')).toBe('corrected');
  });
});

describe('card form values', () => {
  const c = card({
    organization: '3M Company',
    aliases: ['3M', 'MMM'],
    kind: 'annual-report',
    fiscal_year: 2018,
    fiscal_quarter: null,
    period_end: '2018-12-31',
  });

  it('reads every field as text, and for people', () => {
    const values = cardValues(c);
    expect(values).toMatchObject({ organization: '3M Company', aliases: '3M, MMM', kind: 'annual-report', fiscal_year: '2018', fiscal_quarter: '', title: '' });
    expect(cardValues(null).organization).toBe('');
    expect(fieldDisplay(c, 'kind')).toBe('10-K annual report');
    expect(fieldDisplay(card({ fiscal_quarter: 2 }), 'fiscal_quarter')).toBe('Q2');
  });

  it('assigns only the fields that changed, and clears with an empty value', () => {
    const values = cardValues(c);
    expect(cardAssignments(c, values)).toEqual([]);
    // Re-spaced aliases are the same aliases.
    expect(cardAssignments(c, { ...values, aliases: ' 3M ,MMM ' })).toEqual([]);
    expect(cardAssignments(c, { ...values, fiscal_year: ' 2019 ', period_end: '', aliases: '3M, MMM, Minnesota Mining' })).toEqual([
      'aliases=3M, MMM, Minnesota Mining',
      'fiscal_year=2019',
      'period_end=',
    ]);
    expect(cardAssignments(null, { ...cardValues(null), kind: 'paper' })).toEqual(['kind=paper']);
  });
});
