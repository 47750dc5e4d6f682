import { describe, expect, it } from 'vitest';
import { ManualFrameScheduler } from '../../../renderer/store/frame-scheduler';
import { MirrorStore } from '../../../renderer/store/mirror-store';
import { row } from '../bridge/fixtures';

function store() {
  const scheduler = new ManualFrameScheduler();
  const gaps: string[] = [];
  const acks: [string, number][] = [];
  const mirror = new MirrorStore({
    scheduler,
    onGap: (id) => gaps.push(id),
    onApplied: (id, seq) => acks.push([id, seq]),
  });
  let notifications = 0;
  mirror.state.subscribe(() => notifications++);
  return { scheduler, gaps, acks, mirror, notifications: () => notifications };
}

describe('MirrorStore', () => {
  it('applies a burst of batches in one frame with one notification', () => {
    const { scheduler, mirror, notifications, acks } = store();
    mirror.open('s');
    const opened = notifications();
    for (let seq = 1; seq <= 5; seq++) {
      mirror.receive({ type: 'batch', subscriptionId: 's', seq, upserts: [row(`k${seq}`)], deletes: [] });
    }
    mirror.receive({ type: 'syncState', subscriptionId: 's', phase: 'synced' });
    expect(mirror.mirror('s')!.rows.size).toBe(0);
    expect(scheduler.pendingFrames).toBe(1);
    scheduler.runFrame();
    expect(mirror.mirror('s')!.rows.size).toBe(5);
    expect(notifications() - opened).toBe(1);
    expect(mirror.state.getState().revisions).toEqual({ s: 5 });
    expect(mirror.state.getState().syncStates).toEqual({ s: { phase: 'synced' } });
    expect(acks).toEqual([['s', 5]]);
  });

  it("acknowledges a frame's batches before the views hear of them", () => {
    const { scheduler, mirror, acks } = store();
    mirror.open('s');
    const acksWhenNotified: number[] = [];
    // A view following the revision (its render, its query) runs after the acknowledgement is sent.
    mirror.state.subscribe(() => acksWhenNotified.push(acks.length));
    mirror.receive({ type: 'batch', subscriptionId: 's', seq: 1, upserts: [row('a')], deletes: [] });
    scheduler.runFrame();
    expect(acksWhenNotified).toEqual([1]);
  });

  it('applies a large backlog over several frames, in order, acknowledging only what each frame applied', () => {
    const scheduler = new ManualFrameScheduler();
    const acks: number[] = [];
    const mirror = new MirrorStore({
      scheduler,
      maxRowsPerFrame: 4,
      onApplied: (_id, seq) => acks.push(seq),
    });
    mirror.open('s');
    const rows = (seq: number) => [row(`k${seq}a`), row(`k${seq}b`)];
    for (let seq = 1; seq <= 5; seq++)
      mirror.receive({ type: 'batch', subscriptionId: 's', seq, upserts: rows(seq), deletes: [] });
    mirror.receive({ type: 'syncState', subscriptionId: 's', phase: 'synced' });

    scheduler.runFrame();
    expect(mirror.mirror('s')!.rows.size).toBe(4);
    expect(acks).toEqual([2]);
    // The sync state waits behind the batches that were sent before it.
    expect(mirror.state.getState().syncStates).toEqual({});
    expect(scheduler.pendingFrames).toBe(1);

    scheduler.runFrame();
    scheduler.runFrame();
    expect(mirror.mirror('s')!.rows.size).toBe(10);
    expect(acks).toEqual([2, 4, 5]);
    expect(mirror.state.getState().syncStates).toEqual({ s: { phase: 'synced' } });
    expect(scheduler.pendingFrames).toBe(0);
  });

  it('says how far a live snapshot has come until its end, the feed synced in main meanwhile', () => {
    const scheduler = new ManualFrameScheduler();
    const mirror = new MirrorStore({ scheduler, maxRowsPerFrame: 2 });
    mirror.open('s');
    const loading = () => mirror.state.getState().loading.s;
    // Opened: nothing of the feed is here yet, whatever main says of it.
    expect(loading()).toEqual({ received: 0 });
    mirror.receive({ type: 'syncState', subscriptionId: 's', phase: 'synced' });
    mirror.receive({
      type: 'batch',
      subscriptionId: 's',
      seq: 1,
      replace: true,
      snapshotRows: 5,
      upserts: [row('a'), row('b')],
      deletes: [],
    });
    mirror.receive({
      type: 'batch',
      subscriptionId: 's',
      seq: 2,
      upserts: [row('c'), row('d')],
      deletes: [],
    });
    mirror.receive({
      type: 'batch',
      subscriptionId: 's',
      seq: 3,
      snapshotEnd: true,
      upserts: [row('e')],
      deletes: [],
    });
    scheduler.runFrame();
    expect(loading()).toEqual({ received: 2, total: 5 });
    scheduler.runFrame();
    expect(loading()).toEqual({ received: 4, total: 5 });
    const loadedAt = () => mirror.state.getState().loadedRevisions.s;
    expect(loadedAt()).toBeUndefined();
    scheduler.runFrame();
    expect(loading()).toBeUndefined();
    expect(mirror.mirror('s')!.rows.size).toBe(5);
    // The revision a table's answer must reach before the badge says "synced" (loadingShownOf).
    expect(loadedAt()).toBe(mirror.mirror('s')!.revision);
    // Live batches after it never count as loading; a snapshot of unknown size neither.
    mirror.receive({ type: 'batch', subscriptionId: 's', seq: 4, upserts: [row('f')], deletes: [] });
    mirror.receive({
      type: 'batch',
      subscriptionId: 's',
      seq: 5,
      replace: true,
      upserts: [row('a')],
      deletes: [],
    });
    scheduler.runFrame();
    expect(loading()).toBeUndefined();
    // A mirror resumed at a seq (the link came back) holds its rows: not loading.
    mirror.open('resumed', 7);
    expect(mirror.state.getState().loading.resumed).toBeUndefined();
  });

  it('applies everything queued at once when asked to (a context switch)', () => {
    const scheduler = new ManualFrameScheduler();
    const mirror = new MirrorStore({ scheduler, maxRowsPerFrame: 1 });
    mirror.open('s');
    for (let seq = 1; seq <= 3; seq++)
      mirror.receive({ type: 'batch', subscriptionId: 's', seq, upserts: [row(`k${seq}`)], deletes: [] });
    mirror.applyQueued();
    expect(mirror.mirror('s')!.rows.size).toBe(3);
  });

  it('reports a sequence gap once, and does not acknowledge the skipped batch', () => {
    const { scheduler, mirror, gaps, acks } = store();
    mirror.open('s');
    mirror.receive({ type: 'batch', subscriptionId: 's', seq: 2, upserts: [row('a')], deletes: [] });
    mirror.receive({ type: 'batch', subscriptionId: 's', seq: 3, upserts: [row('b')], deletes: [] });
    scheduler.runFrame();
    expect(gaps).toEqual(['s']);
    expect(acks).toEqual([]);
    expect(mirror.mirror('s')!.rows.size).toBe(0);
  });

  it('ignores batches for a subscription it does not mirror', () => {
    const { scheduler, mirror, notifications } = store();
    mirror.receive({ type: 'batch', subscriptionId: 'gone', seq: 1, upserts: [row('a')], deletes: [] });
    scheduler.runFrame();
    expect(notifications()).toBe(0);
  });

  it('keeps kinds and contexts in the state store', () => {
    const { scheduler, mirror } = store();
    mirror.receive({
      type: 'kinds',
      kinds: [
        { gvr: { group: '', version: 'v1', resource: 'pods' }, kind: 'Pod', namespaced: true, columns: [] },
      ],
    });
    mirror.receive({
      type: 'contexts',
      current: 'kind',
      session: 1,
      contexts: [{ name: 'kind', cluster: 'kind' }],
    });
    scheduler.runFrame();
    expect(mirror.state.getState().kinds).toHaveLength(1);
    expect(mirror.state.getState().contexts?.current).toBe('kind');
  });
});
