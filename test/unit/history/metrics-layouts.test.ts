// A recorded moment's metrics answered against the layout the asker holds: only the keys it lacks are
// sent, every value at its key's position, a fresh layout once too many positions are dead, and the
// answer held whole said unchanged.
import { describe, expect, it } from 'vitest';
import { MetricsLayouts } from '../../../main/history/metrics-layouts';
import type { RecordedMetrics } from '../../../shared/protocol/history-messages';
import { metricsDigestFormat } from '../../../shared/protocol/validation-rules';

const moment = (keys: string[], cpu: number, timestamp = 5_000): RecordedMetrics => ({
  timestamp,
  windowMs: 15_000,
  keys,
  cpu: keys.map((_, at) => cpu + at),
  memory: keys.map((_, at) => 10 * (cpu + at)),
});
const pods = (from: number, to: number) => Array.from({ length: to - from }, (_, at) => `a/web-${from + at}`);

/** The values by key, however the answer was laid out, against the keys of the layout before. */
function valuesOf(answer: RecordedMetrics, layoutBefore: readonly string[]): Map<string, [number, number]> {
  const keys = answer.keysFrom === undefined ? answer.keys : [...layoutBefore, ...answer.addedKeys!];
  const values = new Map<string, [number, number]>();
  keys.forEach((key, at) => {
    if (answer.cpu[at] !== null) values.set(key, [answer.cpu[at]!, answer.memory[at]!]);
  });
  return values;
}

describe('MetricsLayouts', () => {
  it('answers a first question whole, with digests of its layout and of itself', () => {
    const answer = new MetricsLayouts().answer(moment(pods(0, 4), 1), {});
    expect(answer).toMatchObject(moment(pods(0, 4), 1));
    expect(answer.keysDigest).toMatch(metricsDigestFormat);
    expect(answer.answerDigest).toMatch(metricsDigestFormat);
    expect(answer.keysFrom).toBeUndefined();
  });

  it('lays the next answer out by the keys held: the keys gone null, the new ones added, no key sent twice', () => {
    const layouts = new MetricsLayouts();
    const first = layouts.answer(moment(pods(0, 8), 1), {});
    // web-0 gone, web-8 and web-9 new, the rest in another order.
    const nextKeys = [...pods(1, 8).reverse(), ...pods(8, 10)];
    const next = layouts.answer(moment(nextKeys, 100, 20_000), {
      keys: first.keysDigest,
      answer: first.answerDigest,
    });
    expect(next.keys).toEqual([]);
    expect(next.keysFrom).toBe(first.keysDigest);
    expect(next.addedKeys).toEqual(['a/web-8', 'a/web-9']);
    expect(next.cpu).toHaveLength(10);
    expect(next.cpu[0]).toBeNull();
    const expected = new Map(
      nextKeys.map((key, at) => [key, [100 + at, 10 * (100 + at)] as [number, number]]),
    );
    expect(valuesOf(next, pods(0, 8))).toEqual(expected);
    expect(next.keysDigest).not.toBe(first.keysDigest);
    // Laid out against that one in turn: web-8 keeps its place, web-0 back in its old one.
    const third = layouts.answer(moment(pods(0, 9), 7, 35_000), { keys: next.keysDigest });
    expect(third.keysFrom).toBe(next.keysDigest);
    expect(third.addedKeys).toEqual([]);
    expect(third.cpu[0]).toBe(7);
    expect(third.cpu[8]).toBe(15);
    expect(third.cpu[9]).toBeNull();
    // Nothing added: the same layout, the same digest.
    expect(third.keysDigest).toBe(next.keysDigest);
  });

  it('starts a fresh layout once a quarter of the positions would be dead, or when the one held is not kept', () => {
    const layouts = new MetricsLayouts();
    const first = layouts.answer(moment(pods(0, 8), 1), {});
    const fewer = layouts.answer(moment(pods(0, 5), 1), { keys: first.keysDigest });
    expect(fewer.keysFrom).toBeUndefined();
    expect(fewer.keys).toEqual(pods(0, 5));
    const unknown = new MetricsLayouts().answer(moment(pods(0, 8), 1), { keys: first.keysDigest });
    expect(unknown.keys).toEqual(pods(0, 8));
    // Only the last layouts are kept.
    for (let round = 0; round < 4; round++) layouts.answer(moment(pods(round * 10, round * 10 + 4), 1), {});
    expect(layouts.answer(moment(pods(0, 8), 1), { keys: first.keysDigest }).keysFrom).toBeUndefined();
  });

  it('says unchanged when the answer is the one held, its digests and moment only', () => {
    const layouts = new MetricsLayouts();
    const first = layouts.answer(moment(pods(0, 4), 1), {});
    const held = { keys: first.keysDigest, answer: first.answerDigest };
    expect(layouts.answer(moment(pods(0, 4), 1), held)).toEqual({
      timestamp: 5_000,
      windowMs: 15_000,
      keys: [],
      cpu: [],
      memory: [],
      keysDigest: first.keysDigest,
      answerDigest: first.answerDigest,
      unchanged: true,
    });
    // Any value, or the timestamp alone, is another answer.
    const moved = { ...moment(pods(0, 4), 1), memory: [10, 20, 30, 41] };
    expect(layouts.answer(moved, held).unchanged).toBeUndefined();
    expect(layouts.answer(moment(pods(0, 4), 1, 5_001), held).unchanged).toBeUndefined();
  });

  it('says nothing of a moment without samples', () => {
    const none = { keys: [], cpu: [], memory: [] };
    expect(new MetricsLayouts().answer(none, {})).toBe(none);
  });
});
