import { describe, expect, it } from 'vitest';
import type { DocumentRecord, QuestionAnalysis, SearchResult } from './api';
import { analysisLine, recognisedItems, recognisedText, scopeText, sharedAnalysis } from './analysis';

function analysis(fields: Partial<QuestionAnalysis>): QuestionAnalysis {
  return { organizations: [], years: [], quarters: [], kinds: [], dates: [], filter: null, boosts: [], note: '', ...fields };
}

const docs = [
  { id: 1, name: 'BOEING_2022_10K' },
  { id: 2, name: '3M_2018_10K' },
] as DocumentRecord[];

describe('question analysis in words', () => {
  it('lists what was recognised, grouped and in the engine’s order', () => {
    const a = analysis({ organizations: ['3M Company'], years: [2018, 2019], quarters: [2], kinds: ['annual-report'], dates: ['2022-07-01'] });
    expect(recognisedItems(a)).toEqual([
      'organisation 3M Company',
      'years 2018, 2019',
      'quarter Q2',
      'kind 10-K annual report',
      'date 2022-07-01',
    ]);
    expect(recognisedText(analysis({}))).toBe('Nothing in the question names a document');
  });

  it('puts the engine’s note after what was recognised', () => {
    const a = analysis({ organizations: ['3M Company'], years: [2018], filter: [2], note: 'searched the 1 document(s) of 3M Company' });
    expect(analysisLine(a)).toBe('Recognised organisation 3M Company; year 2018 — searched the 1 document(s) of 3M Company');
    // Nothing recognised: the note alone, not said twice.
    expect(analysisLine(analysis({ note: 'nothing in the question names a document' }))).toBe(
      'Nothing in the question names a document',
    );
    expect(analysisLine(analysis({ years: [2022] }))).toBe('Recognised year 2022');
  });

  it('names the documents searched and ranked up', () => {
    expect(scopeText(analysis({ filter: [2], boosts: [[2, 1]] }), docs)).toBe('searched only 3M_2018_10K; ranked up 3M_2018_10K');
    expect(scopeText(analysis({ boosts: [[1, 1], [9, 0.5]] }), docs)).toBe('ranked up BOEING_2022_10K, document 9');
    expect(scopeText(analysis({}), docs)).toBeNull();
  });

  it('takes the analysis the results share, skipping those without one', () => {
    const a = analysis({ note: 'x' });
    const results = [{ analysis: null }, { analysis: a }] as SearchResult[];
    expect(sharedAnalysis(results)).toBe(a);
    expect(sharedAnalysis([])).toBeNull();
  });
});
