// Draws a trace step's score curve as inline SVG (geometry in ../trace.ts).

import type { TraceStep } from '../api';
import { svg } from '../dom';
import { curveGeometry, DEFAULT_BOX, formatScore, type Box } from '../trace';

export interface CurveOptions {
  box?: Box;
  /** Name of a node for tooltips, e.g. "BOEING_2022_10K pp.33–36". */
  nodeLabel?: (id: number) => string;
}

export function renderCurve(step: TraceStep, options: CurveOptions = {}): SVGSVGElement {
  const box = options.box ?? DEFAULT_BOX;
  const g = curveGeometry(step, box);
  const n = g.points.length;
  const summary =
    n === 0
      ? `${step.label}: no candidates`
      : `${step.label}: ${n} candidates, scores ${formatScore(g.yRange[1])} to ${formatScore(g.yRange[0])}, ` +
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
  // y labels: best and worst score; x labels: first and last rank.
  root.append(
    svg('text', { class: 'tick', x: left - 4, y: top + 4, 'text-anchor': 'end' }, formatScore(g.yRange[1])),
    svg('text', { class: 'tick', x: left - 4, y: bottom, 'text-anchor': 'end' }, g.flat ? '' : formatScore(g.yRange[0])),
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
