// Ports of client-go shared_informer_test.go's registration tests: adding and removing handlers
// before, during and after a run.
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/kube/object';
import { FakeClock } from '../../../main/cache/fake-clock';
import { DeletedFinalStateUnknown } from '../../../main/cache/keys';
import type {
  ResourceEventHandler,
  ResourceEventHandlerRegistration,
} from '../../../main/cache/resource-event-handler';
import { SharedIndexInformer } from '../../../main/cache/shared-informer';
import { FakeControllerSource, sourceKey } from '../../support/fake-controller-source';
import type { RunningInformer } from './shared-informer-helpers';
import {
  RecordingHandler,
  eventually,
  pod,
  runInformer,
  seededRandom,
  settle,
} from './shared-informer-helpers';

let running: RunningInformer | undefined;

afterEach(async () => {
  await running?.stop();
  running = undefined;
});

function newInformer(source = new FakeControllerSource()) {
  const informer = new SharedIndexInformer<KubeObject>({
    listerWatcher: source,
    clock: new FakeClock(),
    defaultResyncPeriod: 1000,
  });
  informer.setWatchErrorHandler(() => {});
  return informer;
}

describe('SharedIndexInformer registration', () => {
  it('RemoveHandler: removes each registration', async () => {
    const informer = newInformer();
    const first = informer.addEventHandler({});
    const second = informer.addEventHandler({});
    expect(informer.eventHandlerCount()).toBe(2);
    await informer.removeEventHandler(second);
    expect(informer.isRegistered(second)).toBe(false);
    expect(informer.eventHandlerCount()).toBe(1);
    await informer.removeEventHandler(first);
    expect(informer.isRegistered(first)).toBe(false);
    expect(informer.eventHandlerCount()).toBe(0);
  });

  it('RemoveForeignHandler: a registration of another informer is ignored', async () => {
    const informer = newInformer();
    const other = newInformer();
    const first = informer.addEventHandler({});
    const second = informer.addEventHandler({});
    await other.removeEventHandler(second);
    expect(informer.eventHandlerCount()).toBe(2);
    expect(informer.isRegistered(second)).toBe(true);
    await informer.removeEventHandler(second);
    await informer.removeEventHandler(first);
    expect(informer.eventHandlerCount()).toBe(0);
  });

  it('MultipleRegistration: the same handler added twice gives two independent registrations', async () => {
    const informer = newInformer();
    const handler: ResourceEventHandler<KubeObject> = {};
    const first = informer.addEventHandler(handler);
    const second = informer.addEventHandler(handler);
    expect(first).not.toBe(second);
    expect(informer.eventHandlerCount()).toBe(2);
    await informer.removeEventHandler(first);
    expect(informer.isRegistered(first)).toBe(false);
    expect(informer.isRegistered(second)).toBe(true);
    await informer.removeEventHandler(second);
    expect(informer.isRegistered(second)).toBe(false);
  });

  it('RemovingRemoved: removing twice is a no-op', async () => {
    const informer = newInformer();
    const registration = informer.addEventHandler({});
    await informer.removeEventHandler(registration);
    await expect(informer.removeEventHandler(registration)).resolves.toBeUndefined();
    expect(informer.eventHandlerCount()).toBe(0);
  });

  it('AddOnStopped: adding a handler after the informer stopped fails', async () => {
    const informer = newInformer();
    await runInformer(informer).stop();
    expect(() => informer.addEventHandler({})).toThrow(
      'handler ResourceEventHandler was not added to shared informer because it has stopped already',
    );
  });

  it('RemoveOnStopped: removing a handler after the informer stopped is a no-op', async () => {
    const informer = newInformer();
    const registration = informer.addEventHandler({});
    await runInformer(informer).stop();
    await expect(informer.removeEventHandler(registration)).resolves.toBeUndefined();
    expect(informer.eventHandlerCount()).toBe(0);
  });

  it('RemoveWhileActive: a removed handler gets nothing more', async () => {
    const source = new FakeControllerSource();
    const informer = newInformer(source);
    const handler = new RecordingHandler();
    const registration = informer.addEventHandler(handler);
    running = runInformer(informer);
    source.add(pod('pod1'));
    await eventually(() => handler.events.length === 1, 'pod1 delivered');
    await informer.removeEventHandler(registration);
    expect(informer.isRegistered(registration)).toBe(false);
    source.add(pod('pod2'));
    await eventually(() => informer.getStore().listKeys().length === 2, 'pod2 cached');
    await settle();
    expect(handler.events).toEqual(['add:pod1']);
  });

  it('drops what a removed handler had buffered', async () => {
    const source = new FakeControllerSource();
    source.add(pod('pod1'));
    source.add(pod('pod2'));
    const informer = newInformer(source);
    const handler = new RecordingHandler();
    const registration = informer.addEventHandler(handler);
    await informer.removeEventHandler(registration);
    running = runInformer(informer);
    await eventually(() => informer.hasSynced(), 'informer synced');
    await settle();
    expect(handler.events).toEqual([]);
  });

  it('HandlerAbuse: handlers added and removed amid changes each see a consistent stream', async () => {
    const seed = 20261130;
    const random = seededRandom(seed);
    const source = new FakeControllerSource();
    const informer = newInformer(source);
    running = runInformer(informer);
    await eventually(() => informer.hasSynced(), 'informer synced');

    interface Tracked {
      registration: ResourceEventHandlerRegistration;
      seen: Map<string, KubeObject>;
      events: number;
      removedAt?: number;
    }
    const tracked: Tracked[] = [];
    const live = new Map<string, KubeObject>();
    let next = 0;
    for (let step = 0; step < 1000; step++) {
      const action = random();
      if (action < 0.15) {
        const entry: Tracked = { registration: undefined as never, seen: new Map(), events: 0 };
        entry.registration = informer.addEventHandler({
          onAdd: (obj) => void (entry.events++, entry.seen.set(sourceKey(obj), obj)),
          onUpdate: (_old, obj) => void (entry.events++, entry.seen.set(sourceKey(obj), obj)),
          onDelete: (obj) => {
            entry.events++;
            entry.seen.delete(obj instanceof DeletedFinalStateUnknown ? obj.key : sourceKey(obj));
          },
        });
        tracked.push(entry);
      } else if (action < 0.25) {
        const candidates = tracked.filter((entry) => entry.removedAt === undefined);
        if (candidates.length > 0) {
          const entry = candidates[Math.floor(random() * candidates.length)];
          void informer.removeEventHandler(entry.registration);
          entry.removedAt = entry.events;
        }
      } else if (live.size === 0 || action < 0.55) {
        const created = source.add(pod(`pod${next++}`));
        live.set(sourceKey(created), created);
      } else if (action < 0.8) {
        const keys = [...live.keys()];
        const target = live.get(keys[Math.floor(random() * keys.length)])!;
        const modified = source.modify({ ...target, spec: { step } });
        live.set(sourceKey(modified), modified);
      } else {
        const keys = [...live.keys()];
        const key = keys[Math.floor(random() * keys.length)];
        source.delete(live.get(key)!);
        live.delete(key);
      }
      if (random() < 0.3) await settle(1);
    }
    await eventually(
      () => informer.getStore().listKeys().length === live.size,
      `cache settled (seed ${seed})`,
    );
    const cache = new Map(
      informer
        .getStore()
        .list()
        .map((obj) => [sourceKey(obj), obj]),
    );
    const liveHandlers = tracked.filter((entry) => entry.removedAt === undefined);
    await eventually(
      () => liveHandlers.every((entry) => entry.seen.size === cache.size && entry.registration.hasSynced()),
      `handlers caught up (seed ${seed})`,
    );
    await settle();
    for (const entry of tracked) {
      if (entry.removedAt === undefined) {
        expect(entry.registration.hasSynced(), `seed ${seed}`).toBe(true);
        expect(entry.seen, `seed ${seed}`).toEqual(cache);
      } else {
        expect(entry.events, `seed ${seed}: events after removal`).toBe(entry.removedAt);
      }
    }
    await running.stop();
    running = undefined;
    expect(informer.eventHandlerCount()).toBe(0);
  });
});
