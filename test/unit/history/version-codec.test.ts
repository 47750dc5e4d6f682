// How versions are stored: canonical JSON, merge patches that reproduce the exact text, deflate
// against a base, and keyframe member lists.
import { describe, expect, it } from 'vitest';
import type { Json } from '../../../main/history/merge-patch';
import {
  applyMergePatch,
  canonicalJson,
  canonicalize,
  createMergePatch,
} from '../../../main/history/merge-patch';
import {
  VersionEncoding,
  decodeMembers,
  decodeVersion,
  encodeChainedPatch,
  encodeMembers,
  encodeTextVersion,
  encodeVersion,
  encodingKind,
  storedDelta,
  wholeVersion,
} from '../../../main/history/object-codec';
import type { KubeObject } from '../../../shared/kube/object';
import { realisticPod, seededRandom } from './fixtures';

function randomJson(random: () => number, depth: number): Json {
  const roll = random();
  if (depth <= 0 || roll < 0.3) {
    const scalars: Json[] = [null, true, false, 0, 7, 'a', 'b', ''];
    return scalars[Math.floor(random() * scalars.length)];
  }
  if (roll < 0.45)
    return Array.from({ length: Math.floor(random() * 3) }, () => randomJson(random, depth - 1));
  const object: Record<string, Json> = {};
  for (const key of ['x', 'y', 'z', 'w'].filter(() => random() < 0.6))
    object[key] = randomJson(random, depth - 1);
  return object;
}

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops only the top-level metadata.managedFields', () => {
    const json = canonicalJson({
      spec: { b: 1, a: [{ d: 1, c: 2 }] },
      metadata: { name: 'n', managedFields: [1] },
      kind: 'Pod',
    });
    expect(json).toBe('{"kind":"Pod","metadata":{"name":"n"},"spec":{"a":[{"c":2,"d":1}],"b":1}}');
    expect(canonicalJson({ metadata: {}, spec: { managedFields: 1 } })).toBe(
      '{"metadata":{},"spec":{"managedFields":1}}',
    );
  });
});

/** canonicalize as first written: sort every object's keys, whatever their order. */
function sortEverything(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortEverything);
  if (typeof value !== 'object' || value === null) return value;
  const object = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(object)
      .sort()
      .filter((key) => object[key] !== undefined)
      .map((key) => [key, sortEverything(object[key])]),
  );
}

describe('canonicalize', () => {
  it('gives the fully sorted tree whether keys come sorted, reversed or shuffled (fuzzed)', () => {
    const random = seededRandom(23);
    for (let round = 0; round < 500; round++) {
      const value = randomJson(random, 5);
      const reversed = JSON.parse(
        JSON.stringify(value, (_key, member: unknown) => reverseKeys(member)),
      ) as Json;
      for (const input of [value, reversed, sortEverything(value)]) {
        expect(JSON.stringify(canonicalize({ root: input }))).toBe(
          JSON.stringify(sortEverything({ root: input })),
        );
      }
    }
  });
});

function reverseKeys(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).reverse());
}

describe('createMergePatch', () => {
  it('applied to the old version gives the new one exactly, or declines (fuzzed, nulls included)', () => {
    const random = seededRandom(11);
    let declined = 0;
    for (let round = 0; round < 2000; round++) {
      const from = canonicalize({ root: randomJson(random, 4) });
      const to = canonicalize(
        random() < 0.5
          ? { root: randomJson(random, 4) }
          : { root: (from as { root: Json }).root, extra: randomJson(random, 2) },
      );
      const patch = createMergePatch(from, to);
      if (patch === undefined) {
        declined++;
        continue;
      }
      expect(JSON.stringify(applyMergePatch(from, patch))).toBe(JSON.stringify(to));
    }
    expect(declined).toBeLessThan(2000);
  });

  it('declines when the new version sets an object member to null', () => {
    expect(createMergePatch({ a: 1 }, { a: null })).toBeUndefined();
    expect(createMergePatch({ a: 1 }, { a: 1, b: { c: null } })).toBeUndefined();
    expect(createMergePatch({ a: 1 }, { a: [null] })).toEqual({ a: [null] });
  });
});

/** `pod` after its container restarted at `time`. */
function restartedPod(pod: KubeObject, resourceVersion: string, time: string): KubeObject {
  const next = structuredClone(pod);
  next.metadata.resourceVersion = resourceVersion;
  const status = next.status as { containerStatuses?: { restartCount?: number; state?: unknown }[] };
  status.containerStatuses = (status.containerStatuses ?? [{}]).map((container) => ({
    ...container,
    restartCount: (container.restartCount ?? 0) + 1,
    state: { running: { startedAt: time } },
  }));
  return next;
}

