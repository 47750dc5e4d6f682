// An in-memory API server for one resource: a ListerWatcher whose watches replay every change after
// the resourceVersion they start from, so an informer over it sees exactly what a real one would.
import type { ListerWatcher, ListOptions, Watcher } from '../../../main/cache/lister-watcher';
import type { KubeObject, WatchEvent } from '../../../shared/kube/object';

interface Change {
  resourceVersion: number;
  event: WatchEvent;
}

export class FakeApi {
  readonly objects = new Map<string, KubeObject>();
  private resourceVersion = 0;
  private readonly changes: Change[] = [];
  private readonly wakers = new Set<() => void>();
  lists = 0;

  private key(namespace: string | undefined, name: string): string {
    return namespace ? `${namespace}/${name}` : name;
  }

  apply(object: KubeObject): KubeObject {
    const key = this.key(object.metadata.namespace, object.metadata.name!);
    const existing = this.objects.get(key);
    const stored: KubeObject = structuredClone({
      ...object,
      metadata: {
        ...object.metadata,
        uid: existing?.metadata.uid ?? `uid-${key}-${this.resourceVersion + 1}`,
        resourceVersion: String(++this.resourceVersion),
        creationTimestamp: existing?.metadata.creationTimestamp ?? '2026-01-01T00:00:00Z',
      },
    });
    this.objects.set(key, stored);
    this.record({ type: existing ? 'MODIFIED' : 'ADDED', object: stored });
    return stored;
  }

  remove(namespace: string | undefined, name: string): void {
    const key = this.key(namespace, name);
    const existing = this.objects.get(key);
    if (!existing) return;
    this.objects.delete(key);
    const deleted = structuredClone(existing);
    deleted.metadata.resourceVersion = String(++this.resourceVersion);
    this.record({ type: 'DELETED', object: deleted });
  }

  private record(event: WatchEvent): void {
    this.changes.push({ resourceVersion: this.resourceVersion, event });
    for (const wake of this.wakers) wake();
  }

  listerWatcher(): ListerWatcher {
    return {
      supportsWatchList: false,
      list: async (options: ListOptions) => {
        this.lists += 1;
        const items = [...this.objects.values()].filter((item) =>
          options.fieldSelector?.startsWith('metadata.name=')
            ? item.metadata.name === options.fieldSelector.slice('metadata.name='.length)
            : true,
        );
        const offset = Number(options.continue ?? 0);
        const limit = options.limit && options.limit > 0 ? options.limit : items.length;
        const page = items.slice(offset, offset + limit);
        const rest = items.length - offset - page.length;
        return {
          metadata: {
            resourceVersion: String(this.resourceVersion),
            ...(rest > 0 ? { continue: String(offset + page.length), remainingItemCount: rest } : {}),
          },
          items: structuredClone(page),
        };
      },
      watch: async (options: ListOptions) => this.watcher(Number(options.resourceVersion ?? 0)),
    };
  }

  private watcher(from: number): Watcher {
    let stopped = false;
    let wake: (() => void) | undefined;
    const changes = this.changes;
    const waker = () => wake?.();
    this.wakers.add(waker);
    return {
      stop: () => {
        stopped = true;
        this.wakers.delete(waker);
        wake?.();
      },
      async *[Symbol.asyncIterator]() {
        let position = from;
        while (!stopped) {
          const next = changes.filter((change) => change.resourceVersion > position);
          for (const change of next) {
            if (stopped) return;
            position = change.resourceVersion;
            yield structuredClone(change.event);
          }
          if (next.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        }
      },
    };
  }
}

export function pod(
  namespace: string,
  name: string,
  labels: Record<string, string> = {},
  nodeName = 'n1',
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { namespace, name, labels },
    spec: { nodeName, containers: [{ name: 'main', image: 'nginx' }] },
    status: { phase: 'Running' },
  };
}
