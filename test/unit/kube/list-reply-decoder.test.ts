import { describe, expect, it, vi } from 'vitest';
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

/**
 * `list` as the decoder gives it: each item with neither apiVersion nor kind given the list's, the
 * kind less "List", first (client-go's unstructured decoding), when the list names both before items.
 */
function typedItems(list: unknown): unknown {
  if (typeof list !== 'object' || list === null || Array.isArray(list)) return list;
  const record = list as Record<string, unknown>;
  const keys = Object.keys(record);
  const before = (key: string) => keys.includes(key) && keys.indexOf(key) < keys.indexOf('items');
  const { apiVersion, kind } = record;
  if (!Array.isArray(record.items) || !before('apiVersion') || !before('kind')) return list;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || apiVersion === '') return list;
  const itemKind = kind.endsWith('List') ? kind.slice(0, -4) : kind;
  if (itemKind === '') return list;
  const named = (value: unknown) => typeof value === 'string' && value !== '';
  const items = record.items.map((item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
    const object = item as Record<string, unknown>;
    if (named(object.apiVersion) || named(object.kind)) return item;
    return { ...object, apiVersion, kind: itemKind };
  });
  return { ...record, items };
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
    for (const sizes of [[1], [2], [3, 7], [64], [text.length]])
      expect(decode(text, sizes)).toEqual(typedItems(awkward));
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

  it("gives a built-in type's items the list's apiVersion and kind, first, as a GET or a watch event has them", () => {
    const pods = decode(
      '{"kind":"PodList","apiVersion":"v1","metadata":{},"items":[{"metadata":{"name":"a"}},' +
        '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"b"}},{"kind":"","metadata":{"name":"c"}}]}',
    ).items as Record<string, unknown>[];
    expect(pods.map((pod) => Object.keys(pod))).toEqual([
      ['apiVersion', 'kind', 'metadata'],
      ['apiVersion', 'kind', 'metadata'],
      ['apiVersion', 'kind', 'metadata'],
    ]);
    expect(pods.map((pod) => `${String(pod.apiVersion)} ${String(pod.kind)}`)).toEqual([
      'v1 Pod',
      'v1 Pod',
      'v1 Pod',
    ]);
    // client-go trims a "List" suffix only; an item that names either member keeps its own.
    const widgets = decode(
      '{"apiVersion":"example.dev/v1","kind":"WidgetSet","items":[{"metadata":{}},{"apiVersion":"example.dev/v2","metadata":{}}]}',
    );
    expect(widgets.items).toEqual([
      { apiVersion: 'example.dev/v1', kind: 'WidgetSet', metadata: {} },
      { apiVersion: 'example.dev/v2', metadata: {} },
    ]);
    // Said after the items, or a "List" of mixed kinds: the items stay as they came.
    expect(decode('{"items":[{"metadata":{}}],"kind":"PodList","apiVersion":"v1"}').items).toEqual([
      { metadata: {} },
    ]);
    expect(decode('{"kind":"List","apiVersion":"v1","items":[{"metadata":{}}]}').items).toEqual([
      { metadata: {} },
    ]);
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

/** Pushes `bytes` in chunks of random sizes up to `largest`, then finishes. */
function decodeInRandomChunks(
  bytes: Buffer,
  random: SeededRandom,
  largest: number,
  options: { omitManagedFields?: boolean; mapItem?: (item: unknown) => unknown } = {},
): Record<string, unknown> {
  const decoder = new ListReplyDecoder(options.mapItem, options.omitManagedFields);
  for (let start = 0; start < bytes.length;) {
    const size = random.between(1, largest);
    decoder.push(bytes.subarray(start, start + size));
    start += size;
  }
  return decoder.finish();
}

/**
 * A list as an API server writes one: items alike, typed (`{"metadata":{`) or unstructured (sorted
 * keys, `{"apiVersion":…`, the list's kind and metadata after its items), some holding the item's own opening inside them (a second owner
 * reference, a claim template) or its bytes inside a string, some with managedFields.
 */
function lookAlikeList(random: SeededRandom): Record<string, unknown> {
  const unstructured = random.chance(0.5);
  const opening = unstructured ? { apiVersion: 'v1', kind: 'Pod' } : {};
  const look = (name: string) => ({ ...opening, metadata: { name }, spec: { ready: random.chance(0.5) } });
  const items = Array.from({ length: random.between(0, 12) }, (_, index) => {
    const metadata: Record<string, unknown> = random.chance(0.5)
      ? { name: `pod-${index}`, uid: `u${index}` }
      : { uid: `u${index}`, name: `pod-${index}` };
    if (random.chance(0.3)) metadata.managedFields = [{ manager: 'kubelet', fieldsV1: { 'f:status': {} } }];
    if (random.chance(0.3))
      metadata.annotations = { copy: `},${JSON.stringify(look('in-a-string'))}`, brace: '}' };
    const item: Record<string, unknown> = { ...opening, metadata };
    // Look-alikes one after another inside the item: the boundary's bytes, not at an item's end.
    if (random.chance(0.3))
      item.spec = { templates: [look('a'), look('b'), look('c')].slice(0, random.between(1, 3)) };
    if (random.chance(0.2)) item.status = { phase: 'Running', nested: [[look('x')], look('y')] };
    return item;
  });
  // kube-apiserver writes an unstructured list's members sorted, as Go marshals a map: its items come
  // before its kind and metadata (the continue token, the resourceVersion).
  return unstructured
    ? { apiVersion: 'v1', items, kind: 'PodList', metadata: { continue: 'eyJ9', resourceVersion: '9' } }
    : { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '9' }, items };
}

function withoutManagedFields(list: Record<string, unknown>): Record<string, unknown> {
  const items = (list.items as { metadata?: Record<string, unknown> }[]).map((item) => {
    const { managedFields: _dropped, ...metadata } = item.metadata ?? {};
    return { ...item, metadata };
  });
  return { ...list, items };
}

describe('ListReplyDecoder past the first two items (an item boundary learned from them)', () => {
  it('parses an item once the next one opens, and the last when the reply ends', () => {
    const mapped: string[] = [];
    const decoder = new ListReplyDecoder((item) => {
      mapped.push((item as { metadata: { name: string } }).metadata.name);
      return item;
    });
    decoder.push(Buffer.from('{"items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"}},'));
    expect(mapped).toEqual(['a', 'b']);
    // The third item's last byte has arrived, but its end is told by the fourth's opening.
    decoder.push(Buffer.from('{"metadata":{"name":"c"}},{"meta'));
    expect(mapped).toEqual(['a', 'b']);
    decoder.push(Buffer.from('data":{"name":"d"}}'));
    expect(mapped).toEqual(['a', 'b', 'c']);
    decoder.push(Buffer.from(']}'));
    expect(decoder.finish().items).toHaveLength(4);
    expect(mapped).toEqual(['a', 'b', 'c', 'd']);
  });

  it('agrees with JSON.parse on 1,000 lists of look-alike items, split anywhere', () => {
    const random = seededRandom(20261206);
    for (let round = 0; round < 1_000; round++) {
      const list = lookAlikeList(random);
      const bytes = Buffer.from(JSON.stringify(list));
      const largest = random.pick([1, 7, 60, 400, bytes.length]);
      expect(decodeInRandomChunks(bytes, random, largest), String(round)).toEqual(typedItems(list));
      expect(decodeInRandomChunks(bytes, random, largest, { omitManagedFields: true })).toEqual(
        typedItems(withoutManagedFields(list)),
      );
    }
  });

  it('refuses what JSON.parse refuses in mutated lists of look-alike items', () => {
    const random = seededRandom(612);
    for (let round = 0; round < 1_000; round++) {
      let text = JSON.stringify(lookAlikeList(random));
      for (let edits = random.between(1, 3); edits > 0; edits--) text = mutate(text, random);
      const bytes = Buffer.from(text);
      let expected: unknown;
      try {
        expected = JSON.parse(bytes.toString('utf8'));
      } catch {
        expect(() => decodeInRandomChunks(bytes, random, 300), text).toThrow(SyntaxError);
        continue;
      }
      if (typeof expected !== 'object' || expected === null || Array.isArray(expected)) continue;
      expect(decodeInRandomChunks(bytes, random, 300), text).toEqual(typedItems(expected));
    }
  });

  it('scans a list byte by byte once its items keep holding the boundary', () => {
    // Every item holds two look-alikes in a row: each match inside one fails its parse once, until
    // the list's allowance is spent; the later items cost no failed parse.
    const inner = { metadata: { name: 'claim' } };
    const list = {
      items: Array.from({ length: 40 }, (_, index) => ({
        metadata: { name: `set-${index}` },
        spec: { claims: [inner, inner] },
      })),
    };
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(decode(JSON.stringify(list), [97])).toEqual(list);
      // The members' keys (1), the items (40) and at most the allowance of failed parses (8).
      expect(parse.mock.calls.length).toBeLessThanOrEqual(1 + 40 + 8);
    } finally {
      parse.mockRestore();
    }
  });
});
