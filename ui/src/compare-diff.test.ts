import { describe, expect, it } from 'vitest';
import type { SearchResult, Strategy } from './api';
import { documentRecord } from './test-records';
import { comparisonJson, comparisonMarkdown, difference, formatGold, parseGold, resolveGold } from './compare-diff';

function result(strategy: Strategy, pages: [number, number][]): SearchResult {
  return {
    question: 'q',
    strategy,
    settings: {
      fusion: { method: 'min-max', rrf_k: 2, dense_weight: 1, sparse_weight: 1 },
      token_budget: null,
      documents: null,
      section_scoring: 'best-page',
    },
    selected: [],
    context: {
      text: '',
      pages: pages.map(([doc, page]) => ({ doc_id: doc, file_name: doc === 1 ? 'ACME.pdf' : 'OTHER.pdf', page, page_label: null, tokens: 10 })),
      tokens: 10 * pages.length,
      tokenizer: 'x',
      dropped_nodes: [],
      truncation: null,
    },
    embed_ms: 1,
    search_ms: 2,
    latency_ms: 3.25,
    store_queries: 1,
    trace: [],
    stopped_because: 'done',
    analysis: null,
  };
}

const flat = result({ name: 'flat', k: 3 }, [
  [1, 4],
  [1, 5],
  [2, 9],
]);
const knee = result({ name: 'knee', max_roots: 40 }, [
  [1, 5],
  [1, 4],
  [1, 4],
  [1, 6],
]);

const doc = (id: number, name: string) => documentRecord(id, name);

describe('difference', () => {
  it('splits pages into shared by all and chosen by one', () => {
    const d = difference([flat, knee], null);
    expect(d.everyone.map((p) => p.page)).toEqual([4, 5]);
    expect(d.onlyOne).toEqual([
      { strategy: 'flat', pages: [{ doc_id: 2, file_name: 'OTHER.pdf', page: 9, page_label: null, tokens: 10 }] },
      { strategy: 'knee', pages: [{ doc_id: 1, file_name: 'ACME.pdf', page: 6, page_label: null, tokens: 10 }] },
    ]);
    expect(d.gold).toBeNull();
  });

  it('says nothing is shared or unique when one strategy ran', () => {
    const d = difference([flat], null);
    expect(d.everyone).toEqual([]);
    expect(d.onlyOne).toEqual([]);
  });

  it('says which strategies found the gold pages', () => {
    const gold = resolveGold(
      [
        { document: 'acme', page: 6 },
        { document: 'ACME', page: 7 },
        { document: 'GONE', page: 1 },
      ],
      [doc(1, 'ACME'), doc(2, 'OTHER')],
    );
    expect(gold.missing).toEqual([{ document: 'GONE', page: 1 }]);
    const d = difference([flat, knee], gold);
    expect(d.gold?.outcomes.map((o) => [o.strategy, o.hit, o.recall])).toEqual([
      ['flat', false, 0],
      ['knee', true, 0.5],
    ]);
  });
});

describe('parseGold', () => {
  it('reads documents followed by pages and ranges', () => {
    expect(parseGold('ACME_2023_10K p. 12, 14; 3M_2018_10K.pdf 3-5')).toEqual({
      ok: true,
      value: [
        { document: 'ACME_2023_10K', page: 12 },
        { document: 'ACME_2023_10K', page: 14 },
        { document: '3M_2018_10K', page: 3 },
        { document: '3M_2018_10K', page: 4 },
        { document: '3M_2018_10K', page: 5 },
      ],
    });
    expect(parseGold('  ')).toEqual({ ok: true, value: [] });
  });

  it('says what it cannot read', () => {
    const missingPages = parseGold('ACME_2023_10K');
    expect(missingPages.ok).toBe(false);
    if (!missingPages.ok) expect(missingPages.error).toMatch(/not a document followed by pages/);
    const backwards = parseGold('ACME 9-3');
    expect(backwards.ok).toBe(false);
    if (!backwards.ok) expect(backwards.error).toMatch(/not a page range/);
  });

  it('round-trips what formatGold writes', () => {
    const gold = [
      { document: 'ACME', page: 2 },
      { document: 'ACME', page: 8 },
      { document: 'OTHER', page: 1 },
    ];
    expect(formatGold(gold)).toBe('ACME p. 2, 8; OTHER p. 1');
    expect(parseGold(formatGold(gold))).toEqual({ ok: true, value: gold });
  });
});

describe('export', () => {
  const gold = resolveGold([{ document: 'ACME', page: 6 }], [doc(1, 'ACME')]);
  const d = difference([flat, knee], gold);

  it('writes a Markdown table with a column for the answer when it is known', () => {
    const md = comparisonMarkdown('What | why?', [flat, knee], d);
    expect(md).toContain('# Comparison: What | why?');
    expect(md).toContain('| strategy | pages | context tokens | latency ms | found the answer |');
    expect(md).toContain('| flat | ACME p.4, ACME p.5, OTHER p.9 | 30 | 3.3 | no |');
    expect(md).toContain('| knee | ACME p.5, ACME p.4, ACME p.6 | 40 | 3.3 | yes (ACME p.6) |');
    expect(md).toContain('**Every strategy:** ACME p.4, ACME p.5');
    expect(md).toContain('- **Only knee:** ACME p.6');
  });

  it('writes JSON with the same figures', () => {
    const json = comparisonJson('q', [flat, knee], d);
    expect(json.strategies.map((s) => [s.name, s.pages.length, s.gold_found])).toEqual([
      ['flat', 3, []],
      ['knee', 3, ['ACME p.6']],
    ]);
    expect(json.only_one).toEqual({ flat: ['OTHER p.9'], knee: ['ACME p.6'] });
    expect(json.gold).toEqual(['ACME p.6']);
  });
});
