import { describe, expect, it } from 'vitest';
import { ListReplyDecoder, skipItem } from '../../../main/kube/list-reply-decoder';
import { seededRandom } from '../../support/seeded-random';
import type { SeededRandom } from '../../support/seeded-random';

/** Pushes `text` in chunks of the given sizes (cycled), then finishes. */
function decode(text: string | Buffer, sizes: readonly number[] = [text.length]): Record<string, unknown> {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const decoder = new ListReplyDecoder();
  for (let start = 0, turn = 0; start < bytes.length; turn++) {
    const size = Math.max(1, sizes[turn % sizes.length]);
    decoder.push(bytes.subarray(start, start + size));
    start += size;
  }
  return decoder.finish();
}

const awkward = {
  kind: 'PodList',
  apiVersion: 'v1',
  metadata: { resourceVersion: '42', continue: '' },
  items: [
    { metadata: { name: 'a', annotations: { note: 'quote " backslash \\ brace } bracket ] comma ,' } } },
    { metadata: { name: 'ünïcödé-名前-🚀' }, spec: { nested: [[1, [2]], { deep: { deeper: [] } }] } },
    { metadata: { name: 'escapes' }, data: { text: '\\"}]\u0000\n\t' } },
  ],
};

describe('ListReplyDecoder', () => {
  it('decodes a list exactly as JSON.parse does, whatever the chunk boundaries', () => {
    const text = JSON.stringify(awkward, null, 1);
    for (const sizes of [[1], [2], [3, 7], [64], [text.length]]) expect(decode(text, sizes)).toEqual(awkward);
  });

  it('tells escaped quotes from closing ones after any run of backslashes, split anywhere', () => {
    // Strings are skipped to their next quote: the quote ends the string only after an even run.
    const values = Array.from({ length: 6 }, (_, run) => `a${'\\'.repeat(run)}"b\\`);
    const list = { items: values.map((value) => ({ value, [value]: [value] })) };
    const text = JSON.stringify(list);
    for (let split = 1; split < text.length; split++)
      expect(decode(text, [split, text.length])).toEqual(list);
  });

  it('decodes members in any order, an empty items array, and members other than items', () => {
    expect(decode('{ "items" : [ ] , "metadata":{"resourceVersion":"1"},"kind":"List" }')).toEqual({
      items: [],
      metadata: { resourceVersion: '1' },
      kind: 'List',
    });
    expect(decode('{"items":null,"count":-1.5e3,"ok":true}', [1])).toEqual({
      items: null,
      count: -1500,
      ok: true,
    });
  });

  it('refuses what JSON.parse refuses', () => {
    const refused = [
      '{"items":[{"a":1}{"b":2}]}',
      '{"items":[{"a":1},]}',
      '{"items":[,{"a":1}]}',
      '{"items":[{"a":1}]} trailing',
      '{"items":[{"a":1}]',
      '{"items":[{"a":1}],}',
      '{"kind" "List"}',
      '{"items":[{"a":}]}',
      '',
    ];
    for (const text of refused) {
      expect(() => JSON.parse(text) as unknown, text).toThrow();
      expect(() => decode(text, [1]), text).toThrow(SyntaxError);
      expect(() => decode(text), text).toThrow(SyntaxError);
    }
  });

  it('refuses a reply that is JSON but not an object', () => {
    expect(() => decode('[{"a":1}]')).toThrow(SyntaxError);
    expect(() => decode('"items"')).toThrow(SyntaxError);
  });

  it('hands each item to mapItem as soon as it is parsed, and keeps what mapItem returns', () => {
    const mapped: string[] = [];
    const decoder = new ListReplyDecoder((item) => {
      const name = (item as { metadata: { name: string } }).metadata.name;
      mapped.push(name);
      return { name };
    });
    decoder.push(Buffer.from('{"items":[{"metadata":{"name":"a"}},{"metadata":'));
    expect(mapped).toEqual(['a']);
    decoder.push(Buffer.from('{"name":"b"}}]}'));
    expect(decoder.finish()).toEqual({ items: [{ name: 'a' }, { name: 'b' }] });
  });

  it('keeps no item mapItem consumed (skipItem), and the rest of the reply as it is', () => {
    const seen: string[] = [];
    const decoder = new ListReplyDecoder((item) => {
      seen.push((item as { metadata: { name: string } }).metadata.name);
      return skipItem;
    });
    decoder.push(Buffer.from('{"kind":"PodMetricsList","items":[{"metadata":{"name":"a"}},'));
    decoder.push(Buffer.from('{"metadata":{"name":"b"}}],"metadata":{"resourceVersion":"7"}}'));
    expect(seen).toEqual(['a', 'b']);
    expect(decoder.finish()).toEqual({
      kind: 'PodMetricsList',
      items: [],
      metadata: { resourceVersion: '7' },
    });
  });

  it('parses each item as its last byte arrives, before the reply ends', () => {
    const decoder = new ListReplyDecoder();
    decoder.push(Buffer.from('{"items":[{"metadata":{"name":"a"}},'));
    expect(() => decoder.push(Buffer.from('{"metadata":{"name":}}'))).toThrow(SyntaxError);
  });

  it('agrees with JSON.parse on 2,000 random objects and their mutations, in random chunks', () => {
    const random = seededRandom(20261130);
    for (let round = 0; round < 2_000; round++) {
      let text = JSON.stringify({ metadata: { resourceVersion: String(round) }, items: randomItems(random) });
      // A mutation can split a surrogate pair: compare on what the bytes on the wire would say.
      if (random.chance(0.5)) text = Buffer.from(mutate(text, random)).toString('utf8');
      const sizes = [random.between(1, 40), random.between(1, 400)];
      let expected: unknown;
      try {
        expected = JSON.parse(text);
      } catch {
        expect(() => decode(text, sizes), text).toThrow();
        continue;
      }
      if (typeof expected !== 'object' || expected === null || Array.isArray(expected)) continue;
      expect(decode(text, sizes), text).toEqual(expected);
    }
  });
});

function randomItems(random: SeededRandom): unknown[] {
  return Array.from({ length: random.integer(5) }, () => randomValue(random, 3));
}

function randomValue(random: SeededRandom, depth: number): unknown {
  const choice = random.integer(depth > 0 ? 8 : 5);
  if (choice === 0) return random.integer(1000) - 500;
  if (choice === 1) return random.pick(['', 'plain', 'a"quote', 'back\\slash', '}]{[,:', 'ü名🚀', '\n\t']);
  if (choice === 2) return random.chance(0.5);
  if (choice === 3) return null;
  if (choice === 4) return random() * 10;
  if (choice === 5) return Array.from({ length: random.integer(4) }, () => randomValue(random, depth - 1));
  const record: Record<string, unknown> = {};
  for (let index = random.integer(4); index > 0; index--)
    record[random.pick(['a', 'items', 'key"q', 'ü'])] = randomValue(random, depth - 1);
  return record;
}

function mutate(text: string, random: SeededRandom): string {
  const at = random.integer(text.length);
  const edit = random.integer(3);
  if (edit === 0) return text.slice(0, at) + text.slice(at + 1);
  const inserted = random.pick(['{', '}', '[', ']', ',', ':', '"', '\\', ' ', 'x', '1']);
  return edit === 1
    ? text.slice(0, at) + inserted + text.slice(at)
    : text.slice(0, at) + inserted + text.slice(at + 1);
}
