// The randomized model test: random sequences of changes, dropped watch events, broken and expired
// watches, bookmarks and relists against the FakeControllerSource. Once a sequence settles, the
// informer's cache, every index and every handler's replayed view must equal the source of truth.
import { describe, expect, it } from 'vitest';
import { isTooLargeResourceVersion } from '../../../shared/kube/status';
import type { Watcher } from '../../../main/cache/lister-watcher';
import type { KubeObject, WatchEvent } from '../../../shared/kube/object';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { Indexer } from '../../../main/cache/indexer';
import { metaNamespaceIndexFunc, namespaceIndex } from '../../../main/cache/indexer';
import { DeletedFinalStateUnknown } from '../../../main/cache/keys';
import type {
  ResourceEventHandler,
  ResourceEventHandlerRegistration,
} from '../../../main/cache/resource-event-handler';
import { SharedIndexInformer } from '../../../main/cache/shared-informer';
import { FakeControllerSource, sourceKey } from '../../support/fake-controller-source';
import { pod, seededRandom, settle } from './shared-informer-helpers';

const sequences = Number(process.env.INFORMER_MODEL_SEQUENCES ?? 2000);
const baseSeed = Number(process.env.INFORMER_MODEL_SEED ?? 1);
const namespaces = ['alpha', 'beta', ''];

type Random = () => number;
const pick = <Item>(random: Random, items: readonly Item[]): Item =>
  items[Math.floor(random() * items.length)];

/** A handler that replays its notifications into a Map and records every inconsistency it sees. */
class ReplayHandler implements ResourceEventHandler<KubeObject> {
  readonly state = new Map<string, KubeObject>();
  readonly violations: string[] = [];
  registration!: ResourceEventHandlerRegistration;

  constructor(readonly name: string) {}

  onAdd(obj: KubeObject): void {
    const key = sourceKey(obj);
    if (this.state.has(key)) this.violations.push(`${this.name}: add of known ${key}`);
    this.state.set(key, obj);
  }
  onUpdate(oldObj: KubeObject, newObj: KubeObject): void {
    const key = sourceKey(newObj);
    const known = this.state.get(key);
    if (!known) this.violations.push(`${this.name}: update of unknown ${key}`);
    else if (JSON.stringify(known) !== JSON.stringify(oldObj))
      this.violations.push(`${this.name}: stale old ${key}`);
    this.state.set(key, newObj);
  }
  onDelete(obj: KubeObject | DeletedFinalStateUnknown<KubeObject>): void {
    const key = obj instanceof DeletedFinalStateUnknown ? obj.key : sourceKey(obj);
    if (!this.state.delete(key)) this.violations.push(`${this.name}: delete of unknown ${key}`);
  }
}

const labelPairs = (obj: KubeObject) =>
  Object.entries(obj.metadata.labels ?? {}).map(([key, value]) => `${key}=${value}`);

/** Differences between each index and the index rebuilt by rescanning the cache. */
function indexDrift(indexer: Indexer<KubeObject>): string[] {
  const drift: string[] = [];
  for (const [name, indexFunc] of Object.entries(indexer.getIndexers())) {
    const expected = new Map<string, string[]>();
    for (const obj of indexer.list()) {
      for (const value of indexFunc(obj))
        expected.set(value, [...(expected.get(value) ?? []), sourceKey(obj)].sort());
    }
    const actualValues = indexer.listIndexFuncValues(name).sort();
    if (JSON.stringify(actualValues) !== JSON.stringify([...expected.keys()].sort())) {
      drift.push(`index ${name}: values ${actualValues} != ${[...expected.keys()].sort()}`);
    }
    for (const [value, keys] of expected) {
      const actual = indexer.indexKeys(name, value).sort();
      if (JSON.stringify(actual) !== JSON.stringify(keys))
        drift.push(`index ${name}[${value}]: ${actual} != ${keys}`);
    }
  }
  return drift;
}

function sameContents(actual: Map<string, KubeObject>, expected: Map<string, KubeObject>): boolean {
  if (actual.size !== expected.size) return false;
  for (const [key, obj] of expected) {
    if (JSON.stringify(actual.get(key)) !== JSON.stringify(obj)) return false;
  }
  return true;
}

