// A feed's count is shown once its list answered or rows arrived, never as "0" for a list that failed.
import { describe, expect, it } from 'vitest';
import { knownCount, type FeedView } from '../../../main/bridge/feed-view';
import type { SyncState } from '../../../shared/protocol/sync-state';

const feed = (count: number, state: SyncState) => ({ count, syncState: () => state }) as unknown as FeedView;
const refused = { message: 'cannot reach https://10.0.0.1:6443 (connection refused)' };

describe('knownCount', () => {
  it('is the count once synced, zero included', () => {
    expect(knownCount(feed(0, { phase: 'synced' }))).toBe(0);
    expect(knownCount(feed(12, { phase: 'synced' }))).toBe(12);
  });

  it('is unknown while a first list has not answered, and the rows so far once some arrived', () => {
    expect(knownCount(feed(0, { phase: 'listing' }))).toBeUndefined();
    expect(knownCount(feed(0, { phase: 'reconnecting', retryAt: 1, error: refused }))).toBeUndefined();
    expect(knownCount(feed(0, { phase: 'stale', since: 1, error: refused }))).toBeUndefined();
    expect(knownCount(feed(300, { phase: 'listing', listed: 300, total: 900 }))).toBe(300);
    expect(knownCount(feed(40, { phase: 'stale', since: 1, error: refused }))).toBe(40);
  });
});
