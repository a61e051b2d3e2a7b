import { describe, expect, it } from 'vitest';
import type { RunRecord } from './api';
import { groupRuns } from './history-groups';

function run(id: number, kind: RunRecord['kind'], question: string, at: string, strategy: string | null = null): RunRecord {
  return {
    id,
    kind,
    conversation_id: null,
    question,
    strategy,
    settings: null,
    selected: null,
    pages: null,
    metrics: null,
    context_tokens: null,
    latency_ms: null,
    embed_ms: null,
    status: 'ok',
    error: null,
    created_at: at,
    answer: null,
  };
}

describe('history entries', () => {
  it('makes one entry of a comparison’s strategies, newest entry first', () => {
    const q = 'Who is the CEO?';
    const runs = [
      run(1, 'ask', 'First question', '2026-12-01T10:00:00Z'),
      run(2, 'compare', q, '2026-12-01T10:01:00Z', 'flat'),
      run(3, 'compare', q, '2026-12-01T10:01:02Z', 'beam'),
      run(4, 'compare', q, '2026-12-01T10:01:05Z', 'knee'),
      run(5, 'ask', 'Later', '2026-12-01T10:05:00Z'),
    ];
    const entries = groupRuns([...runs].reverse());
    expect(entries.map((e) => (e.kind === 'run' ? e.run.id : e.runs.map((r) => r.id)))).toEqual([5, [2, 3, 4], 1]);
  });

  it('keeps two comparisons of the same question apart, and a lone compare run on its own', () => {
    const q = 'Revenue in 2022?';
    const entries = groupRuns([
      run(1, 'compare', q, '2026-12-01T10:00:00Z', 'flat'),
      run(2, 'compare', q, '2026-12-01T10:00:01Z', 'beam'),
      // Asked again an hour later.
      run(3, 'compare', q, '2026-12-01T11:00:00Z', 'flat'),
      run(4, 'compare', q, '2026-12-01T11:00:01Z', 'beam'),
      run(5, 'compare', 'Another', '2026-12-01T11:00:02Z', 'flat'),
    ]);
    expect(entries.map((e) => (e.kind === 'run' ? e.run.id : e.runs.map((r) => r.id)))).toEqual([5, [3, 4], [1, 2]]);
  });
});
