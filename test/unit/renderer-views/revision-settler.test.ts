import { describe, expect, it } from 'vitest';
import { RevisionSettler } from '../../../renderer/views/revision-settler';
import { manualTimers } from '../../support/manual-timers';

/** A settler on a hand-driven clock and timers, over a mirror whose revision and snapshot the test sets. */
function setup(options: { gapMs: number; hasSnapshot?: boolean; holdMs?: number }) {
  const clock = manualTimers();
  const mirror = { revision: 0, hasSnapshot: options.hasSnapshot ?? false };
  const settled: number[] = [];
  const settler = new RevisionSettler({
    revision: () => mirror.revision,
    settle: (revision) => settled.push(revision),
    gapMs: () => options.gapMs,
    holdFor: () => options.holdMs ?? 0,
    hasSnapshot: () => mirror.hasSnapshot,
    now: clock.now,
    setTimer: clock.setTimer,
    clearTimer: clock.clearTimer,
  });
  /** The mirror applied a batch: its revision moves and the settler hears of it. */
  const apply = (snapshotEnds = false): void => {
    mirror.revision += 1;
    if (snapshotEnds) mirror.hasSnapshot = true;
    settler.changed();
  };
  return { settler, settled, advance: clock.advance, apply };
}

describe('RevisionSettler', () => {
  it('follows the first change at once, then no sooner than the gap after it', () => {
    const { settled, advance, apply } = setup({ gapMs: 1_000 });
    apply();
    expect(settled).toEqual([1]);
    advance(100);
    apply();
    advance(100);
    apply();
    expect(settled).toEqual([1]);
    advance(799);
    expect(settled).toEqual([1]);
    advance(1);
    // One settle for both changes, at the newest revision.
    expect(settled).toEqual([1, 3]);
  });

  it("follows the end of a first list at once, however much of a listing's gap is left", () => {
    const { settled, advance, apply } = setup({ gapMs: 1_000 });
    apply();
    advance(100);
    apply();
    advance(100);
    apply(true);
    expect(settled).toEqual([1, 3]);
    // The pending timer was dropped: no second settle of the same rows when the gap runs out.
    advance(2_000);
    expect(settled).toEqual([1, 3]);
  });

  it('keeps the gap for live rows, whose snapshot ended before', () => {
    const { settled, advance, apply } = setup({ gapMs: 300, hasSnapshot: true });
    apply();
    advance(50);
    apply(true);
    expect(settled).toEqual([1]);
    advance(250);
    expect(settled).toEqual([1, 2]);
  });

  it('waits for the input to pause once the gap is over', () => {
    const { settled, advance, apply } = setup({ gapMs: 100, hasSnapshot: true, holdMs: 250 });
    apply();
    expect(settled).toEqual([]);
    advance(249);
    expect(settled).toEqual([]);
  });

  it('settles nothing after dispose', () => {
    const { settler, settled, advance, apply } = setup({ gapMs: 1_000 });
    apply();
    advance(10);
    apply();
    settler.dispose();
    advance(5_000);
    expect(settled).toEqual([1]);
  });
});
