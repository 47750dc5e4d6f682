import { describe, expect, it } from 'vitest';
import { PlaybackLag } from '../../../main/bridge/playback-lag';

/** Frames 100 ms apart at 10x: each lag observed in turn, and whether each called for a jump. */
function observe(lags: readonly number[]): boolean[] {
  const lag = new PlaybackLag(2_500);
  return lags.map((recorded, frame) => lag.observe(recorded, frame * 100));
}

describe('when a player jumps', () => {
  it('jumps over a lag that grew three frames running past the jump lag', () => {
    // A burst: the view clock gains 1,000 recorded ms a frame, the moment a little.
    expect(observe([800, 1_600, 2_400, 3_200])).toEqual([false, false, false, true]);
  });

  it('never jumps over a lag under the jump lag, however long it lasts', () => {
    expect(observe([500, 1_000, 1_500, 2_000, 2_400, 2_400, 2_400, 2_400]).some(Boolean)).toBe(false);
  });

  it('catches up a pause that left the moment far behind while the lag closes fast', () => {
    // 15 s of recording behind after a pause, then closing 1,000 recorded ms a frame (1.5 s to go).
    expect(observe([0, 0, 15_000, 14_000, 13_000, 12_000, 11_000]).some(Boolean)).toBe(false);
  });

  it('jumps over a lag closing too slowly to catch up within two seconds', () => {
    // The view clock at the recording's end: the lag shrinks only as fast as changes are applied.
    expect(observe([0, 0, 20_000, 19_900, 19_800])).toEqual([false, false, false, false, true]);
  });

  it('forgets the lags before a reset (the moment was rebuilt at the view clock)', () => {
    const lag = new PlaybackLag(2_500);
    for (const [frame, recorded] of [800, 1_600, 2_400].entries()) lag.observe(recorded, frame * 100);
    lag.reset();
    expect(lag.observe(3_200, 300)).toBe(false);
  });
});
