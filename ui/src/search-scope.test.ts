import { describe, expect, it } from 'vitest';
import type { DocumentRecord, SearchSettings } from './api';
import { defaultFusion } from './api';
import { answerSources, liveScope, scopeText, sourcesText, withScope } from './search-scope';

const docs = ['A', 'B', 'C', 'D', 'E'].map((name, i) => ({ id: i + 1, name }) as DocumentRecord);

describe('search only these', () => {
  it('names the documents, a few at most', () => {
    expect(scopeText([1, 2], docs)).toBe('Searching only: A, B');
    expect(scopeText([1, 2, 3, 4, 5], docs)).toBe('Searching only: A, B, C and 2 more');
  });

  it('forgets removed documents, and no document left means no restriction', () => {
    expect(liveScope([2, 9], docs)).toEqual([2]);
    expect(liveScope([9], docs)).toBeNull();
    expect(liveScope(null, docs)).toBeNull();
  });

  it('carries the scope into the search settings', () => {
    const settings: SearchSettings = { fusion: defaultFusion(), section_scoring: 'best-page', token_budget: null, documents: null };
    expect(withScope(settings, [3, 1]).documents).toEqual([3, 1]);
    // Clearing the scope searches the whole library, even with settings from a scoped run.
    expect(withScope({ ...settings, documents: [2] }, null).documents).toBeNull();
  });

  it('says which documents the answer’s pages came from, most pages first', () => {
    const sources = answerSources([
      { doc_id: 2, file_name: 'B.pdf', page: 1 },
      { doc_id: 1, file_name: 'A.pdf', page: 4 },
      { doc_id: 1, file_name: 'A.pdf', page: 5 },
      { doc_id: 1, file_name: 'A.pdf', page: 5 },
    ]);
    expect(sources).toEqual([
      { docId: 1, name: 'A', pages: 2 },
      { docId: 2, name: 'B', pages: 1 },
    ]);
    expect(sourcesText(sources)).toBe('A (2 pages), B (1 page)');
  });
});
