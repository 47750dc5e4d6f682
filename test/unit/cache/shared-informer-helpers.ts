// Shared fixtures for the shared informer, factory and model tests: pods, a recording handler, and
// ways to let the informer's asynchronous pipeline settle without real sleeps.
import type { KubeObject } from '../../../shared/kube/object';
import { flushMicrotasks } from '../../../main/cache/fake-clock';
import type { FakeClock } from '../../../main/cache/fake-clock';
import { DeletedFinalStateUnknown } from '../../../main/cache/keys';
import type { ResourceEventHandler } from '../../../main/cache/resource-event-handler';
import type { SharedIndexInformer } from '../../../main/cache/shared-informer';
import { seededRandom } from '../../support/seeded-random';

export function pod(name: string, labels?: Record<string, string>, namespace = 'default'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, ...(labels ? { labels } : {}) },
  };
}

export function nameOf(obj: unknown): string {
  const target = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
  return String((target as KubeObject | undefined)?.metadata?.name ?? (obj as DeletedFinalStateUnknown).key);
}

/** Records every notification as "add:name", "update:name" or "delete:name", and the names received. */
export class RecordingHandler implements ResourceEventHandler<KubeObject> {
  readonly events: string[] = [];
  readonly initialAdds: string[] = [];

  onAdd(obj: KubeObject, isInInitialList: boolean): void {
    this.events.push(`add:${nameOf(obj)}`);
    if (isInInitialList) this.initialAdds.push(nameOf(obj));
  }
  onUpdate(_oldObj: KubeObject, newObj: KubeObject): void {
    this.events.push(`update:${nameOf(newObj)}`);
  }
  onDelete(obj: KubeObject | DeletedFinalStateUnknown<KubeObject>): void {
    this.events.push(`delete:${nameOf(obj)}`);
  }

  /** The distinct object names received so far, sorted. */
  names(): string[] {
    return [...new Set(this.events.map((event) => event.slice(event.indexOf(':') + 1)))].sort();
  }

  clear(): void {
    this.events.length = 0;
    this.initialAdds.length = 0;
  }
}

/** Lets every pending promise chain and I/O-free callback run; time on the clock does not move. */
export async function settle(turns = 5): Promise<void> {
  for (let turn = 0; turn < turns; turn++) await flushMicrotasks();
}

/** Runs event-loop turns (never moving the clock) until `condition` holds; throws if it never does. */
export async function eventually(
  condition: () => boolean,
  description = 'condition',
  turns = 200,
): Promise<void> {
  for (let turn = 0; turn < turns; turn++) {
    if (condition()) return;
    await flushMicrotasks();
  }
  throw new Error(`${description} did not hold after ${turns} event-loop turns`);
}

export interface RunningInformer {
  readonly done: Promise<void>;
  stop(): Promise<void>;
}

/** Starts `informer.run` and returns a handle that aborts it and waits until it has stopped. */
export function runInformer(informer: SharedIndexInformer<KubeObject>): RunningInformer {
  const controller = new AbortController();
  const done = informer.run(controller.signal);
  return {
    done,
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}

/** Steps the clock in `stepMs` increments, letting the pipeline settle after each. */
export async function advance(clock: FakeClock, totalMs: number, stepMs = totalMs): Promise<void> {
  for (let elapsed = 0; elapsed < totalMs; elapsed += stepMs) {
    await clock.stepAsync(Math.min(stepMs, totalMs - elapsed));
    await settle();
  }
}

export { seededRandom };
