import { describe, expect, it } from 'vitest';
import { compactingListerWatcher } from '../../../main/bridge/compacting-lister-watcher';
import { StringInterner, createObjectCompactor } from '../../../main/bridge/object-compactor';
import type { ListerWatcher, Watcher } from '../../../main/cache/lister-watcher';
import type { BufferedWatcher } from '../../../main/cache/reflector-watch';
import { FakeClock } from '../../../main/cache/fake-clock';
import { realClock } from '../../../main/cache/real-clock';
import type { KubeList, KubeObject, WatchEvent } from '../../../shared/kube/object';

function pods(count: number): KubeList {
  return {
    metadata: { resourceVersion: '7' },
    items: Array.from({ length: count }, (_, index) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `p${index}`, namespace: 'shop', managedFields: [{ manager: 'kubelet' }] },
      spec: { containers: [{ name: 'app', image: 'registry.example/shop:1.0.0' }] },
    })),
  } as KubeList;
}

function listing(list: KubeList): ListerWatcher<KubeObject> {
  return {
    list: () => Promise.resolve(list),
    watch: () => Promise.reject(new Error('not watched here')),
  };
}

describe('compactingListerWatcher', () => {
  it("hands back the items compacted, which the informer's transform then passes through untouched", async () => {
    const interner = new StringInterner();
    const compactor = createObjectCompactor(interner);
    const listed = await compactingListerWatcher(listing(pods(3)), compactor, realClock).list(
      {},
      new AbortController().signal,
    );
    expect(listed.items[1].spec).toBe(listed.items[0].spec);
    let interned = 0;
    const internAll = interner.internAll.bind(interner);
    interner.internAll = <T>(value: T, field?: string): T => {
      interned++;
      return internAll(value, field);
    };
    for (const item of listed.items) {
      expect(item.metadata.managedFields).toBeUndefined();
      expect(compactor.transform(item)).toBe(item);
    }
    expect(interned).toBe(0);
  });

  it('asks the inner ListerWatcher to compact each item as it is decoded', async () => {
    const compactor = createObjectCompactor();
    let given: ((item: KubeObject) => KubeObject) | undefined;
    const decodingInner: ListerWatcher<KubeObject> = {
      async list(_options, _signal, transformItem) {
        given = transformItem;
        const list = pods(2);
        if (transformItem) list.items = list.items.map(transformItem);
        return list;
      },
      watch: () => Promise.reject(new Error('not watched here')),
    };
    const listed = await compactingListerWatcher(decodingInner, compactor, realClock).list(
      {},
      new AbortController().signal,
    );
    expect(given).toBe(compactor.compactAhead);
    expect(listed.items[0].metadata.managedFields).toBeUndefined();
    expect(listed.items[1].spec).toBe(listed.items[0].spec);
  });

  it('compacts a large list in turns, letting timers run in between', async () => {
    const clock = new FakeClock();
    let compacted = 0;
    // One sample per iteration of the event loop: consecutive samples differ by one turn's items.
    const samples: number[] = [];
    let sampling = true;
    const sample = () => {
      samples.push(compacted);
      if (sampling) setImmediate(sample);
    };
    setImmediate(sample);
    // Each item takes a millisecond: the turn budget ends turns long before the item count does.
    const slowCompactor = (object: unknown) => {
      clock.step(1);
      compacted++;
      return object;
    };
    const compactor = { transform: slowCompactor, compactAhead: slowCompactor, compactFinal: slowCompactor };
    await compactingListerWatcher(listing(pods(200)), compactor, clock).list(
      {},
      new AbortController().signal,
    );
    sampling = false;
    expect(compacted).toBe(200);
    const turns = samples.slice(1).map((count, index) => count - samples[index]);
    expect(turns.filter((items) => items > 0).length).toBeGreaterThan(5);
    expect(Math.max(...turns)).toBeLessThanOrEqual(16);
  });

  it("compacts a DELETED event's object as a final state: managedFields dropped, no sibling shares it", async () => {
    const sibling = (name: string) =>
      ({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name,
          namespace: 'shop',
          ownerReferences: [
            { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'rs-1', controller: true },
          ],
          managedFields: [{ manager: 'kubelet' }],
        },
        spec: { containers: [{ name: 'app', image: 'registry.example/shop:1.0.0' }] },
      }) as KubeObject;
    const events: WatchEvent[] = [
      { type: 'ADDED', object: sibling('web-1-a') },
      { type: 'DELETED', object: sibling('web-1-b') },
      { type: 'ADDED', object: sibling('web-1-c') },
    ];
    const inner: ListerWatcher<KubeObject> = {
      list: () => Promise.resolve(pods(0)),
      watch: async () => {
        const queue = [...events];
        return {
          stop: () => undefined,
          takeBuffered: () => queue.shift(),
          [Symbol.asyncIterator]: () => ({
            next: async () =>
              queue.length > 0 ? { done: false, value: queue.shift()! } : { done: true, value: undefined },
          }),
        } as Watcher<KubeObject> & BufferedWatcher<KubeObject>;
      },
    };
    const compactor = createObjectCompactor();
    const watcher = (await compactingListerWatcher(inner, compactor, realClock).watch(
      {},
      new AbortController().signal,
    )) as Watcher<KubeObject> & BufferedWatcher<KubeObject>;
    const added = compactor.transform(watcher.takeBuffered()!.object) as KubeObject;
    const deleted = watcher.takeBuffered()!;
    const iterator = watcher[Symbol.asyncIterator]();
    const next = await iterator.next();
    const addedAfter = compactor.transform((next.value as WatchEvent).object) as KubeObject;
    expect(deleted.object.metadata.managedFields).toBeUndefined();
    // The informer's transform passes the final state through, untouched by sharing.
    expect(compactor.transform(deleted.object)).toBe(deleted.object);
    expect(deleted.object.spec).not.toBe(added.spec);
    // Siblings still share: the next one takes the first's parts (the deleted one is no template).
    expect(addedAfter.spec).toBe(added.spec);
    expect((await iterator.next()).done).toBe(true);
  });
});
