// apimachinery wait.Backoff / DelayWithReset as the Reflector uses them, on a FakeClock with a fixed
// random source so every delay is exact.
import { describe, expect, it } from 'vitest';
import {
  defaultBackoffResetMs,
  defaultReflectorBackoff,
  delayFunc,
  delayWithReset,
  jitter,
  newReflectorDelayHandler,
} from '../../../main/cache/backoff';
import { FakeClock } from '../../../main/cache/fake-clock';

const noJitter = () => 0;
const maxJitter = () => 0.999_999;

function take(handler: () => number, count: number): number[] {
  return Array.from({ length: count }, () => handler());
}

describe('Reflector backoff', () => {
  it('is 800 ms, doubling, full jitter, capped at 30 s, 38 steps, reset after 2 minutes', () => {
    expect(defaultReflectorBackoff).toEqual({ duration: 800, factor: 2, jitter: 1, steps: 38, cap: 30_000 });
    expect(defaultBackoffResetMs).toBe(120_000);
  });

  it('doubles from 800 ms and then stays at the 30 s cap', () => {
    const handler = newReflectorDelayHandler(new FakeClock(), noJitter);
    expect(take(handler, 9)).toEqual([800, 1600, 3200, 6400, 12_800, 25_600, 30_000, 30_000, 30_000]);
  });

  it('adds up to one more delay of jitter, so capped waits fall in [30 s, 60 s)', () => {
    const handler = newReflectorDelayHandler(new FakeClock(), maxJitter);
    const delays = take(handler, 50);
    expect(delays[0]).toBeCloseTo(1600, 0);
    expect(delays[5]).toBeCloseTo(51_200, 0);
    for (const delay of delays.slice(6)) {
      expect(delay).toBeGreaterThanOrEqual(30_000);
      expect(delay).toBeLessThan(60_000);
    }
  });

  it('starts over once more than 2 minutes have passed since it last started over', () => {
    const clock = new FakeClock();
    const handler = newReflectorDelayHandler(clock, noJitter);
    expect(handler()).toBe(800);
    clock.step(60_000);
    expect(handler()).toBe(1600);
    clock.step(60_000);
    expect(handler()).toBe(3200);
    clock.step(1);
    expect(handler()).toBe(800);
  });

  it('does not start over while delays keep coming less than 2 minutes apart', () => {
    const clock = new FakeClock();
    const handler = newReflectorDelayHandler(clock, noJitter);
    handler();
    clock.step(119_000);
    expect(handler()).toBe(1600);
    clock.step(2000);
    expect(handler()).toBe(800);
  });
});

describe('wait.Backoff', () => {
  it('holds the last duration once its steps run out', () => {
    const handler = delayFunc({ duration: 10, factor: 3, jitter: 0, steps: 3, cap: 0 });
    expect(take(handler, 5)).toEqual([10, 30, 90, 270, 270]);
  });

  it('keeps a constant delay with factor 0', () => {
    const handler = delayFunc({ duration: 10, factor: 0, jitter: 0, steps: 5, cap: 0 });
    expect(take(handler, 7)).toEqual([10, 10, 10, 10, 10, 10, 10]);
  });

  it('never resets when the factor is 0 or less', () => {
    const clock = new FakeClock();
    const handler = delayWithReset({ duration: 10, factor: 0, jitter: 0, steps: 5, cap: 0 }, clock, 1000);
    expect(take(handler, 3)).toEqual([10, 10, 10]);
  });

  it('gives a constant jittered delay when the reset interval is 0', () => {
    const clock = new FakeClock();
    const half = () => 0.5;
    const handler = delayWithReset({ duration: 10, factor: 2, jitter: 1, steps: 5, cap: 0 }, clock, 0, half);
    expect(take(handler, 3)).toEqual([15, 15, 15]);
  });

  it('jitters by up to maxFactor, treating a factor of 0 or less as 1', () => {
    expect(jitter(100, 0.5, () => 0.5)).toBe(125);
    expect(jitter(100, 0, () => 0.5)).toBe(150);
    expect(jitter(100, -1, () => 0)).toBe(100);
  });

  it('does not share state between handlers built from one backoff', () => {
    const backoff = { duration: 1, factor: 2, jitter: 0, steps: 10, cap: 0 };
    const first = delayFunc(backoff);
    first();
    first();
    expect(delayFunc(backoff)()).toBe(1);
    expect(backoff.duration).toBe(1);
  });
});
