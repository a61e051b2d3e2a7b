// History groups the runs of one comparison: the engine records each strategy of a
// comparison as its own run, one after the other, with nothing to join them but that.

import type { RunRecord } from './api';

/** Runs of one comparison are recorded within this long of each other. */
const SAME_COMPARISON_MS = 5 * 60_000;

export type HistoryEntry = { kind: 'run'; run: RunRecord } | { kind: 'comparison'; runs: RunRecord[] };

function time(run: RunRecord): number {
  const t = Date.parse(run.created_at);
  return Number.isNaN(t) ? 0 : t;
}

/**
 * Newest first: each comparison (compare runs of one question with consecutive ids,
 * recorded close together) as one entry with its runs in the order they ran, every other
 * run on its own.
 */
export function groupRuns(runs: readonly RunRecord[]): HistoryEntry[] {
  const byId = [...runs].sort((a, b) => a.id - b.id);
  const entries: HistoryEntry[] = [];
  let group: RunRecord[] = [];
  const close = () => {
    if (group.length === 1) entries.push({ kind: 'run', run: group[0]! });
    else if (group.length > 1) entries.push({ kind: 'comparison', runs: group });
    group = [];
  };
  for (const run of byId) {
    const previous = group[group.length - 1];
    const joins =
      previous !== undefined &&
      run.kind === 'compare' &&
      previous.kind === 'compare' &&
      run.id === previous.id + 1 &&
      run.question === previous.question &&
      Math.abs(time(run) - time(previous)) <= SAME_COMPARISON_MS;
    if (!joins) close();
    if (run.kind === 'compare') group.push(run);
    else entries.push({ kind: 'run', run });
  }
  close();
  const newest = (e: HistoryEntry) => (e.kind === 'run' ? e.run : e.runs[e.runs.length - 1]!);
  return entries.sort((a, b) => newest(b).created_at.localeCompare(newest(a).created_at) || newest(b).id - newest(a).id);
}
