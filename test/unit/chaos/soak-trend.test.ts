import { describe, expect, it } from 'vitest';
import { judgeTrend, leastSquaresSlope } from '../../soak/trend';
import type { Point } from '../../soak/trend';

const mebibyte = 1024 * 1024;
const series = (values: number[]): Point[] => values.map((y, x) => ({ x, y }));

describe('soak trend check', () => {
  it('finds the slope of a straight line exactly', () => {
    expect(leastSquaresSlope(series([10, 13, 16, 19, 22]))).toBeCloseTo(3);
  });

  it('has no slope with fewer than two samples or all at one moment', () => {
    expect(leastSquaresSlope(series([5]))).toBe(0);
    expect(
      leastSquaresSlope([
        { x: 2, y: 1 },
        { x: 2, y: 9 },
      ]),
    ).toBe(0);
  });

  it('passes a heap that grows during warm-up and then stays flat', () => {
    const heap = series([100, 300, 420, 430, 428, 431, 429, 430].map((value) => value * mebibyte));
    const verdict = judgeTrend(heap, 3, 2 * mebibyte);
    expect(verdict).toMatchObject({ levelsOff: true, conclusive: true, samplesJudged: 5 });
  });

  it('fails a heap that keeps growing after warm-up, even when it grows slowly', () => {
    const heap = series([400, 410, 413, 416, 419, 422, 425, 428].map((value) => value * mebibyte));
    const verdict = judgeTrend(heap, 2, 2 * mebibyte);
    expect(verdict.levelsOff).toBe(false);
    expect(verdict.slope).toBeCloseTo(3 * mebibyte, -3);
  });

  it('is not fooled by one outlier sample in a flat series', () => {
    const handles = series([40, 52, 50, 51, 90, 50, 51, 50, 52, 51]);
    expect(judgeTrend(handles, 1, 2).levelsOff).toBe(true);
  });

  it('calls a soak with too few samples after warm-up inconclusive, never a pass', () => {
    const verdict = judgeTrend(series([1, 1, 1]), 1, 10);
    expect(verdict).toMatchObject({ conclusive: false, levelsOff: false, samplesJudged: 2 });
  });
});
