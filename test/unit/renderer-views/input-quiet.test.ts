import { describe, expect, it } from 'vitest';
import { InputQuiet, inputHoldMs, maxHoldMs, watchInput } from '../../../renderer/ui-state/input-quiet';

function clock(): { now: () => number; advance: (ms: number) => void } {
  let time = 10_000;
  return { now: () => time, advance: (ms) => (time += ms) };
}

describe('InputQuiet', () => {
  it('holds nothing before any input', () => {
    const time = clock();
    const quiet = new InputQuiet(time.now);
    expect(quiet.delayFor(time.now())).toBe(0);
  });

  it('holds work due while the user is at the page until the input pauses', () => {
    const time = clock();
    const quiet = new InputQuiet(time.now);
    quiet.noteInput();
    time.advance(100);
    expect(quiet.delayFor(time.now())).toBe(inputHoldMs - 100);
    time.advance(inputHoldMs - 100);
    expect(quiet.delayFor(time.now() - inputHoldMs)).toBe(0);
  });

  it('never holds work longer than maxHoldMs after it became due, however long the input goes on', () => {
    const time = clock();
    const quiet = new InputQuiet(time.now);
    const dueAt = time.now();
    // A wheel notch every 100 ms for two seconds: the work waits, then runs at its limit.
    const delays: number[] = [];
    for (let notch = 0; notch < 20; notch++) {
      quiet.noteInput();
      delays.push(quiet.delayFor(dueAt));
      time.advance(100);
    }
    expect(delays.slice(0, 8).every((delay) => delay > 0)).toBe(true);
    // Near the limit the wait is what is left of maxHoldMs, not a whole inputHoldMs.
    expect(delays[7]).toBe(inputHoldMs);
    expect(delays[8]).toBe(maxHoldMs - 800);
    expect(delays[9]).toBe(maxHoldMs - 900);
    expect(delays.slice(10)).toEqual(new Array(10).fill(0));
  });

  it('counts wheel and press events of the watched target, not keys, and none after stop', () => {
    const time = clock();
    const quiet = new InputQuiet(time.now);
    const target = new EventTarget();
    const stop = watchInput(target, quiet);
    for (const type of ['wheel', 'pointerdown', 'touchmove']) {
      time.advance(10 * inputHoldMs);
      expect(quiet.delayFor(time.now())).toBe(0);
      target.dispatchEvent(new Event(type));
      expect(quiet.delayFor(time.now())).toBe(inputHoldMs);
    }
    // A typed key's own query answers the rows as they are: typing holds nothing.
    time.advance(10 * inputHoldMs);
    target.dispatchEvent(new Event('keydown'));
    expect(quiet.delayFor(time.now())).toBe(0);
    stop();
    time.advance(10 * inputHoldMs);
    target.dispatchEvent(new Event('wheel'));
    expect(quiet.delayFor(time.now())).toBe(0);
  });
});
