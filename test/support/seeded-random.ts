// Deterministic randomness for every seeded test (fuzz, model, chaos, soak): a failure replays from its seed.

/** A source of numbers in [0, 1) like Math.random, with helpers that keep call sites readable. */
export interface SeededRandom {
  (): number;
  /** An integer in [0, limit). */
  integer(limit: number): number;
  /** An integer in [minimum, maximum]. */
  between(minimum: number, maximum: number): number;
  pick<T>(choices: readonly T[]): T;
  /** True with the given probability. */
  chance(probability: number): boolean;
}

/** mulberry32: tiny, fast and well distributed enough for schedules and fuzz inputs. */
export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = (() => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  }) as SeededRandom;
  next.integer = (limit) => Math.floor(next() * limit);
  next.between = (minimum, maximum) => minimum + Math.floor(next() * (maximum - minimum + 1));
  next.pick = (choices) => choices[Math.floor(next() * choices.length)];
  next.chance = (probability) => next() < probability;
  return next;
}
