// Ports of client-go shared_informer_test.go (indexing, disruption, errors, transform, late joiners,
// state, failing handlers), timed on the FakeClock.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../../shared/kube/object';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { ResourceEventHandler } from '../../../main/cache/resource-event-handler';
import { SharedIndexInformer } from '../../../main/cache/shared-informer';
import { FakeControllerSource } from '../../support/fake-controller-source';
import type { RunningInformer } from './shared-informer-helpers';
import {
  RecordingHandler,
  advance,
  eventually,
  nameOf,
  pod,
  runInformer,
  settle,
} from './shared-informer-helpers';

const quiet = () => {};
let running: RunningInformer | undefined;

afterEach(async () => {
  await running?.stop();
  running = undefined;
});

function newInformer(source: FakeControllerSource, clock: FakeClock, defaultResyncPeriod = 1000) {
  const informer = new SharedIndexInformer<KubeObject>({ listerWatcher: source, clock, defaultResyncPeriod });
  informer.setWatchErrorHandler(quiet);
  return informer;
}

const labelKeys = (obj: KubeObject) => Object.keys(obj.metadata.labels ?? {});

describe('SharedIndexInformer', () => {
  it('Indexer: indexes the cache, including indexes added after start', async () => {
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    source.add(pod('pod1', { a: 'a1' }));
    source.add(pod('pod2', { b: 'b1' }));
    const informer = new SharedIndexInformer<KubeObject>({
      listerWatcher: source,
      clock,
      indexers: { labels: labelKeys },
    });
    running = runInformer(informer);
    await eventually(() => informer.hasSynced(), 'informer synced');

    const names = (objects: KubeObject[]) => objects.map(nameOf).sort();
    expect(names(informer.getIndexer().byIndex('labels', 'a'))).toEqual(['pod1']);

    source.add(pod('pod3', { a: 'a3' }));
    await eventually(() => informer.getIndexer().byIndex('labels', 'a').length === 2, 'pod3 indexed');
    expect(names(informer.getIndexer().byIndex('labels', 'a'))).toEqual(['pod1', 'pod3']);
    expect(informer.lastSyncResourceVersion()).toBe(source.currentResourceVersion());

    informer.addIndexers({ labelValues: (obj) => Object.values(obj.metadata.labels ?? {}) });
    expect(names(informer.getIndexer().byIndex('labelValues', 'a3'))).toEqual(['pod3']);
    expect(informer.getIndexer().listIndexFuncValues('labels').sort()).toEqual(['a', 'b']);
  });

  it('writes the indexer before any handler hears of the change', async () => {
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    const informer = newInformer(source, clock);
    const seenInCache: boolean[] = [];
    informer.addEventHandler({
      onAdd: (obj) => void seenInCache.push(informer.getStore().get(obj) === obj),
      onDelete: (obj) =>
        void seenInCache.push(informer.getStore().getByKey(`default/${nameOf(obj)}`) === undefined),
    });
    running = runInformer(informer);
    const added = source.add(pod('pod1'));
    await eventually(() => seenInCache.length === 1, 'add delivered');
    source.delete(added);
    await eventually(() => seenInCache.length === 2, 'delete delivered');
    expect(seenInCache).toEqual([true, true]);
  });

  it('WatchDisruption: a relist reaches unchanged objects only to handlers due for resync', async () => {
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    source.add(pod('pod1'));
    const pod2 = source.add(pod('pod2'));
    const informer = newInformer(source, clock);
    const noResync = new RecordingHandler();
    const resync = new RecordingHandler();
    informer.addEventHandler(noResync, 0);
    informer.addEventHandler(resync, 1000);
    running = runInformer(informer);
    await eventually(() => noResync.names().length === 2 && resync.names().length === 2, 'initial list');

    source.addDropWatch(pod('pod3'));
    source.modifyDropWatch({ ...pod2, spec: { changed: true } });
    await settle();
    expect(noResync.names()).toEqual(['pod1', 'pod2']);
    expect(resync.names()).toEqual(['pod1', 'pod2']);
    noResync.clear();
    resync.clear();

    // The resync check at 1 s marks only `resync` as due; then the watch breaks and the relist at
    // the expired resourceVersion comes after a backoff of at most 1.6 s.
    await advance(clock, 1000);
    source.resetWatch();
    await advance(clock, 1700, 100);

    expect(noResync.names()).toEqual(['pod2', 'pod3']);
    expect(resync.names()).toEqual(['pod1', 'pod2', 'pod3']);
    expect(informer.getStore().listKeys().sort()).toEqual(['default/pod1', 'default/pod2', 'default/pod3']);
  });

  it('ErrorHandling: a list error reaches the watch error handler', async () => {
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    source.add(pod('pod1'));
    source.listError = new Error('Access Denied');
    const informer = new SharedIndexInformer<KubeObject>({
      listerWatcher: source,
      clock,
      defaultResyncPeriod: 1000,
    });
    const errors: unknown[] = [];
    informer.setWatchErrorHandler((_reflector, error) => void errors.push(error));
    running = runInformer(informer);
    await eventually(() => errors.length > 0, 'error handler called');
    expect(String((errors[0] as Error).message)).toContain('Access Denied');
    expect(informer.hasSynced()).toBe(false);
  });

  it('Transformer: handlers and cache see transformed objects', async () => {
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    source.add(pod('pod1'));
    source.add(pod('pod2'));
    const informer = newInformer(source, clock);
    informer.setTransform((obj) => {
      const object = obj as KubeObject;
      return { ...object, metadata: { ...object.metadata, name: object.metadata.name?.toUpperCase() } };
    });
    const handler = new RecordingHandler();
    informer.addEventHandler(handler, 0);
    running = runInformer(informer);
    await eventually(() => handler.names().length === 2, 'initial list');
    expect(handler.names()).toEqual(['POD1', 'POD2']);
    expect(informer.getStore().listKeys().sort()).toEqual(['default/POD1', 'default/POD2']);
  });

  it('refuses setTransform and setWatchErrorHandler once started', async () => {
    const informer = newInformer(new FakeControllerSource(), new FakeClock());
    running = runInformer(informer);
    expect(() => informer.setTransform((obj) => obj)).toThrow('informer has already started');
    expect(() => informer.setWatchErrorHandler(quiet)).toThrow('informer has already started');
  });

  it('AddWhileActive: a late handler gets synthetic adds and syncs once it has handled them', async () => {
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    const informer = newInformer(source, clock);
    const first = new RecordingHandler();
    const firstRegistration = informer.addEventHandler(first);
    expect(firstRegistration.hasSynced()).toBe(false);

    running = runInformer(informer);
    source.add(pod('pod1'));
    await eventually(() => first.names().length === 1, 'pod1 delivered');
    expect(firstRegistration.hasSynced()).toBe(true);

    const second = new RecordingHandler();
    const secondRegistration = informer.addEventHandler(second);
    expect(secondRegistration.hasSynced()).toBe(false);
    await eventually(() => secondRegistration.hasSynced(), 'late handler synced');
    expect(second.initialAdds).toEqual(['pod1']);

    source.add(pod('pod2'));
    await eventually(() => first.names().length === 2 && second.names().length === 2, 'pod2 delivered');
    expect(first.events).toEqual(['add:pod1', 'add:pod2']);
    expect(second.events).toEqual(['add:pod1', 'add:pod2']);
    expect(informer.isRegistered(firstRegistration) && informer.isRegistered(secondRegistration)).toBe(true);
  });

  it('StateSharedInformer: reports started and stopped, and refuses handlers once stopped', async () => {
    const source = new FakeControllerSource();
    source.add(pod('pod1'));
    const informer = newInformer(source, new FakeClock());
    const handler = new RecordingHandler();
    informer.addEventHandler(handler, 0);
    expect(informer.hasStarted()).toBe(false);
    expect(informer.isStopped()).toBe(false);

    const current = runInformer(informer);
    await eventually(() => handler.names().length === 1, 'pod1 delivered');
    expect(informer.hasStarted()).toBe(true);
    expect(informer.isStopped()).toBe(false);

    await current.stop();
    expect(informer.isStopped()).toBe(true);
    expect(() => informer.addEventHandler(handler, 0)).toThrow(
      'was not added to shared informer because it has stopped already',
    );
  });

  it('EventPanics: a throwing handler is reported, skips that notification, resumes after 1 s and still syncs', async () => {
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    source.add(pod('pod1'));
    source.add(pod('pod2'));
    const reported: string[] = [];
    const informer = new SharedIndexInformer<KubeObject>({
      listerWatcher: source,
      clock,
      name: 'pods.v1',
      reportError: (error, context) => void reported.push(`${context}: ${(error as Error).message}`),
    });
    const delivered: string[] = [];
    const throwing: ResourceEventHandler<KubeObject> = {
      onAdd: (obj) => {
        delivered.push(nameOf(obj));
        throw new Error(`cannot handle ${nameOf(obj)}`);
      },
    };
    const healthy = new RecordingHandler();
    const throwingRegistration = informer.addEventHandler(throwing);
    informer.addEventHandler(healthy);
    running = runInformer(informer);

    await eventually(() => healthy.names().length === 2, 'healthy handler got both');
    expect(delivered).toHaveLength(1);
    expect(reported).toEqual([
      `pods.v1: event handler failed on add of default/${delivered[0]}: cannot handle ${delivered[0]}`,
    ]);

    await advance(clock, 999);
    expect(delivered).toHaveLength(1);
    await advance(clock, 1);
    expect(delivered.sort()).toEqual(['pod1', 'pod2']);
    await eventually(() => throwingRegistration.hasSynced(), 'throwing handler synced');
  });

  it('reports to console.error by default', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const source = new FakeControllerSource();
      source.add(pod('pod1'));
      const informer = newInformer(source, new FakeClock());
      informer.addEventHandler({
        onAdd: () => {
          throw new Error('boom');
        },
      });
      running = runInformer(informer);
      await eventually(() => consoleError.mock.calls.length === 1, 'console.error called');
      expect(String(consoleError.mock.calls[0][0])).toContain('event handler failed on add');
    } finally {
      consoleError.mockRestore();
    }
  });
});
