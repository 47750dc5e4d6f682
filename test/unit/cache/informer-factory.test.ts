// client-go informers/factory.go and the dynamic factory: one shared informer per resource,
// idempotent start, cache-sync waits over started informers only, and a shutdown that waits.
import { afterEach, describe, expect, it } from 'vitest';
import type { GroupVersionResource, KubeObject } from '../../../shared/kube/object';
import { everything } from '../../../shared/selectors/label-selector';
import { FakeClock } from '../../../main/cache/fake-clock';
import { namespaceIndex } from '../../../main/cache/indexer';
import type {
  ListerWatcherFactory,
  SharedInformerFactoryOptions,
  TweakListOptions,
} from '../../../main/cache/informer-factory';
import { SharedInformerFactory } from '../../../main/cache/informer-factory';
import { FakeControllerSource } from '../../support/fake-controller-source';
import { advance, eventually, nameOf, pod } from './shared-informer-helpers';

const pods: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };
const deployments: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'deployments' };

interface Built {
  gvr: GroupVersionResource;
  namespace: string;
  tweak: TweakListOptions | undefined;
  source: FakeControllerSource;
}

let factory: SharedInformerFactory | undefined;

afterEach(async () => {
  await factory?.shutdown();
  factory = undefined;
});

function newFactory(options: Omit<SharedInformerFactoryOptions, 'clock'> = {}) {
  const clock = new FakeClock();
  const built: Built[] = [];
  const sources = new Map<string, FakeControllerSource>([
    ['pods', new FakeControllerSource()],
    ['deployments', new FakeControllerSource()],
  ]);
  const newListerWatcher: ListerWatcherFactory = (gvr, namespace, tweak) => {
    const source = sources.get(gvr.resource)!;
    built.push({ gvr, namespace, tweak, source });
    return source;
  };
  factory = new SharedInformerFactory(newListerWatcher, { ...options, clock });
  return { factory, clock, built, sources };
}

