// DeltaObserver: every change as the cache takes it, and the Reflector's phase as the cache reflects
// it ("watching" after a list only once every delta of that list has been observed).
import { describe, expect, it } from 'vitest';
import { FakeClock, flushMicrotasks } from '../../../main/cache/fake-clock';
import type { ReflectorState } from '../../../main/cache/reflector-options';
import { SharedIndexInformer } from '../../../main/cache/shared-informer';
import type { KubeObject } from '../../../shared/kube/object';
import { FakeControllerSource } from '../../support/fake-controller-source';

function pod(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid: `uid-${name}` } };
}

async function settle(): Promise<void> {
  for (let turn = 0; turn < 30; turn++) await flushMicrotasks();
}

describe('DeltaObserver', () => {
  it("is told 'watching' after a list only once every delta of the list was observed", async () => {
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    for (let index = 0; index < 2500; index++) source.add(pod(`web-${index}`));
    const informer = new SharedIndexInformer<KubeObject>({ listerWatcher: source, clock });
    const seen: string[] = [];
    let observed = 0;
    informer.addDeltaObserver({
      observeDeltas: (deltas) => {
        observed += deltas.length;
        // The indexer applied them first.
        for (const delta of deltas)
          expect(informer.getIndexer().get(delta.object as KubeObject)).toBeDefined();
      },
      observePhase: (state: ReflectorState) => seen.push(`${state.phase}@${observed}`),
    });
    const stop = new AbortController();
    const done = informer.run(stop.signal);
    await settle();
    await clock.stepAsync(100);
    await settle();
    expect(seen).toEqual(['listing@0', 'watching@2500']);
    stop.abort();
    await done;
  });

  it('is told the watch went down on a 410 and watching again once the relist is in the cache', async () => {
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    source.add(pod('web-1'));
    const informer = new SharedIndexInformer<KubeObject>({
      listerWatcher: source,
      clock,
      reflector: { random: () => 0.5 },
    });
    const phases: string[] = [];
    let observed = 0;
    informer.addDeltaObserver({
      observeDeltas: (deltas) => void (observed += deltas.length),
      observePhase: (state) => phases.push(`${state.phase}@${observed}`),
    });
    const stop = new AbortController();
    const done = informer.run(stop.signal);
    await settle();
    source.addDropWatch(pod('web-2'));
    source.resetWatch();
    for (let step = 0; step < 20 && phases.length < 5; step++) await clock.stepAsync(500);
    // The initial list, then the 410's backoff, the relist, and watching once both pods were observed.
    expect(phases).toEqual(['listing@0', 'watching@1', 'backoff@1', 'listing@1', 'watching@3']);
    stop.abort();
    await done;
  });
});
