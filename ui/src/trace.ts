// Geometry of a score curve: one trace step's candidates (best first) drawn left to
// right, the kept part in one colour, the cut part in grey, the knee circled, and the
// chord from the first to the last point (the knee is the point farthest from it).

import type { TraceStep } from './api';

export interface Box {
  width: number;
  height: number;
  /** Space kept free around the plot for the axes and labels. */
  padLeft: number;
  padRight: number;
  padTop: number;
  padBottom: number;
}

export const DEFAULT_BOX: Box = {
  width: 320,
  height: 160,
  padLeft: 44,
  padRight: 10,
  padTop: 10,
  padBottom: 24,
};

export interface CurvePoint {
  x: number;
  y: number;
  index: number;
  id: number;
  score: number;
  kept: boolean;
}

export interface CurveGeometry {
  box: Box;
  points: CurvePoint[];
  /** SVG `points` attribute of the kept polyline (empty when nothing is kept). */
  keptLine: string;
  /** SVG `points` of the cut polyline; it starts at the last kept point so the two join. */
  cutLine: string;
  /** How many points are kept (clamped to the number of candidates). */
  kept: number;
  knee: CurvePoint | null;
  /** x halfway between the last kept and the first cut point; null without a cut. */
  cutX: number | null;
  chord: { x1: number; y1: number; x2: number; y2: number } | null;
  /** Candidate indices the x axis spans. */
  xRange: [number, number];
  /** Scores the y axis spans (bottom, top): from 0, or the lowest score when below 0. */
  yRange: [number, number];
  /** Plot area, inside the padding. */
  plot: { left: number; top: number; right: number; bottom: number };
  /** True when every score is the same (the curve is a level line, without a chord). */
  flat: boolean;
}

const round = (v: number) => Math.round(v * 100) / 100;

export function curveGeometry(step: TraceStep, box: Box = DEFAULT_BOX): CurveGeometry {
  const plot = {
    left: box.padLeft,
    top: box.padTop,
    right: box.width - box.padRight,
    bottom: box.height - box.padBottom,
  };
  const candidates = step.candidates.filter((c) => Number.isFinite(c.score));
  const n = candidates.length;
  const kept = Math.max(0, Math.min(Math.floor(step.kept), n));
  const scores = candidates.map((c) => c.score);
  const best = n > 0 ? Math.max(...scores) : 1;
  const worst = n > 0 ? Math.min(...scores) : 0;
  const flat = n > 0 && best - worst <= Math.abs(best) * 1e-9;
  // The axis starts at 0 (or below, for negative scores), so a small drop looks small.
  const lo = Math.min(0, worst);
  const hi = Math.max(0, best) > lo ? Math.max(0, best) : lo + 1;
  const yRange: [number, number] = [lo, hi];
  const xRange: [number, number] = [0, Math.max(0, n - 1)];
  const plotW = plot.right - plot.left;
  const plotH = plot.bottom - plot.top;
  const xOf = (i: number) => (n <= 1 ? plot.left + plotW / 2 : plot.left + (i / (n - 1)) * plotW);
  const yOf = (s: number) => plot.top + ((hi - s) / (hi - lo)) * plotH;

  const points: CurvePoint[] = candidates.map((c, i) => ({
    x: round(xOf(i)),
    y: round(yOf(c.score)),
    index: i,
    id: c.id,
    score: c.score,
    kept: i < kept,
  }));
  const line = (ps: CurvePoint[]) => ps.map((p) => `${p.x},${p.y}`).join(' ');
  const keptPoints = points.slice(0, kept);
  const cutPoints = points.slice(Math.max(0, kept - 1));
  const kneeIndex = step.knee_index;
  const knee =
    kneeIndex !== null && kneeIndex >= 0 && kneeIndex < n ? (points[kneeIndex] ?? null) : null;
  let cutX: number | null = null;
  if (kept > 0 && kept < n) {
    const a = points[kept - 1];
    const b = points[kept];
    if (a && b) cutX = round((a.x + b.x) / 2);
  } else if (kept === 0 && n > 0) {
    cutX = plot.left;
  }
  const first = points[0];
  const last = points[n - 1];
  const chord = n >= 3 && first && last && !flat ? { x1: first.x, y1: first.y, x2: last.x, y2: last.y } : null;
  return {
    box,
    points,
    keptLine: keptPoints.length > 0 ? line(keptPoints) : '',
    cutLine: kept < n ? line(cutPoints) : '',
    kept,
    knee,
    cutX,
    chord,
    xRange,
    yRange,
    plot,
    flat,
  };
}

/** A short number for axis labels: 0.8333 → "0.833", 12.5 → "12.5". */
export function formatScore(v: number): string {
  if (!Number.isFinite(v)) return '–';
  const abs = Math.abs(v);
  if (abs === 0) return '0';
  if (abs >= 100) return v.toFixed(0);
  if (abs >= 1) return String(Number(v.toFixed(2)));
  return String(Number(v.toPrecision(3)));
}

// Step labels the engine writes in its own shorthand, said in words for the trace panel.
const STEP_WORDS: Record<string, string> = {
  'budget filled': 'Filled the rest of the budget with the document’s best other pages',
};

/** A trace step's label as the trace panel shows it. */
export function stepName(label: string): string {
  return STEP_WORDS[label.trim().toLowerCase()] ?? label;
}

/** One line that says what a step did, e.g. "kept 4 of 12, knee at #4". */
export function describeStep(step: TraceStep): string {
  const n = step.candidates.length;
  if (n === 0) return 'no candidates';
  const kept = Math.min(step.kept, n);
  const parts = [kept === n ? `kept all ${n}` : `kept ${kept} of ${n}`];
  if (step.knee_index !== null) parts.push(`knee at #${step.knee_index + 1}`);
  if (step.eliminated.length > 0) parts.push(`${step.eliminated.length} eliminated`);
  parts.push(`beam ${step.beam.length}`);
  return parts.join(', ');
}
