// Shared pieces of the Reflector specifications: pods, a Reflector on a FakeClock, and helpers that
// let the Reflector's promise chains run (or step the clock through its backoffs) without sleeping.
import { FakeClock, flushMicrotasks } from '../../../main/cache/fake-clock';
import type { ListerWatcher } from '../../../main/cache/lister-watcher';
import type { ReflectorOptions } from '../../../main/cache/reflector';
import { Reflector } from '../../../main/cache/reflector';
import type { Store } from '../../../main/cache/store';
import type { KubeObject } from '../../../shared/kube/object';
import { initialEventsEndAnnotation } from '../../../shared/kube/object';
import type { KubeList } from '../../../shared/kube/object';
import { FakeWatcher } from '../../support/fake-watcher';
import { ListWatch, listOf } from '../../support/list-watch';

export function pod(name: string, resourceVersion = '', extra: Partial<KubeObject> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    ...extra,
    metadata: { name, resourceVersion, uid: name, ...extra.metadata },
  };
}

/** The bookmark that ends a watch-list's initial events (value "true" unless told otherwise). */
export function initialEventsEnd(resourceVersion: string, value = 'true'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { resourceVersion, annotations: { [initialEventsEndAnnotation]: value } },
  };
}

/** name@resourceVersion of each object, sorted: compact to compare. */
export function versions(objects: readonly KubeObject[]): string[] {
  return objects.map((object) => `${object.metadata.name}@${object.metadata.resourceVersion}`).sort();
}

export const silent = (): void => {};

export interface TestReflector {
  reflector: Reflector;
  clock: FakeClock;
  controller: AbortController;
  errors: unknown[];
}

/** A Reflector on a FakeClock with jitter-free randomness, quiet logs and recorded watch errors. */
export function newTestReflector(
  listerWatcher: ListerWatcher,
  store: Store,
  options: Partial<ReflectorOptions> = {},
): TestReflector {
  const clock = (options.clock as FakeClock | undefined) ?? new FakeClock();
  const errors: unknown[] = [];
  const reflector = new Reflector({
    name: 'test-reflector',
    expectedType: { apiVersion: 'v1', kind: 'Pod' },
    resyncPeriod: 0,
    random: () => 0,
    log: silent,
    watchErrorHandler: (_reflector, error) => errors.push(error),
    ...options,
    listerWatcher,
    store,
    clock,
  });
  return { reflector, clock, controller: new AbortController(), errors };
}

/** A ListWatch answering `list` (by default empty at RV 1), each watch a new FakeWatcher kept in order. */
export function keptWatches(list: () => KubeList = () => listOf('1', [])): {
  lw: ListWatch;
  watchers: FakeWatcher[];
} {
  const watchers: FakeWatcher[] = [];
  const lw = new ListWatch({
    list,
    watch: () => {
      const watcher = new FakeWatcher();
      watchers.push(watcher);
      return watcher;
    },
  });
  return { lw, watchers };
}

/** Lets pending promise chains run: a few macrotask turns, no clock movement. */
export async function settle(turns = 5): Promise<void> {
  for (let turn = 0; turn < turns; turn++) await flushMicrotasks();
}

/** Resolves once `promise` has settled, stepping `clock` to its next timer whenever nothing else moves. */
export async function driveClock<T>(clock: FakeClock, promise: Promise<T>, maxSteps = 1000): Promise<T> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let step = 0; step < maxSteps; step++) {
    await settle();
    if (settled) return promise;
    const next = clock.pendingDelays()[0];
    if (next === undefined) throw new Error('not settled, and no timer is pending');
    await clock.stepAsync(next);
  }
  throw new Error(`not settled after ${maxSteps} clock steps`);
}

/** Resolves once `condition` holds, letting promises run and stepping the clock only when told to. */
export async function eventually(condition: () => boolean, clock?: FakeClock, maxSteps = 200): Promise<void> {
  for (let step = 0; step < maxSteps; step++) {
    await settle();
    if (condition()) return;
    const next = clock?.pendingDelays()[0];
    if (clock && next !== undefined) await clock.stepAsync(next);
  }
  throw new Error('condition never held');
}
