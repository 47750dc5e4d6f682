// A big metrics message travels in parts and is joined back into exactly the message it was cut from;
// a part that does not continue the message being joined is dropped rather than mixed into it.
import { describe, expect, it } from 'vitest';
import type { MetricsMessage } from '../../../shared/protocol/metrics-messages';
import { validateMetricsMessage } from '../../../shared/protocol/metrics-messages';
import { MetricsPartJoiner, splitMetricsMessage } from '../../../shared/protocol/metrics-parts';

function served(keys: number, first = 0): MetricsMessage {
  const range = Array.from({ length: keys }, (_, index) => first + index);
  return {
    type: 'metrics',
    resource: 'pods',
    availability: 'served',
    timestamp: 1_000,
    windowMs: 15_000,
    keys: range.map((index) => `shop/web-${index}`),
    cpu: range.map((index) => index / 1000),
    memory: range.map((index) => index * 1024),
  };
}

describe('splitMetricsMessage', () => {
  it('leaves a message of at most a part as it is', () => {
    const message = served(10);
    expect(splitMetricsMessage(message, 1, 10)).toEqual([message]);
  });

  it('cuts a bigger one into consecutive, numbered parts that each pass validation', () => {
    const parts = splitMetricsMessage(served(25), 7, 10);
    expect(parts.map((part) => part.keys.length)).toEqual([10, 10, 5]);
    expect(parts.map((part) => part.part)).toEqual([
      { id: 7, index: 0, count: 3 },
      { id: 7, index: 1, count: 3 },
      { id: 7, index: 2, count: 3 },
    ]);
    expect(parts[2]!.keys[0]).toBe('shop/web-20');
    expect(parts[2]!.memory[0]).toBe(20 * 1024);
    for (const part of parts) expect(validateMetricsMessage(part)).toBe(part);
  });
});

describe('MetricsPartJoiner', () => {
  it('gives out the whole message once its last part came, and nothing before', () => {
    const message = served(25);
    const joiner = new MetricsPartJoiner();
    const outcomes = splitMetricsMessage(message, 1, 10).map((part) => joiner.add(part));
    expect(outcomes.slice(0, 2)).toEqual([undefined, undefined]);
    expect(outcomes[2]).toEqual(message);
  });

  it("reads no part's samples before the last part came, then copies each once", () => {
    // Copied part by part into growing arrays, a 150,000-pod poll's parts took 11-18 ms each of the
    // page's thread (session 21): the copy is made once, when the message is whole.
    let reads = 0;
    const counted = <T>(values: T[]): T[] =>
      new Proxy(values, {
        get(target, property, receiver) {
          if (typeof property === 'string' && /^\d+$/.test(property)) reads++;
          return Reflect.get(target, property, receiver) as unknown;
        },
      });
    const parts = splitMetricsMessage(served(30), 4, 10).map((part) => ({
      ...part,
      keys: counted([...part.keys]),
      cpu: counted([...part.cpu]),
      memory: counted([...part.memory]),
    }));
    const joiner = new MetricsPartJoiner();
    expect(joiner.add(parts[0]!)).toBeUndefined();
    expect(joiner.add(parts[1]!)).toBeUndefined();
    expect(reads).toBe(0);
    expect(joiner.add(parts[2]!)).toEqual(served(30));
    // Each sample read once, by the copy (the whole message's arrays are new: toEqual reads no part's).
    expect(reads).toBe(90);
  });

  it('passes an undivided message through at once', () => {
    const message = served(3);
    expect(new MetricsPartJoiner().add(message)).toBe(message);
  });

  it('drops a part of another message, and the rest of a message whose start it never saw', () => {
    const joiner = new MetricsPartJoiner();
    const first = splitMetricsMessage(served(25), 1, 10);
    const second = splitMetricsMessage(served(25, 100), 2, 10);
    expect(joiner.add(first[0]!)).toBeUndefined();
    expect(joiner.add(second[1]!)).toBeUndefined();
    expect(joiner.add(first[1]!)).toBeUndefined();
    expect(joiner.add(first[2]!)).toEqual(served(25));
    // Its first part is gone: the rest of the second message cannot make a whole one.
    expect(joiner.add(second[2]!)).toBeUndefined();
  });

  it('starts over at a first part or a whole message, forgetting an unfinished one', () => {
    const joiner = new MetricsPartJoiner();
    const older = splitMetricsMessage(served(25), 1, 10);
    const newer = splitMetricsMessage(served(25, 100), 2, 10);
    joiner.add(older[0]!);
    joiner.add(older[1]!);
    for (const part of newer.slice(0, 2)) expect(joiner.add(part)).toBeUndefined();
    expect(joiner.add(older[2]!)).toBeUndefined();
    expect(joiner.add(newer[2]!)).toEqual(served(25, 100));
    joiner.add(older[0]!);
    const whole = served(2);
    expect(joiner.add(whole)).toBe(whole);
    expect(joiner.add(older[1]!)).toBeUndefined();
  });

  it('joins pods and nodes separately', () => {
    const joiner = new MetricsPartJoiner();
    const pods = splitMetricsMessage(served(15), 1, 10);
    const nodes = splitMetricsMessage({ ...served(15), resource: 'nodes' }, 2, 10);
    joiner.add(pods[0]!);
    joiner.add(nodes[0]!);
    expect(joiner.add(pods[1]!)?.resource).toBe('pods');
    expect(joiner.add(nodes[1]!)?.resource).toBe('nodes');
  });
});
