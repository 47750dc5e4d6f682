import { describe, expect, it } from 'vitest';
import { liveRequeryGapMs, requeryGapMs } from '../../../renderer/views/use-kind-rows';

describe('requeryGapMs', () => {
  it('re-queries live churn at most every liveRequeryGapMs, however cheap the query', () => {
    expect(requeryGapMs(0.5, true)).toBe(liveRequeryGapMs);
    expect(requeryGapMs(0, true)).toBe(liveRequeryGapMs);
  });

  it('spaces live re-queries of many rows further apart, so their copies of the name order stay bounded', () => {
    expect(requeryGapMs(0.5, true, 50_000)).toBe(liveRequeryGapMs);
    expect(requeryGapMs(0.5, true, 150_000)).toBe(300);
    // A replay is followed as closely as its cost allows, however many rows it has.
    expect(requeryGapMs(0.5, false, 150_000)).toBe(2);
  });

  it('keeps a query that costs more than a quarter of that gap to a quarter of the busy time', () => {
    expect(requeryGapMs(40, true)).toBe(160);
    expect(requeryGapMs(40, false)).toBe(160);
  });

  it('follows a replay or a first listing as closely as the query cost allows', () => {
    expect(requeryGapMs(0.5, false)).toBe(2);
    expect(requeryGapMs(0, false)).toBe(0);
  });
});
