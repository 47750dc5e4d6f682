// The Reflector's LIST replaces its DeltaFIFO in turns of the event loop (replaceInTurns), not in one
// call: other work runs between the turns, and what it sees of the queue is all or nothing.
import { describe, expect, it } from 'vitest';
import { DeltaFIFO } from '../../../main/cache/delta-fifo';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { ListerWatcher } from '../../../main/cache/lister-watcher';
import { listIntoStore } from '../../../main/cache/reflector-list';
import type { KubeObject } from '../../../shared/kube/object';

const listed = 5000;

function podsLister(items: KubeObject[]): ListerWatcher<KubeObject> {
  return {
    list: async () => ({ metadata: { resourceVersion: '7' }, items }),
    watch: () => Promise.reject(new Error('not watched here')),
  };
}

const pods = (): KubeObject[] =>
  Array.from({ length: listed }, (_, index) => ({ metadata: { namespace: 'ns', name: `pod${index}` } }));

describe('listIntoStore into a DeltaFIFO', () => {
  it('replaces it in turns, between which the queue is the old one until it is the whole new one', async () => {
    let transformed = 0;
    const fifo = new DeltaFIFO<KubeObject>({ transformer: (object) => (transformed++, object) });
    const versions = {
      lastSyncResourceVersion: '',
      lastSyncResourceVersionUnavailable: false,
      paginatedResult: false,
    };
    // What other tasks of the loop see while the list is replaced: [objects transformed, keys queued].
    const seen: [number, number][] = [];
    let listing = true;
    const look = () => {
      seen.push([transformed, fifo.listKeys().length]);
      if (listing) setImmediate(look);
    };
    setImmediate(look);
    const count = await listIntoStore(
      {
        listerWatcher: podsLister(pods()),
        store: fifo,
        typeDescription: 'pods',
        watchListPageSize: 0,
        versions,
        clock: new FakeClock(),
      },
      new AbortController().signal,
    );
    listing = false;
    expect(count).toBe(listed);
    expect(fifo.listKeys()).toHaveLength(listed);
    expect(versions.lastSyncResourceVersion).toBe('7');
    const midway = seen.filter(([done]) => done > 0 && done < listed);
    expect(midway.length).toBeGreaterThan(0);
    for (const [, queued] of midway) expect(queued).toBe(0);
  });

  it('leaves the queue untouched when the signal aborts during the replace', async () => {
    const fifo = new DeltaFIFO<KubeObject>({ transformer: (object) => object });
    const versions = {
      lastSyncResourceVersion: '',
      lastSyncResourceVersionUnavailable: false,
      paginatedResult: false,
    };
    const stop = new AbortController();
    const listing = listIntoStore(
      {
        listerWatcher: podsLister(pods()),
        store: fifo,
        typeDescription: 'pods',
        watchListPageSize: 0,
        versions,
        clock: new FakeClock(),
      },
      stop.signal,
    );
    setImmediate(() => stop.abort());
    expect(await listing).toBeUndefined();
    expect(fifo.listKeys()).toEqual([]);
    expect(fifo.hasSynced()).toBe(false);
    expect(versions.lastSyncResourceVersion).toBe('');
  });
});