describe('SharedInformerFactory', () => {
  it('starts many informers on one stop signal without a listener-leak warning: sharing it is the design', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      factory = new SharedInformerFactory(() => new FakeControllerSource(), { clock: new FakeClock() });
      const started = factory;
      const informers = Array.from({ length: 12 }, (_, index) =>
        started.forResource({ group: 'example.com', version: 'v1', resource: `kind${index}` }).informer(),
      );
      started.start(new AbortController().signal);
      await eventually(() => informers.every((informer) => informer.hasSynced()), 'every informer synced');
      // Node emits the warning on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('hands out one informer and one lister per GroupVersionResource, indexed by namespace', () => {
    const tweak: TweakListOptions = (options) => void (options.labelSelector = 'app=web');
    const { factory, built } = newFactory({ namespace: 'shop', tweakListOptions: tweak });
    const first = factory.forResource(pods);
    expect(factory.forResource({ ...pods })).toBe(first);
    expect(first.informer()).toBe(factory.forResource(pods).informer());
    expect(first.lister()).toBe(first.lister());
    expect(factory.forResource(deployments).informer()).not.toBe(first.informer());
    expect(built.map(({ gvr, namespace, tweak: given }) => [gvr.resource, namespace, given])).toEqual([
      ['pods', 'shop', tweak],
      ['deployments', 'shop', tweak],
    ]);
    expect(Object.keys(first.informer().getIndexer().getIndexers())).toEqual([namespaceIndex]);
    expect(first.informer().name).toBe('pods.v1');
  });

  it('gives each informer the default resync unless the resource has a custom one', () => {
    const { factory } = newFactory({
      defaultResync: 30_000,
      customResync: new Map([['deployments.v1.apps', 5_000]]),
    });
    expect(factory.forResource(pods).informer().resyncCheckPeriod()).toBe(30_000);
    expect(factory.forResource(deployments).informer().resyncCheckPeriod()).toBe(5_000);
  });

  it('starts each informer once however often start is called, and later-requested ones on the next start', async () => {
    const { factory, sources } = newFactory();
    const podInformer = factory.forResource(pods).informer();
    const stop = new AbortController();
    factory.start(stop.signal);
    factory.start(stop.signal);
    expect(podInformer.hasStarted()).toBe(true);
    const deploymentInformer = factory.forResource(deployments).informer();
    expect(deploymentInformer.hasStarted()).toBe(false);
    factory.start(stop.signal);
    expect(deploymentInformer.hasStarted()).toBe(true);
    await eventually(() => podInformer.hasSynced() && deploymentInformer.hasSynced(), 'both synced');
    expect(sources.get('pods')!.listCalls).toHaveLength(1);
  });

  it('waitForCacheSync reports started informers only, once synced, and serves listers and transforms', async () => {
    const { factory, clock, sources } = newFactory({
      transform: (obj) => {
        delete (obj as KubeObject).metadata.managedFields;
        return obj;
      },
    });
    sources.get('pods')!.add({
      ...pod('web-1', { app: 'web' }, 'shop'),
      metadata: { name: 'web-1', namespace: 'shop', managedFields: [{}] },
    });
    const generic = factory.forResource(pods);
    factory.forResource(deployments);
    const stop = new AbortController();
    factory.start(stop.signal);
    factory.forResource({ group: '', version: 'v1', resource: 'services' });

    const waiting = factory.waitForCacheSync(stop.signal);
    await advance(clock, 100);
    expect(await waiting).toEqual(
      new Map([
        ['pods.v1', true],
        ['deployments.v1.apps', true],
      ]),
    );
    const cached = generic.lister().byNamespace('shop').get('web-1');
    expect(nameOf(cached)).toBe('web-1');
    expect(cached.metadata.managedFields).toBeUndefined();
    expect(generic.lister().list(everything())).toHaveLength(1);
  });

  it('waitForCacheSync polls on the clock until a failing list recovers, and gives false on abort', async () => {
    const { factory, clock, sources } = newFactory();
    const source = sources.get('pods')!;
    source.listError = new Error('Access Denied');
    const informer = factory.forResource(pods).informer();
    informer.setWatchErrorHandler(() => {});
    const stop = new AbortController();
    factory.start(stop.signal);

    const aborted = new AbortController();
    const gaveUp = factory.waitForCacheSync(aborted.signal);
    aborted.abort();
    expect(await gaveUp).toEqual(new Map([['pods.v1', false]]));

    let result: Map<string, boolean> | undefined;
    void factory.waitForCacheSync(stop.signal).then((value) => (result = value));
    source.listError = undefined;
    await advance(clock, 2_000, 100);
    expect(result).toEqual(new Map([['pods.v1', true]]));
  });

  it('names the resource in watch errors, never "<unspecified>"', async () => {
    const { factory, clock, sources } = newFactory();
    sources.get('deployments')!.listError = new Error('Access Denied');
    const errors: { type: string; message: string }[] = [];
    factory
      .forResource(deployments)
      .informer()
      .setWatchErrorHandler((reflector, error) =>
        errors.push({ type: reflector.typeDescription, message: (error as Error).message }),
      );
    const stop = new AbortController();
    factory.start(stop.signal);
    await advance(clock, 10, 1);
    stop.abort();
    expect(errors[0]).toEqual({
      type: 'apps/v1, Resource=deployments',
      message: 'failed to list apps/v1, Resource=deployments: Access Denied',
    });
  });

  it('shutdown stops every informer, waits for them, and makes start a no-op', async () => {
    const { factory } = newFactory();
    const podInformer = factory.forResource(pods).informer();
    factory.start(new AbortController().signal);
    await factory.shutdown();
    expect(podInformer.isStopped()).toBe(true);
    const deploymentInformer = factory.forResource(deployments).informer();
    factory.start(new AbortController().signal);
    expect(deploymentInformer.hasStarted()).toBe(false);
  });

  it('stops informers when the start signal aborts', async () => {
    const { factory } = newFactory();
    const podInformer = factory.forResource(pods).informer();
    const stop = new AbortController();
    factory.start(stop.signal);
    stop.abort();
    await eventually(() => podInformer.isStopped(), 'informer stopped');
  });
});
