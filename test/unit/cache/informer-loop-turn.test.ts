import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { ListerWatcher } from '../../../main/cache/lister-watcher';
import { SharedIndexInformer } from '../../../main/cache/shared-informer';
import { turnBudgetMs } from '../../../main/cache/turn-budget';
import { WatchStream } from '../../../main/kube/watch-stream';
import type { KubeObject } from '../../../shared/kube/object';
import { pod, runInformer } from './shared-informer-helpers';

/** What one watch event costs in each stage, on the fake clock: decode and queue, pop, delivery. */
const stageCostMs = 0.25;
const events = 600;

/** An empty LIST, then a WATCH whose socket has already delivered every event of a flood. */
function floodListerWatcher(clock: FakeClock): ListerWatcher<KubeObject> {
  return {
    supportsWatchList: false,
    list: async () => ({ kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '1' }, items: [] }),
    watch: async (options) => {
      const source = new PassThrough();
      if (options.resourceVersion === '1') {
        const lines = Array.from({ length: events }, (_, index) => {
          const object = pod(`p${index % 50}`);
          object.metadata.resourceVersion = String(index + 2);
          return JSON.stringify({ type: index < 50 ? 'ADDED' : 'MODIFIED', object }) + '\n';
        });
        source.write(lines.join(''));
      }
      return new WatchStream<KubeObject>(source, { request: 'watching pods', clock, inactivityTimeoutMs: 0 });
    },
  };
}

describe('an informer under a watch flood', () => {
  it('spends at most about one turn budget per iteration of the event loop, over all its stages', async () => {
    const clock = new FakeClock();
    const informer = new SharedIndexInformer<KubeObject>({
      listerWatcher: floodListerWatcher(clock),
      clock,
      // Runs as the reflector queues each event: the watch stage's cost.
      transform: (object) => {
        clock.step(stageCostMs);
        return object;
      },
    });
    const delivered: KubeObject[] = [];
    // The pop stage's cost (an observer runs inside each pop), then the delivery stage's.
    informer.addDeltaObserver({
      observeDeltas: () => clock.step(stageCostMs),
      observePhase: () => {},
    });
    informer.addEventHandler({
      onAdd: (object) => {
        delivered.push(object);
        clock.step(stageCostMs);
      },
      onUpdate: (_old, object) => {
        delivered.push(object);
        clock.step(stageCostMs);
      },
    });
    const running = runInformer(informer);
    // The fake time spent between two check phases of the loop: every stage's work moves the clock.
    const spent: number[] = [];
    let last = clock.now();
    while (delivered.length < events) {
      await new Promise((resolve) => setImmediate(resolve));
      spent.push(clock.now() - last);
      last = clock.now();
    }
    await running.stop();
    // Each stage ran a turn of its own 8 ms, and they ran back to back: three budgets (36 ms here, each
    // overshooting by up to the 16 items between two reads of the clock). Sharing the iteration's, a
    // sample holds at most the end of one iteration's budget and the start of the next one's.
    const overshootMs = 16 * stageCostMs;
    expect(Math.max(...spent)).toBeLessThanOrEqual(2 * (turnBudgetMs + overshootMs));
    // Yields between turns never reorder a key's changes: each pod's in resourceVersion order.
    const versions = new Map<string, number[]>();
    for (const object of delivered) {
      const name = object.metadata.name ?? '';
      versions.set(name, [...(versions.get(name) ?? []), Number(object.metadata.resourceVersion)]);
    }
    for (const [, seen] of versions) expect(seen).toEqual([...seen].sort((left, right) => left - right));
    expect(versions.size).toBe(50);
  });
});