async function runSequence(seed: number): Promise<string[]> {
  const random = seededRandom(seed);
  const clock = new FakeClock();
  const source = new FakeControllerSource();
  const informer = new SharedIndexInformer<KubeObject>({
    listerWatcher: source,
    clock,
    defaultResyncPeriod: pick(random, [0, 1000, 3000]),
    indexers: { [namespaceIndex]: metaNamespaceIndexFunc, labels: labelPairs },
    reflector: { random, useWatchList: random() < 0.3, log: () => {} },
  });
  informer.setWatchErrorHandler(() => {});
  const early = new ReplayHandler('early');
  early.registration = informer.addEventHandler(early);
  const handlers = [early];

  let nextName = 0;
  const deletedNames: KubeObject[] = [];
  const newPod = (): KubeObject => {
    const reused = deletedNames.length > 0 && random() < 0.3 ? deletedNames.pop() : undefined;
    const metadata = reused?.metadata ?? { name: `pod${nextName++}`, namespace: pick(random, namespaces) };
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: metadata.name, namespace: metadata.namespace, labels: randomLabels() },
    };
  };
  const randomLabels = () => ({
    app: pick(random, ['web', 'db', 'cache']),
    ...(random() < 0.5 ? { tier: pick(random, ['front', 'back']) } : {}),
  });

  for (let count = Math.floor(random() * 8); count > 0; count--) source.add(newPod());
  const stop = new AbortController();
  const done = informer.run(stop.signal);

  const steps = 10 + Math.floor(random() * 30);
  for (let step = 0; step < steps; step++) {
    const dropWatch = random() < 0.15;
    const roll = random();
    const current = source.keys();
    if (roll < 0.3 || current.length === 0) {
      const obj = newPod();
      if (dropWatch) source.addDropWatch(obj);
      else source.add(obj);
    } else if (roll < 0.55) {
      const target = source.get(pick(random, current))!;
      const changed = { ...target, metadata: { ...target.metadata, labels: randomLabels() } };
      if (dropWatch) source.modifyDropWatch(changed);
      else source.modify(changed);
    } else if (roll < 0.75) {
      const target = source.get(pick(random, current))!;
      deletedNames.push(target);
      if (dropWatch) source.deleteDropWatch(target);
      else source.delete(target);
    } else if (roll < 0.82) {
      source.resetWatch();
    } else if (roll < 0.88) {
      source.breakWatches();
    } else if (roll < 0.94) {
      source.bookmark();
    } else if (handlers.length < 3) {
      const late = new ReplayHandler(`late${handlers.length}`);
      late.registration = informer.addEventHandler(late, pick(random, [0, 2000]));
      handlers.push(late);
    }
    const pause = random();
    if (pause < 0.4) await settle(1);
    else if (pause < 0.6) await clock.stepAsync(Math.floor(random() * 2000));
  }

  // Make every dropped change visible: expire the watch so the informer relists, then let time pass
  // (in backoff-sized steps) until the cache matches the source or a generous deadline passes.
  source.resetWatch();
  const truth = source.state();
  for (let waited = 0; waited <= 5 * 60_000; waited += 500) {
    await settle(2);
    const cache = new Map(
      informer
        .getStore()
        .list()
        .map((obj) => [sourceKey(obj), obj]),
    );
    if (sameContents(cache, truth) && handlers.every((handler) => sameContents(handler.state, truth))) break;
    await clock.stepAsync(500);
  }
  await settle(3);

  const problems: string[] = [];
  const cache = new Map(
    informer
      .getStore()
      .list()
      .map((obj) => [sourceKey(obj), obj]),
  );
  if (!sameContents(cache, truth)) problems.push(`cache ${[...cache.keys()]} != source ${[...truth.keys()]}`);
  problems.push(...indexDrift(informer.getIndexer()));
  for (const handler of handlers) {
    if (!sameContents(handler.state, truth))
      problems.push(`${handler.name} saw ${[...handler.state.keys()]}`);
    if (!handler.registration.hasSynced()) problems.push(`${handler.name} never synced`);
    problems.push(...handler.violations);
  }
  stop.abort();
  await done;
  return problems;
}

