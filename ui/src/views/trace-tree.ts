// Draws the touched trees of a trace as inline SVG: one row per node, indented under its
// parent, with one marker column per strategy shown (its colour, and a shape for what it
// did to the node). The SVG carries its own colours so that an exported copy looks the same.

import type { StrategyName } from '../api';
import { svg } from '../dom';
import { formatScore } from '../trace';
import { pageSpan, strongest, type NodeMark, type NodeState, type TraceRow } from '../trace-paths';

/** A colour per strategy, the same in the cards, the tree and the legend. */
export const STRATEGY_COLOURS: Record<StrategyName, string> = {
  flat: '#6b7280',
  branch: '#0e7490',
  beam: '#7c3aed',
  knee: '#d97706',
  'sensitive-knee': '#dc2626',
  'largest-gap': '#059669',
  'collapsed-tree': '#2563eb',
  'proxy-pointer': '#db2777',
};

export const STATE_WORDS: Record<NodeState, string> = {
  selected: 'chosen',
  beam: 'in the beam',
  kept: 'kept',
  cut: 'cut',
  eliminated: 'eliminated (a parent or child took its place)',
};

export interface Shown {
  name: StrategyName;
  marks: Map<number, NodeMark>;
}

const ROW = 20;
const WIDTH = 760;
const MARKER_COLUMN = 18;
const INDENT = 16;
const CHAR_WIDTH = 6.4;
const MUTED = '#6b7280';

/** One marker: filled square chosen, ringed dot in the beam, dot kept, ring cut, cross eliminated. */
export function marker(state: NodeState, colour: string, cx: number, cy: number, label: string): SVGGElement {
  const g = svg('g', { class: `mark ${state}` }, svg('title', {}, label));
  switch (state) {
    case 'selected':
      g.append(svg('rect', { x: cx - 5, y: cy - 5, width: 10, height: 10, rx: 1.5, fill: colour }));
      break;
    case 'beam':
      g.append(svg('circle', { cx, cy, r: 5, fill: colour, stroke: '#111827', 'stroke-width': 1.6 }));
      break;
    case 'kept':
      g.append(svg('circle', { cx, cy, r: 4.5, fill: colour }));
      break;
    case 'cut':
      g.append(svg('circle', { cx, cy, r: 4, fill: 'none', stroke: colour, 'stroke-width': 1.6 }));
      break;
    case 'eliminated':
      g.append(
        svg('line', { x1: cx - 4, y1: cy - 4, x2: cx + 4, y2: cy + 4, stroke: colour, 'stroke-width': 1.8 }),
        svg('line', { x1: cx - 4, y1: cy + 4, x2: cx + 4, y2: cy - 4, stroke: colour, 'stroke-width': 1.8 }),
      );
      break;
  }
  return g;
}

