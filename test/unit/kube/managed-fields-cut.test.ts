import { describe, expect, it } from 'vitest';
import { ListReplyDecoder } from '../../../main/kube/list-reply-decoder';
import { managedFieldsCut, textWithoutManagedFields } from '../../../main/kube/managed-fields-cut';
import { stripManagedFields } from '../../../main/kube/managed-fields';

const managedFields = [
  {
    manager: 'kubelet',
    operation: 'Update',
    fieldsV1: { 'f:status': { 'k:{"type":"Ready"}': { '.': {}, 'f:status': {} } } },
  },
];

function pod(metadata: Record<string, unknown>): Record<string, unknown> {
  return { kind: 'Pod', apiVersion: 'v1', metadata, spec: { nodeName: 'node-1' } };
}

/**
 * What JSON.parse then the transform make of `value`'s text, and the same of the cut text: the cut may
 * leave the transform less to do, never a different result.
 */
function bothWays(value: unknown, path: string[]): { stripped: unknown; cut: unknown; wasCut: boolean } {
  const bytes = Buffer.from(JSON.stringify(value));
  const transformed = (text: string) => {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    stripManagedFields(path.length === 2 ? parsed.object : parsed);
    return parsed;
  };
  return {
    stripped: transformed(bytes.toString()),
    cut: transformed(textWithoutManagedFields(bytes, 0, bytes.length, path)),
    wasCut: managedFieldsCut(bytes, 0, bytes.length, path) !== undefined,
  };
}

describe('managedFieldsCut', () => {
  it('agrees with the transform on random objects and events', () => {
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const texts = ['a', 'managedFields', '"managedFields":[', '\\', 'é☕', '{[', ']}', ','];
    const anyValue = (depth: number): unknown => {
      const pick = random();
      if (depth > 3 || pick < 0.3) return texts[Math.floor(random() * texts.length)];
      if (pick < 0.45) return Math.floor(random() * 100);
      if (pick < 0.6) return [anyValue(depth + 1), anyValue(depth + 1)];
      const record: Record<string, unknown> = {};
      for (let index = 0; index < 3; index++)
        record[texts[Math.floor(random() * texts.length)]] = anyValue(depth + 1);
      return record;
    };
    for (let round = 0; round < 500; round++) {
      const metadata = anyValue(1) as Record<string, unknown>;
      const withMetadata = typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata);
      const object = withMetadata
        ? { kind: 'Pod', metadata, spec: anyValue(1) }
        : { kind: 'Pod', metadata: {} };
      if (random() < 0.5) object.metadata = { ...object.metadata, managedFields };
      const asItem = bothWays(object, ['metadata']);
      expect(asItem.cut).toEqual(asItem.stripped);
      const asEvent = bothWays({ type: 'MODIFIED', object }, ['object', 'metadata']);
      expect(asEvent.cut).toEqual(asEvent.stripped);
    }
  });

  it('cuts managedFields between other members, first, and alone, as the transform drops them', () => {
    for (const metadata of [
      { name: 'a', managedFields, resourceVersion: '5' },
      { managedFields, name: 'a' },
      { name: 'a', labels: { app: 'x' }, managedFields },
      { managedFields },
    ]) {
      const { stripped, cut, wasCut } = bothWays(pod(metadata), ['metadata']);
      expect(wasCut).toBe(true);
      expect(cut).toEqual(stripped);
    }
  });

  it("cuts a watch event's object's managedFields", () => {
    const event = { type: 'MODIFIED', object: pod({ name: 'a', managedFields, uid: 'u' }) };
    const { stripped, cut, wasCut } = bothWays(event, ['object', 'metadata']);
    expect(wasCut).toBe(true);
    expect(cut).toEqual(stripped);
  });

  it('leaves a managedFields member anywhere else alone: an annotation, a spec field, a string', () => {
    const cases = [
      pod({ name: 'a', annotations: { managedFields: '[]', note: 'say \\"managedFields\\": x' } }),
      { kind: 'Widget', metadata: { name: 'a' }, spec: { managedFields: [1, 2] } },
      pod({ name: '"managedFields":[]' }),
    ];
    for (const value of cases) {
      const { stripped, cut, wasCut } = bothWays(value, ['metadata']);
      expect(wasCut).toBe(false);
      expect(cut).toEqual(stripped);
    }
  });

  it('finds the real member after a decoy in an annotation key at a deeper level', () => {
    const value = pod({ annotations: { managedFields: 'x' }, name: 'a', managedFields });
    const { stripped, cut, wasCut } = bothWays(value, ['metadata']);
    expect(wasCut).toBe(true);
    expect(cut).toEqual(stripped);
  });

  it('keeps multi-byte text around the cut intact', () => {
    const value = pod({ name: 'café-☕', managedFields, annotations: { note: '日本語 🚀' } });
    const { stripped, cut } = bothWays(value, ['metadata']);
    expect(cut).toEqual(stripped);
  });

  it('is used by ListReplyDecoder when asked, item by item, whatever the chunking', () => {
    const items = [pod({ name: 'a', managedFields }), pod({ managedFields, name: 'b' }), pod({ name: 'c' })];
    const bytes = Buffer.from(JSON.stringify({ kind: 'PodList', metadata: { resourceVersion: '9' }, items }));
    for (const size of [7, 64, bytes.length]) {
      const decoder = new ListReplyDecoder(undefined, true);
      for (let at = 0; at < bytes.length; at += size) decoder.push(bytes.subarray(at, at + size));
      const list = decoder.finish() as { items: { metadata: Record<string, unknown> }[] };
      expect(list.items.map((item) => item.metadata)).toEqual([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    }
  });
});
