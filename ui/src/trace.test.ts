import { describe, expect, it } from 'vitest';
import type { TraceStep } from './api';
import { curveGeometry, DEFAULT_BOX, describeStep, formatScore, stepName } from './trace';

function step(scores: number[], kept: number, knee: number | null = null): TraceStep {
  return {
    label: 'roots',
    candidates: scores.map((score, i) => ({ id: 100 + i, score })),
    knee_index: knee,
    kept,
    eliminated: [],
    beam: [],
  };
}

const { padLeft, padTop, width, height, padRight, padBottom } = DEFAULT_BOX;
const right = width - padRight;
const bottom = height - padBottom;

describe('curveGeometry', () => {
  it('spans the plot: best at top left, worst at bottom right', () => {
    const g = curveGeometry(step([0.9, 0.5, 0.3, 0.2, 0.1], 2, 1));
    expect(g.points).toHaveLength(5);
    expect(g.points[0]).toMatchObject({ x: padLeft, y: padTop, kept: true });
    expect(g.points[4]).toMatchObject({ x: right, kept: false });
    // The axis starts at 0: the worst score, 0.1, sits an ninth of the way up, not at the bottom.
    expect(g.points[4]?.y).toBeCloseTo(padTop + ((0.9 - 0.1) / 0.9) * (bottom - padTop), 1);
    expect(g.yRange).toEqual([0, 0.9]);
    expect(g.xRange).toEqual([0, 4]);
  });

  it('splits kept and cut lines at the cut, joined at the last kept point', () => {
    const g = curveGeometry(step([0.9, 0.5, 0.3, 0.2, 0.1], 2, 1));
    expect(g.keptLine.split(' ')).toHaveLength(2);
    expect(g.cutLine.split(' ')).toHaveLength(4);
    expect(g.cutLine.split(' ')[0]).toBe(g.keptLine.split(' ')[1]);
    expect(g.points.filter((p) => p.kept).map((p) => p.id)).toEqual([100, 101]);
    const p1 = g.points[1]!;
    const p2 = g.points[2]!;
    expect(g.cutX).toBeCloseTo((p1.x + p2.x) / 2, 1);
  });

  it('circles the knee and draws the chord', () => {
    const g = curveGeometry(step([0.9, 0.5, 0.3, 0.2, 0.1], 2, 1));
    expect(g.knee?.index).toBe(1);
    expect(g.knee?.id).toBe(101);
    expect(g.chord).toEqual({ x1: padLeft, y1: padTop, x2: right, y2: g.points[4]?.y });
  });

  it('has no cut when everything is kept', () => {
    const g = curveGeometry(step([3, 2, 1], 3));
    expect(g.cutLine).toBe('');
    expect(g.cutX).toBeNull();
    expect(g.keptLine.split(' ')).toHaveLength(3);
  });

  it('handles no candidates', () => {
    const g = curveGeometry(step([], 0, 0));
    expect(g.points).toEqual([]);
    expect(g.keptLine).toBe('');
    expect(g.cutLine).toBe('');
    expect(g.knee).toBeNull();
    expect(g.chord).toBeNull();
  });

  it('centres a single candidate', () => {
    const g = curveGeometry(step([0.7], 1, 0));
    expect(g.points[0]?.x).toBe(padLeft + (right - padLeft) / 2);
    expect(g.points[0]?.y).toBe(padTop);
    expect(g.knee?.index).toBe(0);
    expect(g.flat).toBe(true);
  });

  it('draws two candidates at both ends without a chord', () => {
    const g = curveGeometry(step([0.8, 0.4], 1));
    expect(g.points.map((p) => p.x)).toEqual([padLeft, right]);
    expect(g.points.map((p) => p.y)).toEqual([padTop, padTop + (bottom - padTop) / 2]);
    expect(g.chord).toBeNull();
    expect(g.cutLine.split(' ')).toHaveLength(2);
  });

  it('draws equal scores as a level line at their height, without NaN', () => {
    const g = curveGeometry(step([0.5, 0.5, 0.5, 0.5], 4));
    expect(g.flat).toBe(true);
    const ys = new Set(g.points.map((p) => p.y));
    expect(ys.size).toBe(1);
    expect(g.points.every((p) => Number.isFinite(p.x) && Number.isFinite(p.y))).toBe(true);
    expect(g.chord).toBeNull();
  });

  it('clamps kept and ignores a knee out of range', () => {
    const g = curveGeometry(step([0.9, 0.1], 7, 9));
    expect(g.kept).toBe(2);
    expect(g.knee).toBeNull();
    const none = curveGeometry(step([0.9, 0.1], 0));
    expect(none.keptLine).toBe('');
    expect(none.cutLine.split(' ')).toHaveLength(2);
    expect(none.cutX).toBe(padLeft);
  });

  it('starts the axis at 0 so that a small drop looks small', () => {
    const g = curveGeometry(step([2.1, 2.05, 2.03], 1));
    expect(g.yRange).toEqual([0, 2.1]);
    const drop = g.points[2]!.y - g.points[0]!.y;
    expect(drop).toBeLessThan((bottom - padTop) * 0.05);
  });

  it('keeps negative scores on the plot and all-zero scores on the axis', () => {
    const neg = curveGeometry(step([1, -1], 1));
    expect(neg.yRange).toEqual([-1, 1]);
    expect(neg.points.map((p) => p.y)).toEqual([padTop, bottom]);
    const zero = curveGeometry(step([0, 0], 1));
    expect(zero.yRange).toEqual([0, 1]);
    expect(zero.points.map((p) => p.y)).toEqual([bottom, bottom]);
  });

  it('honours a custom box', () => {
    const box = { width: 100, height: 50, padLeft: 0, padRight: 0, padTop: 0, padBottom: 0 };
    const g = curveGeometry(step([1, 0], 1), box);
    expect(g.points.map((p) => [p.x, p.y])).toEqual([
      [0, 0],
      [100, 50],
    ]);
  });
});

describe('labels', () => {
  it('formats scores briefly', () => {
    expect(formatScore(0.83333)).toBe('0.833');
    expect(formatScore(12.5)).toBe('12.5');
    expect(formatScore(0)).toBe('0');
    expect(formatScore(Number.NaN)).toBe('–');
  });

  it('describes a step', () => {
    expect(describeStep({ ...step([0.9, 0.5, 0.1], 1, 0), eliminated: [5, 6], beam: [100] })).toBe(
      'kept 1 of 3, knee at #1, 2 eliminated, beam 1',
    );
    expect(describeStep(step([], 0))).toBe('no candidates');
    expect(describeStep(step([0.3, 0.2], 2))).toBe('kept all 2, beam 0');
  });
});

describe('stepName', () => {
  it('says the budget-filling step in words and leaves the others as they are', () => {
    expect(stepName('budget filled')).toBe('Filled the rest of the budget with the document’s best other pages');
    expect(stepName('Budget filled ')).toMatch(/^Filled the rest of the budget/);
    expect(stepName('roots')).toBe('roots');
  });
});
