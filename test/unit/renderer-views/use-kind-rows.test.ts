import { describe, expect, it } from 'vitest';
import { liveRequeryGapMs, requeryGapMs, requeryMode } from '../../../renderer/views/use-kind-rows';

describe('requeryGapMs', () => {
  it('re-queries live churn at most every liveRequeryGapMs, however cheap the query', () => {
    expect(requeryGapMs(0.5, 'live')).toBe(liveRequeryGapMs);
    expect(requeryGapMs(0, 'live')).toBe(liveRequeryGapMs);
  });

  it('spaces live re-queries of many rows further apart, so their copies of the name order stay bounded', () => {
    expect(requeryGapMs(0.5, 'live', 50_000)).toBe(liveRequeryGapMs);
    expect(requeryGapMs(0.5, 'live', 150_000)).toBe(300);
    // A replay is followed as closely as its cost allows, however many rows it has.
    expect(requeryGapMs(0.5, 'replay', 150_000)).toBe(2);
  });

  it('spaces re-queries of a first listing by its rows: 3 s apart at 150,000, however cheap', () => {
    expect(requeryGapMs(0.5, 'listing', 150_000)).toBe(3_000);
    expect(requeryGapMs(0.5, 'listing', 50_000)).toBe(1_000);
    expect(requeryGapMs(0.5, 'listing', 2_000)).toBe(liveRequeryGapMs);
  });

  it('keeps a query that costs more than a quarter of that gap to a quarter of the busy time', () => {
    expect(requeryGapMs(40, 'live')).toBe(160);
    expect(requeryGapMs(40, 'replay')).toBe(160);
    expect(requeryGapMs(1_000, 'listing', 150_000)).toBe(4_000);
  });

  it('follows a replay as closely as the query cost allows', () => {
    expect(requeryGapMs(0.5, 'replay')).toBe(2);
    expect(requeryGapMs(0, 'replay')).toBe(0);
  });
});

describe('requeryMode', () => {
  it("spaces re-queries as a listing while the feed lists, though the mirror's snapshot has ended", () => {
    // A page opened while main lists: a snapshot of the rows listed so far, the rest as live batches.
    expect(requeryMode(false, true, true)).toBe('listing');
    expect(requeryMode(false, false, false)).toBe('listing');
    expect(requeryMode(false, true, false)).toBe('live');
    expect(requeryMode(true, true, true)).toBe('replay');
  });
});
