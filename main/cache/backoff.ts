// apimachinery's wait.Backoff and Backoff.DelayWithReset: how long a Reflector waits before it relists,
// and before it re-watches after a 429 or a refused connection. The defaults spread a fleet of clients
// that lost their API server to about 0.2 requests per second each, instead of a reconnect storm.
import type { Clock } from './clock';

/** A source of uniformly distributed numbers in [0, 1), like Math.random. */
export type RandomSource = () => number;

/**
 * Returns the next delay in milliseconds; each call advances the backoff by one step. reset(), where
 * offered, starts the backoff over from its first step (the Reflector calls it after a healthy watch).
 */
export interface DelayHandler {
  (): number;
  reset?(): void;
}

/**
 * wait.Backoff, in milliseconds. Each step returns `duration` jittered into
 * [duration, duration·(1+jitter)), then multiplies `duration` by `factor`. When the next duration
 * would exceed `cap`, it becomes `cap` and the steps run out; once they have run out, every call
 * returns the (jittered) last duration for ever.
 */
export interface Backoff {
  /** The first delay, in milliseconds. */
  duration: number;
  /** Multiplies the duration after each step; 0 keeps it constant. */
  factor: number;
  /** Adds up to `jitter · duration` of random extra delay; 0 means none. */
  jitter: number;
  /** How many steps grow the duration before it stays fixed. */
  steps: number;
  /** The largest un-jittered duration; 0 means no cap. */
  cap: number;
}

/**
 * The Reflector's backoff: 800 ms doubling to a 30 s cap, full jitter, so waits run
 * 0.8-1.6 s, 1.6-3.2 s, ... 25.6-51.2 s, then 30-60 s. Steps is ceil(30 s / 800 ms) = 38.
 */
export const defaultReflectorBackoff: Readonly<Backoff> = Object.freeze({
  duration: 800,
  factor: 2,
  jitter: 1.0,
  steps: 38,
  cap: 30_000,
});

/** The Reflector's reset interval: after two quiet minutes the API server is assumed healthy again. */
export const defaultBackoffResetMs = 2 * 60_000;

/** wait.Jitter: `duration` plus up to `maxFactor · duration`; a maxFactor ≤ 0 counts as 1. */
export function jitter(duration: number, maxFactor: number, random: RandomSource = Math.random): number {
  const factor = maxFactor <= 0 ? 1 : maxFactor;
  return duration + random() * factor * duration;
}

/** One step of `backoff`, which is advanced in place (wait.Backoff.Step). */
export function stepBackoff(backoff: Backoff, random: RandomSource = Math.random): number {
  if (backoff.steps < 1) {
    return backoff.jitter > 0 ? jitter(backoff.duration, backoff.jitter, random) : backoff.duration;
  }
  backoff.steps--;
  const current = backoff.duration;
  if (backoff.factor !== 0) {
    let next = current * backoff.factor;
    if (backoff.cap > 0 && next > backoff.cap) {
      next = backoff.cap;
      backoff.steps = 0;
    }
    backoff.duration = next;
  }
  return backoff.jitter > 0 ? jitter(current, backoff.jitter, random) : current;
}

/** wait.Backoff.DelayFunc: a DelayHandler over a private copy of `backoff` that resets only when told. */
export function delayFunc(backoff: Readonly<Backoff>, random: RandomSource = Math.random): DelayHandler {
  let state = { ...backoff };
  return Object.assign(() => stepBackoff(state, random), { reset: () => void (state = { ...backoff }) });
}

/**
 * wait.Backoff.DelayWithReset: like delayFunc, but the backoff starts over from `backoff` when more
 * than `resetIntervalMs` have passed on `clock` since it last started over (current client-go; up to
 * v0.24 the interval counted from the previous delay instead). A factor ≤ 0 gives a plain delayFunc;
 * a reset interval ≤ 0 gives a constant (jittered) delay. reset() starts over at once: Kubetide's
 * addition (client-go's backoffManager has none), used by the Reflector after a healthy watch.
 */
export function delayWithReset(
  backoff: Readonly<Backoff>,
  clock: Clock,
  resetIntervalMs: number,
  random: RandomSource = Math.random,
): DelayHandler {
  if (backoff.factor <= 0) return delayFunc(backoff, random);
  if (resetIntervalMs <= 0) return delayFunc({ ...backoff, steps: 0, factor: 0 }, random);
  let state = { ...backoff };
  let lastStart = clock.now();
  const reset = () => {
    state = { ...backoff };
    lastStart = clock.now();
  };
  return Object.assign(
    () => {
      if (clock.now() - lastStart > resetIntervalMs) reset();
      return stepBackoff(state, random);
    },
    { reset },
  );
}

/** The Reflector's default DelayHandler: defaultReflectorBackoff, reset after two minutes. */
export function newReflectorDelayHandler(
  clock: Clock,
  random: RandomSource = Math.random,
  backoff: Readonly<Backoff> = defaultReflectorBackoff,
): DelayHandler {
  return delayWithReset(backoff, clock, defaultBackoffResetMs, random);
}
