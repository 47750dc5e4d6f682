import { describe, expect, it } from 'vitest';
import { ManualFrameScheduler } from '../../../renderer/store/frame-scheduler';
import { MirrorStore } from '../../../renderer/store/mirror-store';
import type { ReplayStatus } from '../../../renderer/store/mirror-state';
import { describeGapRows, describeReplay } from '../../../renderer/views/replay-badge';
import { replayHolds } from '../../../renderer/views/timeline-replay';
import {
  describeCoverage,
  formatBehind,
  formatKeepAge,
  formatKeepSize,
} from '../../../renderer/views/timeline-format';
import type { HistoryTimeline } from '../../../shared/protocol';
import { row } from '../bridge/fixtures';

const moment = Date.UTC(2026, 10, 30, 15);
const status = (fields: Partial<ReplayStatus>): ReplayStatus => ({
  time: moment,
  playing: false,
  rebuilt: 50_076,
  total: 50_076,
  ...fields,
});
const paused = { time: moment, playing: false };

describe('the view while it shows the past', () => {
  it('applies cursors in order with the batches they follow, so the rows never run behind the status', () => {
    const scheduler = new ManualFrameScheduler();
    const store = new MirrorStore({ scheduler });
    store.open('replay1');
    store.receive({
      type: 'historyCursor',
      subscriptionId: 'replay1',
      time: moment,
      playing: false,
      rebuilt: 0,
      total: 3,
    });
    store.receive({
      type: 'batch',
      subscriptionId: 'replay1',
      seq: 1,
      replace: true,
      upserts: [row('a'), row('b')],
      deletes: [],
    });
    store.receive({
      type: 'historyCursor',
      subscriptionId: 'replay1',
      time: moment,
      playing: false,
      rebuilt: 2,
      total: 3,
    });
    scheduler.runFrame();
    expect(store.state.getState().replays.replay1).toMatchObject({ rebuilt: 2, total: 3 });
    expect(replayHolds(store.state.getState().replays.replay1, paused)).toBe(false);
    store.receive({
      type: 'batch',
      subscriptionId: 'replay1',
      seq: 2,
      snapshotEnd: true,
      upserts: [row('c')],
      deletes: [],
    });
    store.receive({
      type: 'historyCursor',
      subscriptionId: 'replay1',
      time: moment,
      playing: false,
      rebuilt: 3,
      total: 3,
    });
    scheduler.runFrame();
    expect(store.mirror('replay1')!.rows.size).toBe(3);
    expect(replayHolds(store.state.getState().replays.replay1, paused)).toBe(true);
    store.close('replay1');
    expect(store.state.getState().replays).toEqual({});
  });

  it('holds a moment only once every row of it arrived, and not while it shows another moment', () => {
    expect(replayHolds(status({ rebuilt: 16_000 }), paused)).toBe(false);
    expect(replayHolds(status({ time: moment - 60_000 }), paused)).toBe(false);
    expect(replayHolds(status({}), paused)).toBe(true);
    // Playing, the travel moment follows the cursor itself.
    expect(replayHolds(status({ time: moment + 100, playing: true }), { time: moment, playing: true })).toBe(
      true,
    );
    // Paused on another moment while the last playing cursor is still on its way: not that moment.
    expect(replayHolds(status({ time: moment - 5_000, playing: true }), paused)).toBe(false);
    expect(replayHolds(status({}), undefined)).toBe(false);
  });

  it('badges a rebuild with its progress, a recorded moment as recorded, and a gap with its cause, never "synced"', () => {
    expect(describeReplay(status({ rebuilt: 16_000 }), false)).toMatchObject({
      text: 'rebuilding 16,000 of 50,076',
      phase: 'rebuilding',
    });
    expect(describeReplay(undefined, false).text).toBe('reading the recording…');
    // Main has the moment but not yet its rows' count: still reading, and never complete.
    const reading = status({ rebuilt: 0, total: undefined });
    expect(describeReplay(reading, replayHolds(reading, paused)).text).toBe('reading the recording…');
    const streaming = status({ rebuilt: 16_000, total: undefined });
    expect(describeReplay(streaming, replayHolds(streaming, paused)).text).toBe(
      'reading the recording… 16,000 so far',
    );
    expect(describeReplay(status({ time: moment - 1 }), false).text).toBe('reading the recording…');
    expect(describeReplay(status({}), true)).toEqual({ text: 'recorded', phase: 'recorded' });
    const gap = { reason: 'watch-disconnected', detail: 'connection reset', start: moment - 5_000 };
    expect(describeReplay(status({ gap }), true)).toEqual({
      text: 'gap · watch down: connection reset',
      phase: 'gap',
    });
    expect(describeReplay(status({ gap: { ...gap, reason: 'relisting', detail: '' } }), true).text).toBe(
      'gap · relisting',
    );
  });

  it("says what a gap's rows are: part of a list recorded by then, or the last seen before it", () => {
    const gap = { reason: 'listing', detail: 'pods.v1: waiting for the first list', start: moment - 5_000 };
    // The first list is recorded a slice at a time: a moment inside it holds only the part written.
    expect(describeGapRows(gap, 'pods')).toBe(
      'pods were still being listed: only those recorded by then are shown',
    );
    for (const reason of ['relisting', 'queue-overflow']) {
      expect(describeGapRows({ ...gap, reason }, 'pods')).toBe(
        'pods were being recorded again: rows may be out of date',
      );
    }
    for (const reason of ['watch-disconnected', 'not-recording']) {
      expect(describeGapRows({ ...gap, reason }, 'pods')).toBe('pods as last seen before the gap');
    }
  });

  it('says how far back history reaches and the retention that bounds it', () => {
    const start = new Date(2026, 10, 30, 14, 2, 0).getTime();
    const timeline: HistoryTimeline = {
      source: { kind: 'live', context: 'prod', problems: [] },
      range: { start, end: start + 3_600_000 },
      retention: { maxAgeMs: 7 * 24 * 3_600_000, maxBytes: 2 * 1024 ** 3 },
      from: start,
      to: start + 3_600_000,
      density: {},
      marks: [],
    };
    expect(describeCoverage(timeline)).toBe('history from 14:02:00 · 7 days / 2 GiB kept');
    expect(describeCoverage({ ...timeline, source: { ...timeline.source, kind: 'imported' } })).toBe(
      'recording 14:02:00–15:02:00',
    );
    const { retention: _retention, ...unbounded } = timeline;
    expect(describeCoverage(unbounded)).toBe('history from 14:02:00 · kept without limit');
    // The recording process is still writing what was captured: the strip's end trails now, and says so.
    expect(describeCoverage({ ...timeline, writingBehindMs: 62_400 })).toBe(
      'history from 14:02:00 · 7 days / 2 GiB kept · writing 62 s behind',
    );
    expect(formatBehind(185_000)).toBe('writing 3 min behind');
    expect(formatKeepAge(36 * 3_600_000)).toBe('36 hours');
    expect(formatKeepAge(24 * 3_600_000)).toBe('1 day');
    expect(formatKeepSize(512 * 1024 ** 2)).toBe('512 MiB');
  });
});
