// Draws a trace step's score curve as inline SVG (geometry in ../trace.ts).

import type { TraceStep } from '../api';
import { h, svg } from '../dom';
import { curveGeometry, DEFAULT_BOX, formatScore, stepName, type Box } from '../trace';

export interface CurveOptions {
  box?: Box;
  /** Name of a node for tooltips, e.g. "BOEING_2022_10K pp.33–36". */
  nodeLabel?: (id: number) => string;
}

export function renderCurve(step: TraceStep, options: CurveOptions = {}): SVGSVGElement {
  const box = options.box ?? DEFAULT_BOX;
  const g = curveGeometry(step, box);
  const n = g.points.length;
  const scores = g.points.map((p) => p.score);
  const label = stepName(step.label);
  const summary =
    n === 0
      ? `${label}: no candidates`
      : `${label}: ${n} candidates, scores ${formatScore(Math.max(...scores))} to ${formatScore(Math.min(...scores))}, ` +
        `${g.kept} kept${g.knee ? `, knee at rank ${g.knee.index + 1}` : ''}`;
  const root = svg('svg', {
    class: 'curve',
    viewBox: `0 0 ${box.width} ${box.height}`,
    width: box.width,
    height: box.height,
    role: 'img',
    'aria-label': summary,
  });
  const { left, right, top, bottom } = g.plot;
  root.append(
    svg('line', { class: 'axis', x1: left, y1: bottom, x2: right, y2: bottom }),
    svg('line', { class: 'axis', x1: left, y1: top, x2: left, y2: bottom }),
  );
  if (n === 0) {
    root.append(
      svg('text', { class: 'empty', x: (left + right) / 2, y: (top + bottom) / 2, 'text-anchor': 'middle' }, 'no candidates'),
    );
    return root;
  }
  // y labels: the axis's top and bottom (0); x labels: first and last rank.
  root.append(
    svg('text', { class: 'tick', x: left - 4, y: top + 4, 'text-anchor': 'end' }, formatScore(g.yRange[1])),
    svg('text', { class: 'tick', x: left - 4, y: bottom, 'text-anchor': 'end' }, formatScore(g.yRange[0])),
    svg('text', { class: 'tick', x: left, y: bottom + 14, 'text-anchor': 'start' }, '1'),
    svg('text', { class: 'tick', x: right, y: bottom + 14, 'text-anchor': 'end' }, String(n)),
    svg('text', { class: 'tick', x: (left + right) / 2, y: bottom + 14, 'text-anchor': 'middle' }, 'rank'),
  );
  if (g.chord) {
    root.append(svg('line', { class: 'chord', x1: g.chord.x1, y1: g.chord.y1, x2: g.chord.x2, y2: g.chord.y2 }));
  }
  if (g.cutX !== null) {
    root.append(svg('line', { class: 'cut-line', x1: g.cutX, y1: top, x2: g.cutX, y2: bottom }));
  }
  if (g.cutLine) root.append(svg('polyline', { class: 'cut', points: g.cutLine }));
  if (g.keptLine) root.append(svg('polyline', { class: 'kept', points: g.keptLine }));
  const r = n > 40 ? 1.8 : 2.6;
  for (const p of g.points) {
    const name = options.nodeLabel?.(p.id) ?? `node ${p.id}`;
    root.append(
      svg(
        'circle',
        { class: p.kept ? 'pt kept' : 'pt cut', cx: p.x, cy: p.y, r },
        svg('title', {}, `#${p.index + 1} ${name}: ${formatScore(p.score)}${p.kept ? ' (kept)' : ' (cut)'}`),
      ),
    );
  }
  if (g.knee) {
    root.append(
      svg('circle', { class: 'knee', cx: g.knee.x, cy: g.knee.y, r: 7 }, svg('title', {}, `knee: rank ${g.knee.index + 1}`)),
    );
  }
  return root;
}

/** The curve's marks in words, each drawn as the curve draws it (same classes, same CSS). */
export const CURVE_MARKS: readonly { kind: 'kept' | 'cut' | 'knee' | 'cut-line' | 'chord'; words: string }[] = [
  { kind: 'kept', words: 'kept: the line and dots of the candidates the step kept' },
  { kind: 'cut', words: 'cut (grey): the candidates the step left out' },
  { kind: 'knee', words: 'knee: where the scores stop falling fast' },
  { kind: 'cut-line', words: 'where the step cut' },
  { kind: 'chord', words: 'from the best to the last score; the knee is the point farthest from it' },
];

function curveMark(kind: (typeof CURVE_MARKS)[number]['kind']): SVGSVGElement {
  const icon = svg('svg', { class: 'curve legend-curve', width: 22, height: 12, viewBox: '0 0 22 12', 'aria-hidden': 'true' });
  switch (kind) {
    case 'kept':
    case 'cut':
      icon.append(
        svg('polyline', { class: kind, points: '1,6 21,6' }),
        svg('circle', { class: `pt ${kind}`, cx: 11, cy: 6, r: 2.6 }),
      );
      break;
    case 'knee':
      icon.append(svg('circle', { class: 'knee', cx: 11, cy: 6, r: 4.5 }));
      break;
    case 'cut-line':
      icon.append(svg('line', { class: 'cut-line', x1: 11, y1: 0, x2: 11, y2: 12 }));
      break;
    case 'chord':
      icon.append(svg('line', { class: 'chord', x1: 1, y1: 2, x2: 21, y2: 10 }));
      break;
  }
  return icon;
}

/** The legend of the score curve: every mark `renderCurve` draws. */
export function curveLegend(): HTMLElement {
  return h(
    'ul',
    { class: 'trace-legend curve-legend', 'aria-label': 'What the curve’s marks mean', 'data-testid': 'curve-legend' },
    ...CURVE_MARKS.map((m) => h('li', { 'data-mark': m.kind }, curveMark(m.kind), m.words)),
  );
}