/** Sequences run in batches, each its own test, so no single test nears the timeout on a busy machine. */
const batchSize = 250;

describe('SharedIndexInformer model', () => {
  for (let first = 0; first < sequences; first += batchSize) {
    const count = Math.min(batchSize, sequences - first);
    it(`converges to the source of truth: sequences ${first + 1}-${first + count} of ${sequences}`, async () => {
      for (let index = first; index < first + count; index++) {
        const seed = baseSeed + index;
        const problems = await runSequence(seed);
        expect(
          problems,
          `seed ${seed} (replay: INFORMER_MODEL_SEED=${seed} INFORMER_MODEL_SEQUENCES=1)`,
        ).toEqual([]);
      }
    });
  }
});

/** Reads events until the watch has none ready (or ends), as "TYPE name@resourceVersion". */
async function drain(watcher: Watcher<KubeObject>): Promise<string[]> {
  const seen: string[] = [];
  const iterator = watcher[Symbol.asyncIterator]();
  for (;;) {
    const next = await Promise.race([iterator.next(), settle(2).then(() => undefined)]);
    if (!next || next.done) return seen;
    const event: WatchEvent = next.value;
    seen.push(
      `${event.type} ${event.object.metadata?.name ?? ''}@${event.object.metadata?.resourceVersion ?? ''}`,
    );
  }
}

describe('FakeControllerSource, as the model relies on it', () => {
  const signal = new AbortController().signal;

  it('replays history after the requested resourceVersion, drop-watch changes included, and streams on', async () => {
    const source = new FakeControllerSource();
    const first = source.add(pod('a'));
    const open = await source.watch({ resourceVersion: '2' }, signal);
    source.modifyDropWatch({ ...first, spec: { changed: true } });
    source.add(pod('b'));
    expect(await drain(open)).toEqual(['ADDED b@4']);
    const replay = await source.watch({ resourceVersion: '2' }, signal);
    expect(await drain(replay)).toEqual(['MODIFIED a@3', 'ADDED b@4']);
  });

  it('after resetWatch, ends open watches, answers older resourceVersions with 410 and serves the new one', async () => {
    const source = new FakeControllerSource();
    source.add(pod('a'));
    const open = await source.watch({ resourceVersion: '2' }, signal);
    source.resetWatch();
    expect(await drain(open)).toEqual([]);
    expect(source.openWatchCount()).toBe(0);
    const expired = await source.watch({ resourceVersion: '2' }, signal);
    const iterator = expired[Symbol.asyncIterator]();
    const error = (await iterator.next()).value as WatchEvent;
    expect(error.type).toBe('ERROR');
    expect((error.object as unknown as { code: number }).code).toBe(410);
    expect((await iterator.next()).done).toBe(true);
    const list = await source.list({ resourceVersion: '0' }, signal);
    expect(list.metadata.resourceVersion).toBe('3');
    const resumed = await source.watch({ resourceVersion: '3' }, signal);
    source.add(pod('b'));
    expect(await drain(resumed)).toEqual(['ADDED b@4']);
  });

  it('sends bookmarks only to watches that allow them, and initial events when asked', async () => {
    const source = new FakeControllerSource();
    source.add(pod('a'));
    const plain = await source.watch({ resourceVersion: '2' }, signal);
    const bookmarked = await source.watch({ resourceVersion: '2', allowWatchBookmarks: true }, signal);
    source.bookmark();
    expect(await drain(plain)).toEqual([]);
    expect(await drain(bookmarked)).toEqual(['BOOKMARK @2']);
    const streaming = await source.watch(
      { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true },
      signal,
    );
    expect(await drain(streaming)).toEqual(['ADDED a@2', 'BOOKMARK @2']);
  });

  it('fails lists and watches from a resourceVersion it has not reached yet', async () => {
    const source = new FakeControllerSource();
    await expect(source.list({ resourceVersion: '5' }, signal)).rejects.toSatisfy(isTooLargeResourceVersion);
    await expect(source.watch({ resourceVersion: '5' }, signal)).rejects.toSatisfy(isTooLargeResourceVersion);
  });
});