describe('version encodings', () => {
  it('round-trip a pod in every encoding, a status update as a patch of a few dozen bytes', () => {
    const before = realisticPod('web-abc12-x');
    const after = structuredClone(before);
    (after.status as { phase: string }).phase = 'Running';
    after.metadata.resourceVersion = '1234';
    const base = canonicalJson(before);
    const next = canonicalJson(after);
    const patch = JSON.stringify(createMergePatch(canonicalize(before), canonicalize(after)));
    const encoded = encodeVersion(patch, base);
    expect(decodeVersion(VersionEncoding.patch, encoded, wholeVersion(base)).json).toBe(next);
    expect(decodeVersion(VersionEncoding.text, encodeVersion(next, base), wholeVersion(base)).json).toBe(
      next,
    );
    expect(decodeVersion(VersionEncoding.full, encodeVersion(next)).json).toBe(next);
    expect(encoded.length).toBeLessThan(80);
  });

  it('store a chained status patch and a sibling pod as text deltas, each decoding exactly', () => {
    const before = realisticPod('web-abc12-d');
    const once = restartedPod(before, '1301', '2026-01-01T00:01:00Z');
    const twice = restartedPod(once, '1302', '2026-01-01T00:02:00Z');
    const base = canonicalJson(before);
    const firstPatch = JSON.stringify(createMergePatch(canonicalize(before), canonicalize(once)));
    const secondPatch = JSON.stringify(createMergePatch(canonicalize(once), canonicalize(twice)));
    const first = decodeVersion(VersionEncoding.patch, encodeVersion(firstPatch, base), wholeVersion(base));
    const chained = encodeChainedPatch(Buffer.from(secondPatch), Buffer.from(firstPatch));
    expect(chained.encoding).toBe(VersionEncoding.chainedPatch | storedDelta);
    expect(decodeVersion(chained.encoding, chained.payload, first).json).toBe(canonicalJson(twice));

    const sibling = realisticPod('web-abc12-e');
    const text = encodeTextVersion(Buffer.from(canonicalJson(sibling)), Buffer.from(base));
    expect(text.encoding).toBe(VersionEncoding.text | storedDelta);
    expect(encodingKind(text.encoding)).toBe(VersionEncoding.text);
    expect(decodeVersion(text.encoding, text.payload, wholeVersion(base)).json).toBe(canonicalJson(sibling));
    expect(text.payload.length).toBeLessThan(base.length / 8);
  });

  it('keep as a text delta a rewrite inserting up to a quarter of the text (a pod into CrashLoopBackOff)', () => {
    const before = canonicalJson(realisticPod('web-abc12-g'));
    // New reasons and messages, none of them in the version before: a fifth of the text inserted.
    const random = seededRandom(5);
    const letters = Array.from({ length: Math.floor(before.length / 5) }, () =>
      String.fromCharCode(97 + Math.floor(random() * 26)),
    ).join('');
    const inserted = `"reason":"ContainersNotReady","message":"${letters}",`;
    const at = before.indexOf('"status":{') + '"status":{'.length;
    const after = before.slice(0, at) + inserted + before.slice(at);
    const text = encodeTextVersion(Buffer.from(after), Buffer.from(before));
    expect(text.encoding).toBe(VersionEncoding.text | storedDelta);
    expect(text.payload.length).toBeGreaterThan(after.length / 8);
    expect(decodeVersion(text.encoding, text.payload, wholeVersion(before)).json).toBe(after);
  });

  it('deflate what a delta would mostly insert, and refuse a full version flagged as a delta', () => {
    const pod = canonicalJson(realisticPod('web-abc12-f'));
    const unrelated = JSON.stringify({ spec: { data: 'x'.repeat(50), other: [1, 2, 3] } });
    const text = encodeTextVersion(Buffer.from(pod), Buffer.from(unrelated));
    expect(text.encoding).toBe(VersionEncoding.text);
    expect(decodeVersion(text.encoding, text.payload, wholeVersion(unrelated)).json).toBe(pod);
    expect(() => decodeVersion(VersionEncoding.full | storedDelta, Buffer.from([0]))).toThrow(
      /never a delta/,
    );
  });

  it('keyframe members round-trip', () => {
    const members = new Map([
      [3, 10],
      [1, 400_000],
      [900_000, 2],
    ]);
    expect(decodeMembers(encodeMembers(members))).toEqual(members);
    expect(decodeMembers(encodeMembers(new Map()))).toEqual(new Map());
  });
});
