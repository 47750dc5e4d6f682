// A whole cache is recorded in key order, whatever order the cache lists it in: the recording process
// stores a list's texts in blocks of one namespace, which the cache's shard order cut into dozens of
// small ones at every commit. The order is found by merging the snapshot's sorted runs a step at a
// time, so no turn of the informers' thread sorts the whole cache.
import { describe, expect, it } from 'vitest';
import { ShardedMap } from '../../../main/cache/sharded-map';
import { CacheResync, keyOf } from '../../../main/history/cache-resync';
import { KeyOrderedSnapshot, objectsPreparedPerStep } from '../../../main/history/key-ordered-snapshot';
import type { KubeObject } from '../../../shared/kube/object';
import { seededRandom } from '../../support/seeded-random';

function pod(namespace: string, name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { namespace, name } };
}

/** The key order the record follows: namespace, then name. */
function keyOrder(objects: readonly KubeObject[]): string[] {
  return objects
    .map((object) => [object.metadata.namespace ?? '', object.metadata.name ?? ''] as const)
    .sort(([leftNamespace, leftName], [rightNamespace, rightName]) =>
      leftNamespace !== rightNamespace
        ? leftNamespace < rightNamespace
          ? -1
          : 1
        : leftName < rightName
          ? -1
          : leftName > rightName
            ? 1
            : 0,
    )
    .map(([namespace, name]) => (namespace ? `${namespace}/${name}` : name));
}

/** What an informer's cache lists after a list of `pods` (in the API server's order) and later adds. */
function cacheListing(pods: readonly KubeObject[], added: readonly KubeObject[]): KubeObject[] {
  const cache = ShardedMap.of([...pods, ...added].map((object) => [keyOf(object), object] as const));
  return cache.valuesArray();
}

function taken(snapshot: KeyOrderedSnapshot): string[] {
  while (!snapshot.ready) snapshot.prepare();
  const keys: string[] = [];
  for (let object = snapshot.next(); object; object = snapshot.next()) keys.push(keyOf(object));
  return keys;
}

describe('KeyOrderedSnapshot', () => {
  it('takes a cache listed shard by shard, with pods added since, in key order', () => {
    const pods: KubeObject[] = [];
    for (let namespace = 0; namespace < 12; namespace++)
      for (let index = 0; index < 900; index++)
        pods.push(
          pod(`team-${String(namespace).padStart(2, '0')}`, `api-${index % 30}-${index.toString(36)}`),
        );
    pods.sort((left, right) => (keyOf(left) < keyOf(right) ? -1 : 1));
    const added = [pod('team-03', 'api-new-zz'), pod('team-00', 'aaa-new'), pod('', 'node-0')];
    const listing = cacheListing(pods, added);
    // The cache's own order interleaves the namespaces (what the record followed before).
    expect(listing.map(keyOf)).not.toEqual(keyOrder(listing));
    expect(taken(new KeyOrderedSnapshot(listing))).toEqual(keyOrder(listing));
  });

  it('takes any order in key order, each object once (random snapshots)', () => {
    const random = seededRandom(11);
    for (let round = 0; round < 200; round++) {
      const size = Math.floor(random() * 300);
      const names = new Set<string>();
      const objects: KubeObject[] = [];
      while (objects.length < size) {
        const namespace = random() < 0.1 ? '' : `ns-${Math.floor(random() * 5)}`;
        const name = `pod-${Math.floor(random() * 1_000)}`;
        if (names.has(`${namespace}/${name}`)) continue;
        names.add(`${namespace}/${name}`);
        objects.push(pod(namespace, name));
      }
      // Sorted stretches of random lengths, as shards with keys appended to them.
      let at = 0;
      while (at < objects.length) {
        const length = 1 + Math.floor(random() * 40);
        const stretch = objects
          .slice(at, at + length)
          .sort((left, right) => (keyOf(left) < keyOf(right) ? -1 : 1));
        objects.splice(at, stretch.length, ...stretch);
        at += length;
      }
      expect(taken(new KeyOrderedSnapshot(objects))).toEqual(keyOrder(objects));
    }
  });

  it('reads at most objectsPreparedPerStep objects a step, and takes none before it has read all', () => {
    const objects = Array.from({ length: 3 * objectsPreparedPerStep + 1 }, (_, index) =>
      pod('default', `pod-${(index * 7_919) % 100_003}`),
    );
    const snapshot = new KeyOrderedSnapshot(objects);
    expect(() => snapshot.next()).toThrow(/before its runs are all found/);
    for (let step = 0; step < 3; step++) {
      snapshot.prepare();
      expect(snapshot.ready).toBe(false);
    }
    snapshot.prepare();
    expect(snapshot.ready).toBe(true);
    expect(taken(snapshot)).toEqual(keyOrder(objects));
    expect(new KeyOrderedSnapshot([]).ready).toBe(true);
  });
});

describe('a whole cache recorded in slices', () => {
  it('records the cache in key order, its order found over turns of its own', () => {
    const pods: KubeObject[] = [];
    for (let namespace = 0; namespace < 20; namespace++)
      for (let index = 0; index < 1_000; index++) pods.push(pod(`ns-${namespace}`, `web-${index}`));
    const listing = cacheListing(pods, []);
    const recorded: string[] = [];
    const turns: (() => void)[] = [];
    let finished = false;
    const resync = new CacheResync(listing, 64 * 1024, {
      replaced: (key) => {
        recorded.push(key);
        return 100;
      },
      nextTurn: (work) => void turns.push(work),
      finished: () => {
        finished = true;
      },
    });
    resync.start();
    // 20,000 objects: the order is found a step a turn (start's the first), and the first slice is
    // recorded in the turn of the last step: nothing before it.
    const steps = Math.ceil(listing.length / objectsPreparedPerStep);
    let turnsTaken = 0;
    let firstRecordedAt: number | undefined;
    for (let turn = turns.shift(); turn; turn = turns.shift()) {
      if (firstRecordedAt === undefined && recorded.length > 0) firstRecordedAt = turnsTaken;
      turnsTaken++;
      turn();
    }
    expect(steps).toBeGreaterThan(2);
    expect(firstRecordedAt).toBe(steps - 1);
    expect(finished).toBe(true);
    expect(recorded).toEqual(keyOrder(listing));
  });

  it('records a small cache before start returns, in key order', () => {
    const listing = cacheListing([pod('b', 'x'), pod('a', 'y'), pod('a', 'x')], []);
    const recorded: string[] = [];
    new CacheResync(listing, 1024 * 1024, {
      replaced: (key) => {
        recorded.push(key);
        return 100;
      },
      nextTurn: (work) => work(),
      finished: () => {},
    }).start();
    expect(recorded).toEqual(['a/x', 'a/y', 'b/x']);
  });
});