function clip(text: string, room: number): string {
  const chars = Math.max(8, Math.floor(room / CHAR_WIDTH));
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

function rowText(row: TraceRow): { text: string; bold: boolean; muted: boolean } {
  switch (row.kind) {
    case 'document':
      return { text: `${row.name} · ${row.pageCount} pages`, bold: true, muted: false };
    case 'node':
      return { text: `${pageSpan(row.node.page_start, row.node.page_end)} · ${row.node.title}`, bold: false, muted: false };
    case 'folded':
      return {
        text: `${pageSpan(row.pageStart, row.pageEnd)}: ${row.ids.length} pages ranked, none kept`,
        bold: false,
        muted: true,
      };
    case 'others': {
      const names = row.names.slice(0, 3).join(', ');
      const more = row.names.length > 3 ? ` and ${row.names.length - 3} more` : '';
      return {
        text: `${row.names.length} more documents ranked at the first step and cut: ${names}${more}`,
        bold: false,
        muted: true,
      };
    }
  }
}

function rowIds(row: TraceRow): number[] {
  switch (row.kind) {
    case 'document':
      return [];
    case 'node':
      return [row.node.id];
    case 'folded':
    case 'others':
      return row.ids;
  }
}

export function renderTraceTree(rows: TraceRow[], shown: Shown[], caption: string): SVGSVGElement {
  const height = Math.max(1, rows.length) * ROW + 8;
  const treeLeft = shown.length * MARKER_COLUMN + 12;
  const root = svg('svg', {
    class: 'trace-tree',
    viewBox: `0 0 ${WIDTH} ${height}`,
    width: WIDTH,
    height,
    role: 'img',
    'aria-label': caption,
    'font-family': 'system-ui, sans-serif',
    'font-size': 12,
  });
  const rowY = new Map<number, number>();
  rows.forEach((row, i) => {
    const top = 4 + i * ROW;
    const mid = top + ROW / 2;
    const ids = rowIds(row);
    const now = shown[0] && ids.some((id) => shown[0]?.marks.get(id)?.now);
    if (now) {
      root.append(svg('rect', { class: 'now', x: 0, y: top, width: WIDTH, height: ROW, fill: '#fde68a', opacity: 0.45 }));
    }
    shown.forEach((s, column) => {
      const state = row.kind === 'node' ? (s.marks.get(row.node.id)?.state ?? null) : strongest(s.marks, ids);
      if (!state) return;
      const score = row.kind === 'node' ? s.marks.get(row.node.id)?.score : null;
      const scoreWords = score === null || score === undefined ? '' : ` (score ${formatScore(score)})`;
      const label = `${s.name}: ${STATE_WORDS[state]}${scoreWords}`;
      root.append(marker(state, STRATEGY_COLOURS[s.name], 9 + column * MARKER_COLUMN, mid, label));
    });
    const depth = row.kind === 'node' || row.kind === 'folded' ? row.depth : 0;
    const x = treeLeft + (row.kind === 'document' || row.kind === 'others' ? 0 : (depth + 1) * INDENT);
    if (row.kind === 'node') {
      rowY.set(row.node.id, mid);
      const parentMid = rowY.get(row.node.parent_id);
      const elbow = x - INDENT + 4;
      const fromY = parentMid ?? top;
      root.append(
        svg('path', {
          d: `M ${elbow} ${fromY + (parentMid === undefined ? 0 : 5)} V ${mid} H ${x - 3}`,
          fill: 'none',
          stroke: '#9ca3af',
          'stroke-width': 1,
        }),
      );
    }
    const { text, bold, muted } = rowText(row);
    const score = row.kind === 'node' ? shown[0]?.marks.get(row.node.id)?.score : null;
    const scoreText = score === null || score === undefined ? '' : formatScore(score);
    const room = WIDTH - x - (scoreText ? 52 : 8);
    root.append(
      svg(
        'text',
        {
          x,
          y: mid + 4,
          fill: muted ? MUTED : 'currentColor',
          'font-weight': bold ? 700 : 400,
          'font-style': row.kind === 'folded' ? 'italic' : null,
        },
        clip(text, room),
      ),
    );
    if (scoreText) {
      root.append(
        svg('text', { x: WIDTH - 6, y: mid + 4, 'text-anchor': 'end', fill: MUTED, 'font-size': 11 }, scoreText),
      );
    }
  });
  return root;
}

/** A standalone copy of a drawn trace for saving: white background, dark text, a title. */
export function standaloneSvg(drawn: SVGSVGElement, title: string): string {
  const copy = drawn.cloneNode(true) as SVGSVGElement;
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('style', 'color:#111827;background:#ffffff');
  const heading = svg('title', {}, title);
  copy.insertBefore(heading, copy.firstChild);
  const background = svg('rect', { x: 0, y: 0, width: '100%', height: '100%', fill: '#ffffff' });
  copy.insertBefore(background, heading.nextSibling);
  return new XMLSerializer().serializeToString(copy);
}
