import { describe, expect, it } from 'vitest';
import type { OutlineDocument, OutlineNode, SearchResult, TraceStep } from './api';
import { FOLD_AT, marksAt, pageSpan, stepCount, strongest, touchedIds, traceRows } from './trace-paths';

function step(ranked: number[], kept: number, beam: number[], eliminated: number[] = []): TraceStep {
  return {
    label: 'expand',
    candidates: ranked.map((id, i) => ({ id, score: 1 - i / 10 })),
    knee_index: null,
    kept,
    eliminated,
    beam,
  };
}

function result(trace: TraceStep[], selected: number[]): SearchResult {
  return {
    question: 'q',
    strategy: { name: 'knee', max_roots: 40 },
    settings: {
      fusion: { method: 'min-max', rrf_k: 2, dense_weight: 1, sparse_weight: 1 },
      token_budget: null,
      documents: null,
      section_scoring: 'best-page',
    },
    selected: selected.map((id) => ({
      id,
      doc_id: 1,
      file_name: 'a.pdf',
      level: 0,
      page_start: id,
      page_end: id,
      score: 0.5,
    })),
    context: { text: '', pages: [], tokens: 0, tokenizer: 'x', dropped_nodes: [], truncation: null },
    embed_ms: 0,
    search_ms: 0,
    latency_ms: 0,
    store_queries: 0,
    trace,
    stopped_because: '',
    analysis: null,
  };
}

// Roots 100 and 200; 100 has sections 10 (pages 1-2) and 11 (pages 3-4).
const knee = result(
  [step([100, 200], 1, [100]), step([10, 11], 1, [10], [100]), step([1, 2], 1, [1], [10])],
  [1],
);

describe('marksAt', () => {
  it('follows a node from ranked to kept, eliminated and chosen', () => {
    const first = marksAt(knee, 0);
    expect(first.get(100)).toMatchObject({ state: 'beam', now: true });
    expect(first.get(200)).toMatchObject({ state: 'cut', score: 0.9 });
    expect(first.has(10)).toBe(false);

    const second = marksAt(knee, 1);
    expect(second.get(100)?.state).toBe('eliminated');
    expect(second.get(100)?.now).toBe(false);
    expect(second.get(10)).toMatchObject({ state: 'beam', now: true });
    expect(second.get(11)?.state).toBe('cut');

    const last = marksAt(knee, 2);
    expect(last.get(1)?.state).toBe('selected');
    expect(last.get(2)?.state).toBe('cut');
    expect(last.get(10)?.state).toBe('eliminated');
  });

  it('shows a shorter strategy at its last step, chosen nodes included', () => {
    const flat = result([step([1, 3, 4], 2, [1, 3])], [1, 3]);
    expect(stepCount([knee, flat])).toBe(3);
    const marks = marksAt(flat, 2);
    expect(marks.get(3)?.state).toBe('selected');
    expect(marks.get(4)?.state).toBe('cut');
  });

  it('keeps a node that left the beam unranked on the path', () => {
    const beam = result([step([100], 1, [100]), step([10, 11], 2, [10, 11])], [10, 11]);
    expect(marksAt(beam, 1).get(100)?.state).toBe('kept');
  });

  it('lists every ranked or chosen node once', () => {
    expect(touchedIds([knee]).sort((a, b) => a - b)).toEqual([1, 2, 10, 11, 100, 200]);
  });
});

function node(id: number, parent: number, level: number, start: number, end = start): OutlineNode {
  return { id, parent_id: parent, level, page_start: start, page_end: end, title: `node ${id}` };
}

const outline: OutlineDocument[] = [
  {
    doc_id: 1,
    name: 'ACME_2023_10K',
    page_count: 9,
    nodes: [
      node(100, -1, 2, 1, 9),
      node(10, 100, 1, 1, 2),
      node(1, 10, 0, 1),
      node(2, 10, 0, 2),
      node(11, 100, 1, 3, 9),
      ...[3, 4, 5, 6].map((p) => node(p, 11, 0, p)),
    ],
  },
  { doc_id: 2, name: 'OTHER_2020_10K', page_count: 5, nodes: [node(200, -1, 1, 1, 5)] },
];

describe('traceRows', () => {
  it('draws touched trees with depth, folds pages nobody kept, and gathers cut documents', () => {
    const finals = [marksAt(knee, 2)];
    const rows = traceRows(outline, finals);
    const kinds = rows.map((r) => r.kind);
    expect(kinds).toEqual(['document', 'node', 'node', 'node', 'node', 'node', 'folded', 'others']);
    const depths = rows.flatMap((r) => (r.kind === 'node' ? [[r.node.id, r.depth]] : []));
    expect(depths).toEqual([
      [100, 0],
      [10, 1],
      [1, 2],
      [2, 2],
      [11, 1],
    ]);
    const folded = rows.find((r) => r.kind === 'folded');
    expect(folded).toMatchObject({ depth: 2, ids: [3, 4, 5, 6], pageStart: 3, pageEnd: 6 });
    expect(rows[rows.length - 1]).toEqual({ kind: 'others', names: ['OTHER_2020_10K'], ids: [200] });
  });

  it(`folds only runs of ${FOLD_AT} or more, and never what one strategy kept`, () => {
    const keeps4 = result([step([4], 1, [4])], [4]);
    const rows = traceRows(outline, [marksAt(knee, 2), marksAt(keeps4, 0)]);
    const pages = rows.flatMap((r) => (r.kind === 'node' && r.node.level === 0 ? [r.node.id] : []));
    expect(pages).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rows.some((r) => r.kind === 'folded')).toBe(false);
  });

  it('keeps a document whose root a strategy kept', () => {
    const keepsOther = result([step([200], 1, [200])], [200]);
    const rows = traceRows([outline[1]!], [marksAt(keepsOther, 0)]);
    expect(rows.map((r) => r.kind)).toEqual(['document', 'node']);
  });
});

describe('helpers', () => {
  it('names page spans and the strongest state of a group', () => {
    expect(pageSpan(4, 4)).toBe('p. 4');
    expect(pageSpan(4, 9)).toBe('pp. 4–9');
    const marks = marksAt(knee, 2);
    expect(strongest(marks, [2, 1])).toBe('selected');
    expect(strongest(marks, [11, 2])).toBe('cut');
    expect(strongest(marks, [999])).toBeNull();
  });
});
