// The timeline chart's data: each kind's changes per slice, busiest kind first, kinds that did not
// change left out, and every slice's total over all kinds (what the bars are scaled by).
import { describe, expect, it } from 'vitest';
import type { HistoryTimeline } from '../../../shared/protocol';
import { timelineDensity } from '../../../renderer/views/timeline-bars';

describe('timelineDensity', () => {
  it('orders kinds busiest first, leaves out kinds without changes and sums every slice', () => {
    const timeline = {
      density: { 'pods.v1': [1, 0, 4], 'deployments.v1.apps': [9, 1, 0], 'services.v1': [0, 0, 0] },
    } as unknown as HistoryTimeline;
    const density = timelineDensity(timeline, 3);
    expect(density.kinds.map((kind) => [kind.gvr, kind.total])).toEqual([
      ['deployments.v1.apps', 10],
      ['pods.v1', 5],
    ]);
    expect(density.totals).toEqual([10, 1, 4]);
  });

  it('is empty slices before the first timeline arrives', () => {
    expect(timelineDensity(undefined, 4)).toEqual({ kinds: [], totals: [0, 0, 0, 0] });
  });
});
