// A captured object's JSON is written straight into the batch instead of by JSON.stringify: what is
// recorded must stay byte for byte what JSON.stringify makes, for Kubernetes objects and for any
// value JSON.stringify accepts (escapes, non-ASCII, lone surrogates, odd numbers, members it leaves
// out, toJSON, boxed primitives, integer-like keys), in a buffer that grows as it is written.
import { describe, expect, it } from 'vitest';
import type { ByteSink } from '../../../main/history/json-bytes';
import { writeJson } from '../../../main/history/json-bytes';
import { realisticPod, seededRandom } from './fixtures';

/** A sink that starts with `size` bytes and doubles, as a batch does. */
function sinkOf(size: number): ByteSink {
  return {
    bytes: Buffer.alloc(size),
    used: 0,
    ensure(free: number) {
      if (this.used + free <= this.bytes.length) return;
      const grown = Buffer.alloc(Math.max(this.bytes.length * 2, this.used + free));
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    },
  };
}

/** What writeJson writes for `value`, as text (undefined when it writes nothing). */
function written(value: unknown, size = 1): string | undefined {
  const sink = sinkOf(size);
  if (!writeJson(sink, value)) {
    expect(sink.used).toBe(0);
    return undefined;
  }
  return sink.bytes.toString('utf8', 0, sink.used);
}

const strings = [
  '',
  'plain',
  'quote " and backslash \\',
  'controls \u0000\u0001\b\f\n\r\t\u001f and \u007f',
  'é ✓ 😀 中文',
  'lone surrogates \ud800 x \udfff',
  '</script> & <',
];

function randomString(random: () => number): string {
  const pick = Math.floor(random() * (strings.length + 2));
  if (pick < strings.length) return strings[pick];
  let text = '';
  const length = Math.floor(random() * 12);
  for (let index = 0; index < length; index++) {
    const range = random();
    text += String.fromCharCode(
      range < 0.7
        ? 0x20 + Math.floor(random() * 0x5f)
        : range < 0.8
          ? Math.floor(random() * 0x20)
          : range < 0.9
            ? 0xd800 + Math.floor(random() * 0x800)
            : Math.floor(random() * 0x10000),
    );
  }
  return text;
}

const numbers = [
  0,
  -0,
  1,
  -1,
  42,
  1.5,
  -2.25,
  1e21,
  1e-7,
  2 ** 53,
  -(2 ** 53) + 1,
  123456789012,
  NaN,
  Infinity,
];

/** A random value of what JSON.stringify takes, nested up to `depth`. */
function randomValue(random: () => number, depth: number): unknown {
  const kind = Math.floor(random() * (depth > 0 ? 10 : 6));
  switch (kind) {
    case 0:
      return randomString(random);
    case 1:
      return numbers[Math.floor(random() * numbers.length)];
    case 2:
      return random() < 0.5;
    case 3:
      return null;
    case 4:
      return random() < 0.5 ? undefined : () => 1;
    case 5:
      return Math.floor(random() * 1e6) - 5e5;
    case 6:
    case 7: {
      const object: Record<string, unknown> = {};
      const members = Math.floor(random() * 6);
      for (let index = 0; index < members; index++) {
        const key = random() < 0.2 ? String(Math.floor(random() * 20)) : randomString(random);
        object[key] = randomValue(random, depth - 1);
      }
      return object;
    }
    default: {
      const array: unknown[] = [];
      const items = Math.floor(random() * 5);
      for (let index = 0; index < items; index++) array.push(randomValue(random, depth - 1));
      if (random() < 0.1) array.length += 2;
      return array;
    }
  }
}

describe('writeJson', () => {
  it("writes a Kubernetes object byte for byte as JSON.stringify's UTF-8", () => {
    const pod = realisticPod('web-0-x', 'payments');
    pod.metadata.annotations = { note: 'déployé ✓ "quoted"\n', empty: '' };
    expect(written(pod)).toBe(JSON.stringify(pod));
    expect(written(pod, 64 * 1024)).toBe(JSON.stringify(pod));
  });

  it('agrees with JSON.stringify on random values, growing from a one-byte buffer', () => {
    const random = seededRandom(21);
    for (let trial = 0; trial < 3_000; trial++) {
      const value = randomValue(random, 4);
      expect(written(value)).toBe(JSON.stringify(value));
    }
  });

  it('leaves to JSON.stringify what it treats specially, with the key a toJSON is called with', () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
    }
    const keys: string[] = [];
    const value = {
      date: new Date(Date.UTC(2026, 11, 2)),
      boxed: [Object('text') as unknown, Object(3) as unknown, Object(false) as unknown],
      point: new Point(1, 2),
      noted: { toJSON: (key: string) => (keys.push(key), `noted as ${key}`) },
      gone: { toJSON: () => undefined },
      items: [{ toJSON: (key: string) => (keys.push(key), key) }, { toJSON: () => undefined }],
      bare: Object.assign(Object.create(null) as object, { b: 1, a: 2 }),
      ordered: { b: 1, 10: 'ten', 2: 'two', a: undefined, f: () => 1, [Symbol('s')]: 1, c: 3 },
      typed: new Uint8Array([1, 2]),
      map: new Map([[1, 2]]),
    };
    const expected = JSON.stringify(value);
    const expectedKeys = keys.splice(0);
    expect(written(value)).toBe(expected);
    expect(keys).toEqual(expectedKeys);
    expect(written({ toJSON: () => undefined })).toBeUndefined();
    expect(written(undefined)).toBeUndefined();
    expect(written(() => 1)).toBeUndefined();
    expect(written(Symbol('s'))).toBeUndefined();
    expect(() => written(1n)).toThrow();
  });
});
