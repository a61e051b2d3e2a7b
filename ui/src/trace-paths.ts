// Where a search went in the documents' trees: for each strategy, what happened to each
// node up to a step (scored and kept, cut, eliminated, in the beam, chosen), and the rows
// of the touched trees as the trace view draws them, with the uninteresting parts folded.

import type { OutlineDocument, OutlineNode, SearchResult } from './api';

/** What a strategy did to a node, as of one step. */
export type NodeState = 'selected' | 'beam' | 'kept' | 'cut' | 'eliminated';

export interface NodeMark {
  state: NodeState;
  /** The node's score at the latest step that ranked it. */
  score: number | null;
  /** Ranked at this very step. */
  now: boolean;
}

/** How many steps a slider over `results` has: the longest trace. */
export function stepCount(results: SearchResult[]): number {
  return Math.max(0, ...results.map((r) => r.trace.length));
}

/**
 * The marks of `result`'s nodes after its step `step` (0-based; a strategy with fewer
 * steps shows its last). Its chosen nodes show as such at its last step only.
 */
export function marksAt(result: SearchResult, step: number): Map<number, NodeMark> {
  const marks = new Map<number, NodeMark>();
  const last = result.trace.length - 1;
  const upTo = Math.min(step, last);
  for (let i = 0; i <= upTo; i++) {
    const s = result.trace[i];
    if (!s) continue;
    const now = i === upTo;
    for (const mark of marks.values()) mark.now = false;
    const eliminated = new Set(s.eliminated);
    const beam = new Set(s.beam);
    s.candidates.forEach((c, rank) => {
      const state: NodeState = beam.has(c.id)
        ? 'beam'
        : eliminated.has(c.id)
          ? 'eliminated'
          : rank < s.kept
            ? 'kept'
            : 'cut';
      marks.set(c.id, { state, score: c.score, now });
    });
    // A node that left the beam without being ranked again was opened (its children
    // were ranked) or replaced; it stays on the path as kept unless eliminated.
    for (const [id, mark] of marks) {
      if (mark.now) continue;
      if (beam.has(id)) mark.state = 'beam';
      else if (eliminated.has(id)) mark.state = 'eliminated';
      else if (mark.state === 'beam') mark.state = 'kept';
    }
  }
  if (upTo === last && last >= 0) {
    for (const s of result.selected) {
      const mark = marks.get(s.id);
      marks.set(s.id, { state: 'selected', score: mark?.score ?? s.score, now: mark?.now ?? false });
    }
  }
  return marks;
}

/** Every node a strategy ranked or chose, for asking the outline. */
export function touchedIds(results: SearchResult[]): number[] {
  const ids = new Set<number>();
  for (const r of results) {
    for (const s of r.trace) for (const c of s.candidates) ids.add(c.id);
    for (const s of r.selected) ids.add(s.id);
  }
  return [...ids];
}

export type TraceRow =
  | { kind: 'document'; docId: number; name: string; pageCount: number }
  | { kind: 'node'; node: OutlineNode; depth: number }
  /** Neighbouring pages no strategy kept, drawn as one row. */
  | { kind: 'folded'; depth: number; ids: number[]; pageStart: number; pageEnd: number }
  /** Documents whose root was ranked and cut at the first step and nothing more. */
  | { kind: 'others'; names: string[]; ids: number[] };

/** Runs of at least this many pages nobody kept fold into one row. */
export const FOLD_AT = 3;

const LOST: ReadonlySet<NodeState | undefined> = new Set([undefined, 'cut', 'eliminated']);

/**
 * The rows of the touched trees. What folds is decided on the strategies' final marks, so
 * the rows stay put while the step slider moves.
 */
export function traceRows(outline: OutlineDocument[], finals: Map<number, NodeMark>[]): TraceRow[] {
  const lost = (id: number) => finals.every((m) => LOST.has(m.get(id)?.state));
  const rows: TraceRow[] = [];
  const others: { names: string[]; ids: number[] } = { names: [], ids: [] };
  for (const doc of outline) {
    const first = doc.nodes[0];
    if (doc.nodes.length === 1 && first && first.parent_id === -1 && lost(first.id)) {
      others.names.push(doc.name);
      others.ids.push(first.id);
      continue;
    }
    rows.push({ kind: 'document', docId: doc.doc_id, name: doc.name, pageCount: doc.page_count });
    const depth = new Map<number, number>();
    const hasChildren = new Set(doc.nodes.map((n) => n.parent_id));
    let run: { node: OutlineNode; depth: number }[] = [];
    const flush = () => {
      if (run.length >= FOLD_AT) {
        const pages = run.map((r) => r.node);
        rows.push({
          kind: 'folded',
          depth: run[0]?.depth ?? 0,
          ids: pages.map((n) => n.id),
          pageStart: Math.min(...pages.map((n) => n.page_start)),
          pageEnd: Math.max(...pages.map((n) => n.page_end)),
        });
      } else {
        for (const r of run) rows.push({ kind: 'node', node: r.node, depth: r.depth });
      }
      run = [];
    };
    let parentOfRun: number | null = null;
    for (const node of doc.nodes) {
      const d = node.parent_id === -1 ? 0 : (depth.get(node.parent_id) ?? -1) + 1;
      depth.set(node.id, d);
      const foldable = !hasChildren.has(node.id) && node.level === 0 && lost(node.id);
      if (!foldable || node.parent_id !== parentOfRun) flush();
      if (foldable) {
        parentOfRun = node.parent_id;
        run.push({ node, depth: d });
      } else {
        parentOfRun = null;
        rows.push({ kind: 'node', node, depth: d });
      }
    }
    flush();
  }
  if (others.names.length > 0) rows.push({ kind: 'others', ...others });
  return rows;
}

/** "p. 4" or "pp. 4–9". */
export function pageSpan(start: number, end: number): string {
  return start === end ? `p. ${start}` : `pp. ${start}–${end}`;
}

/** The strongest state among `ids`, for a folded row or the others row. */
export function strongest(marks: Map<number, NodeMark>, ids: number[]): NodeState | null {
  const order: NodeState[] = ['selected', 'beam', 'kept', 'eliminated', 'cut'];
  let best: number = order.length;
  for (const id of ids) {
    const state = marks.get(id)?.state;
    if (state !== undefined) best = Math.min(best, order.indexOf(state));
  }
  return order[best] ?? null;
}
