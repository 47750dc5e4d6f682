import { describe, expect, it } from 'vitest';
import { createMirrorState } from '../../../renderer/store/mirror-state';
import { followSettledRevision } from '../../../renderer/views/settled-revision';
import { manualTimers } from '../../support/manual-timers';

/** A store whose subscription `s` has a snapshot and is listing, followed on a hand-driven clock. */
function setup() {
  const store = createMirrorState();
  store.setState({ syncStates: { s: { phase: 'listing', listed: 0 } } });
  const clock = manualTimers();
  const settled: number[] = [];
  const stop = followSettledRevision(store, 's', {
    settle: (revision) => settled.push(revision),
    gapMs: () => 1_000,
    holdFor: () => 0,
    hasSnapshot: () => true,
    now: clock.now,
    setTimer: clock.setTimer,
    clearTimer: clock.clearTimer,
  });
  const apply = (): void => {
    const revisions = store.getState().revisions;
    store.setState({ revisions: { ...revisions, s: (revisions.s ?? 0) + 1 } });
  };
  return { store, settled, advance: clock.advance, apply, stop };
}

describe('followSettledRevision', () => {
  it("follows the end of a listing at once, though the mirror's snapshot ended before it", () => {
    const { store, settled, advance, apply } = setup();
    // The snapshot of the rows listed so far ended; the rest of the list comes as live batches.
    expect(settled).toEqual([0]);
    advance(100);
    apply();
    advance(100);
    apply();
    // Within the gap: the batches of the listing wait.
    expect(settled).toEqual([0]);
    // The feed's "synced", in a frame of its own after the last batch: no revision moves with it.
    store.setState({ syncStates: { s: { phase: 'synced' } } });
    expect(settled).toEqual([0, 2]);
  });

  it('paces live churn by the gap once the listing has ended', () => {
    const { store, settled, advance, apply } = setup();
    store.setState({ syncStates: { s: { phase: 'synced' } } });
    // The listing's end, followed at once (the same revision: React renders nothing for it).
    expect(settled).toEqual([0, 0]);
    apply();
    advance(999);
    expect(settled).toEqual([0, 0]);
    advance(1);
    expect(settled).toEqual([0, 0, 1]);
  });

  it('stops following when asked', () => {
    const { store, settled, stop } = setup();
    stop();
    store.setState({ syncStates: { s: { phase: 'synced' } } });
    expect(settled).toEqual([0]);
  });
});
