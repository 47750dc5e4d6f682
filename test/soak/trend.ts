// Whether a resource "levels off": the least-squares slope of its samples after warm-up stays below a
// threshold. A slope, not first-versus-last, so that one GC-timing outlier neither hides a leak nor
// invents one; after warm-up, because caches fill and JIT code settles in the first minutes.

export interface Point {
  /** Minutes since the soak started. */
  x: number;
  y: number;
}

/** The slope of the least-squares line through `points` (y units per x unit); 0 for fewer than 2. */
export function leastSquaresSlope(points: readonly Point[]): number {
  if (points.length < 2) return 0;
  const meanX = points.reduce((sum, point) => sum + point.x, 0) / points.length;
  const meanY = points.reduce((sum, point) => sum + point.y, 0) / points.length;
  let covariance = 0;
  let variance = 0;
  for (const point of points) {
    covariance += (point.x - meanX) * (point.y - meanY);
    variance += (point.x - meanX) ** 2;
  }
  return variance === 0 ? 0 : covariance / variance;
}

export interface TrendVerdict {
  /** True when the slope after warm-up is below the threshold. */
  levelsOff: boolean;
  /** False when too few samples remain after warm-up to judge (the verdict is then not a pass). */
  conclusive: boolean;
  /** Units per minute. */
  slope: number;
  threshold: number;
  samplesJudged: number;
}

/** Samples after warm-up needed for a slope worth believing. */
export const minimumJudgedSamples = 3;

/**
 * Judges `points` taken at or after `warmupMinutes`. Fewer than minimumJudgedSamples of them is
 * inconclusive, never a pass: a soak too short to show a trend proves nothing.
 */
export function judgeTrend(
  points: readonly Point[],
  warmupMinutes: number,
  thresholdPerMinute: number,
): TrendVerdict {
  const judged = points.filter((point) => point.x >= warmupMinutes);
  const slope = leastSquaresSlope(judged);
  const conclusive = judged.length >= minimumJudgedSamples;
  return {
    levelsOff: conclusive && slope < thresholdPerMinute,
    conclusive,
    slope,
    threshold: thresholdPerMinute,
    samplesJudged: judged.length,
  };
}
