import { describe, expect, it } from 'vitest';
import { describeSync, loadingShownOf } from '../../../renderer/views/sync-badge';

const open = { phase: 'open' as const };
const now = Date.UTC(2026, 0, 1, 12, 0, 0);

describe('describeSync', () => {
  it('shows listing progress with counts', () => {
    expect(describeSync({ phase: 'listing', listed: 12_000, total: 30_000 }, open, now)).toBe(
      'listing 40% (12,000 of 30,000)',
    );
  });

  it('says how long a synced watch has delivered nothing, ticking, and plain synced once data is back', () => {
    const silent = { phase: 'synced' as const, noDataSince: now - 70_000 };
    expect(describeSync(silent, open, now)).toBe('no data for 70 s');
    expect(describeSync(silent, open, now + 5_000)).toBe('no data for 75 s');
    expect(describeSync(silent, open, now + 230_000)).toMatch(/^no data for 5m/);
    expect(describeSync({ phase: 'synced' }, open, now)).toBe('synced');
  });

  it("says a synced feed's rows are still loading into the page, with its counts, never synced over part of them", () => {
    const loading = { received: 60_000, total: 150_000 };
    expect(describeSync({ phase: 'synced' }, open, now, loading)).toBe('loading 40% (60,000 of 150,000)');
    // A listing, or a failure, says so as ever: only "synced" would be untrue.
    expect(describeSync({ phase: 'listing', listed: 1_000 }, open, now, loading)).toBe(
      'listing (1,000 so far)',
    );
    expect(describeSync({ phase: 'synced' }, open, now, undefined)).toBe('synced');
    // Opened, its first rows not begun: main's "synced" is not yet this page's.
    expect(describeSync({ phase: 'synced' }, open, now, { received: 0 })).toBe('loading…');
  });

  it('counts down to the next reconnect', () => {
    expect(describeSync({ phase: 'reconnecting', retryAt: now + 7_200 }, open, now)).toBe(
      'reconnecting in 8 s',
    );
  });

  it('says since when data is stale and why', () => {
    const text = describeSync(
      { phase: 'stale', since: now, error: { message: 'connection refused' } },
      open,
      now,
    );
    expect(text).toMatch(/^stale since \d\d:\d\d: connection refused$/);
  });

  it("names the failure's reason, its summary, before the request and the list it failed", () => {
    const error = {
      message:
        'failed to list /v1, Resource=pods: GET /api/v1/pods (listing pods): cannot reach https://10.0.0.1:6443',
      summary: 'cannot reach https://10.0.0.1:6443',
    };
    expect(describeSync({ phase: 'reconnecting', retryAt: now + 3_000, error }, open, now)).toBe(
      'reconnecting in 3 s: cannot reach https://10.0.0.1:6443',
    );
    expect(describeSync({ phase: 'error', error }, open, now)).toBe(
      'error: cannot reach https://10.0.0.1:6443',
    );
  });

  it('reports a lost link to main before any subscription state', () => {
    expect(describeSync({ phase: 'synced' }, { phase: 'connecting', retryAt: now + 3_000 }, now)).toBe(
      'reconnecting in 3 s',
    );
  });

  it('mentions a reconnect after sleep for a minute, then reads plain synced', () => {
    const reconnected = { at: now, staleForMs: 5 * 60_000, reason: 'resumed from sleep' };
    expect(describeSync({ phase: 'synced', reconnected }, open, now + 1_000)).toBe(
      'synced · resumed from sleep, reconnected after 5m stale',
    );
    expect(describeSync({ phase: 'synced', reconnected }, open, now + 61_000)).toBe('synced');
  });
});

describe('loadingShownOf', () => {
  it('keeps the snapshot shown as loading until the table answers a revision where it is whole', () => {
    const arriving = { received: 28_000, total: 30_000 };
    expect(loadingShownOf(arriving, arriving, undefined, 7)).toBe(arriving);
    // Whole at revision 9 here, the table's answer still of revision 8: all rows arrived, not shown.
    expect(loadingShownOf(undefined, arriving, 9, 8)).toEqual({ received: 30_000, total: 30_000 });
    expect(describeSync({ phase: 'synced' }, open, now, loadingShownOf(undefined, arriving, 9, 8))).toBe(
      'loading 100% (30,000 of 30,000)',
    );
    // The table answered the whole snapshot: synced.
    expect(loadingShownOf(undefined, arriving, 9, 9)).toBeUndefined();
    expect(loadingShownOf(undefined, arriving, 9, 12)).toBeUndefined();
    // No snapshot of a known size was seen arriving (a page open while it listed): nothing to hold.
    expect(loadingShownOf(undefined, undefined, 9, 8)).toBeUndefined();
  });
});
