// The simulator's etcd and watch cache: every object of every resource, one global resourceVersion
// counter, and a bounded window of recent events per resource (EventWindow). Each object keeps its JSON text, and each event serializes its
// watch line once, so LIST bodies and WATCH fan-out copy strings instead of re-encoding objects.
import type { KubeObject } from '../../shared/kube/object';
import { EventWindow } from './event-window';
import { SortedKeys } from './sorted-keys';
import { unstructuredJson } from './unstructured-json';

/**
 * An object as stored: the value (treat as immutable), its JSON text and its resourceVersion. The
 * text is produced on first use and then kept, so seeding stays cheap and every later LIST or WATCH
 * copies the same string. A custom resource's text has its keys sorted, as kube-apiserver writes an
 * unstructured object (unstructured-json.ts).
 */
export class StoredObject {
  private text?: string;
  private itemText?: string;

  constructor(
    readonly object: KubeObject,
    readonly resourceVersion: number,
    readonly unstructured = false,
  ) {}

  get json(): string {
    this.text ??= this.textOf(this.object);
    return this.text;
  }

  /** Whether `object` would be written as this object is (an update that changes nothing is no write). */
  writesAs(object: KubeObject): boolean {
    return this.textOf(object) === this.json;
  }

  private textOf(object: KubeObject): string {
    return this.unstructured ? unstructuredJson(object) : JSON.stringify(object);
  }

  /**
   * The object as an item of a built-in type's LIST: kube-apiserver leaves out each item's apiVersion
   * and kind there (the list's own say them; kubernetes/kubernetes#3030), and sends them in a GET,
   * a watch event and a custom resource's list. `opening` is the type's `{"apiVersion":…,"kind":…,`:
   * json opens with it when the object was written with them first, and the rest of json is the item
   * (not kept: a second copy of every listed object would double the cluster's strings); an object
   * written otherwise is serialized without them once.
   */
  typedListItemJson(opening: string): string {
    const json = this.json;
    if (json.startsWith(opening)) return `{${json.slice(opening.length)}`;
    if (this.itemText === undefined) {
      const { apiVersion: _apiVersion, kind: _kind, ...rest } = this.object;
      this.itemText = JSON.stringify(rest);
    }
    return this.itemText;
  }
}

export type StoredEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One change. `previous` is the object before it (absent for ADDED), used to rewind snapshots. */
export class StoredEvent {
  private encoded?: string;

  constructor(
    readonly resource: string,
    readonly key: string,
    readonly type: StoredEventType,
    readonly stored: StoredObject,
    readonly previous: StoredObject | undefined,
  ) {}

  get resourceVersion(): number {
    return this.stored.resourceVersion;
  }

  /** The newline-terminated watch line, built on first use and then shared by every watcher. */
  get line(): string {
    this.encoded ??= watchLine(this.type, this.stored.json);
    return this.encoded;
  }
}

export function watchLine(type: string, objectJson: string): string {
  return `{"type":"${type}","object":${objectJson}}\n`;
}

export type EventListener = (event: StoredEvent) => void;

interface ResourceTable {
  objects: Map<string, StoredObject>;
  keys: SortedKeys;
  /** Its objects are custom resources, written as unstructured objects. */
  unstructured: boolean;
}

export interface ObjectStoreOptions {
  /**
   * How many recent events a read can reach back over (default 50,000, enough to page through
   * 150,000 pods under heavy churn). Two windows of that size, as in a real cluster:
   * - etcd's compaction is global: a continue token or an exact LIST at an older resourceVersion
   *   expires once that many events of any resource have passed it;
   * - the apiserver's watch cache is per resource: a watch expires only when that many events of its
   *   own resource have passed. With one shared window, 2,000 pod changes/s made every other kind's
   *   watch 410 Gone after lagging a few seconds, which no apiserver does.
   */
  eventWindow?: number;
  /** Whether a resource's objects are custom resources (by storage key; default: none is). */
  unstructured?: (resource: string) => boolean;
}

export class ObjectStore {
  private revision = 0;
  /**
   * No resource's events at or before this are kept: a bulk load or a compaction moved every window
   * past it (each resource's own window may reach less far back).
   */
  private compactedThrough = 0;
  private readonly tables = new Map<string, ResourceTable>();
  /** Kept apart from the tables: a CRD's objects dropped with it leave their DELETED events behind. */
  private windows = new Map<string, EventWindow>();
  private readonly eventWindow: number;
  private readonly listeners = new Set<EventListener>();

  private readonly unstructured: (resource: string) => boolean;

  constructor(options: ObjectStoreOptions = {}) {
    this.eventWindow = Math.max(1, options.eventWindow ?? 50_000);
    this.unstructured = options.unstructured ?? (() => false);
  }

  /** The newest resourceVersion handed out (0 before the first write). */
  get resourceVersion(): number {
    return this.revision;
  }

  /** The oldest resourceVersion a watch of `resource` may start from without a 410. */
  oldestWatchableResourceVersion(resource: string): number {
    return Math.max(this.compactedThrough, this.windows.get(resource)?.retainedFrom ?? 0);
  }

  /**
   * The oldest resourceVersion a continue token or exact LIST may read at without a 410: etcd's
   * compaction, global. Never newer than any resource's watchable floor, so rewind succeeds.
   */
  get oldestReadableResourceVersion(): number {
    // Every resourceVersion after compactedThrough is an event's (only a bulk load moves the counter
    // without one, and it moves compactedThrough too), so the last eventWindow events are the last
    // eventWindow versions.
    return Math.max(this.compactedThrough, this.revision - this.eventWindow);
  }

  get(resource: string, key: string): StoredObject | undefined {
    return this.tables.get(resource)?.objects.get(key);
  }

  count(resource: string): number {
    return this.tables.get(resource)?.objects.size ?? 0;
  }

  /** Every stored object of a resource, in map order (cheap; no sorting). */
  values(resource: string): IterableIterator<StoredObject> {
    return this.table(resource).objects.values();
  }

  /** Keys in order, for paginated reads. */
  sortedKeys(resource: string): SortedKeys {
    return this.table(resource).keys;
  }

  /**
   * Stores `object` under a new resourceVersion, which it writes into `object.metadata`; the store
   * owns the object from here on. Emits ADDED or MODIFIED.
   */
  put(resource: string, key: string, object: KubeObject): StoredObject {
    const table = this.table(resource);
    const previous = table.objects.get(key);
    const revision = ++this.revision;
    object.metadata.resourceVersion = String(revision);
    const stored = new StoredObject(object, revision, table.unstructured);
    table.objects.set(key, stored);
    if (!previous) table.keys.add(key);
    this.record(new StoredEvent(resource, key, previous ? 'MODIFIED' : 'ADDED', stored, previous));
    return stored;
  }

  /**
   * Stores a new object without an event, for bulk seeding: nobody can be watching yet, and the
   * window is moved past it so a watch from before the load gets 410, as after a compaction.
   */
  load(resource: string, key: string, object: KubeObject): void {
    const table = this.table(resource);
    const revision = ++this.revision;
    object.metadata.resourceVersion = String(revision);
    if (!table.objects.has(key)) table.keys.add(key);
    table.objects.set(key, new StoredObject(object, revision, table.unstructured));
    this.compactedThrough = revision;
  }

  /**
   * Removes an object. Like the apiserver, the DELETED event carries the final state at a new
   * resourceVersion.
   */
  remove(resource: string, key: string): StoredObject | undefined {
    const table = this.tables.get(resource);
    const previous = table?.objects.get(key);
    if (!table || !previous) return undefined;
    const revision = ++this.revision;
    const object: KubeObject = {
      ...previous.object,
      metadata: { ...previous.object.metadata, resourceVersion: String(revision) },
    };
    const stored = new StoredObject(object, revision, table.unstructured);
    table.objects.delete(key);
    table.keys.remove(key);
    this.record(new StoredEvent(resource, key, 'DELETED', stored, previous));
    return stored;
  }

  /** The storage keys of every resource that has held objects. */
  resources(): string[] {
    return [...this.tables.keys()];
  }

  /** Drops every object of a resource silently (used when a CRD is deleted, after its objects). */
  dropResource(resource: string): void {
    this.tables.delete(resource);
  }

  /**
   * Events of `resource` after `resourceVersion`, oldest first; undefined if its window no longer
   * reaches back.
   */
  eventsSince(resource: string, resourceVersion: number): StoredEvent[] | undefined {
    if (resourceVersion < this.oldestWatchableResourceVersion(resource)) return undefined;
    return this.windows.get(resource)?.since(resourceVersion) ?? [];
  }

  /**
   * The objects of `resource` that changed after `resourceVersion`, mapped to their state at it
   * (undefined: did not exist then). Reading current state through this overlay gives a consistent
   * snapshot; undefined if the window no longer reaches back.
   */
  rewind(resource: string, resourceVersion: number): Map<string, StoredObject | undefined> | undefined {
    const events = this.eventsSince(resource, resourceVersion);
    if (!events) return undefined;
    const overlay = new Map<string, StoredObject | undefined>();
    for (let index = events.length - 1; index >= 0; index--)
      overlay.set(events[index].key, events[index].previous);
    return overlay;
  }

  /** Forgets every retained event, so a watch or snapshot at any older resourceVersion gets 410. */
  compact(): void {
    this.windows = new Map();
    this.compactedThrough = this.revision;
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private table(resource: string): ResourceTable {
    let table = this.tables.get(resource);
    if (!table) {
      table = { objects: new Map(), keys: new SortedKeys(), unstructured: this.unstructured(resource) };
      this.tables.set(resource, table);
    }
    return table;
  }

  private record(event: StoredEvent): void {
    let window = this.windows.get(event.resource);
    if (!window) this.windows.set(event.resource, (window = new EventWindow(this.eventWindow)));
    window.add(event);
    for (const listener of this.listeners) listener(event);
  }
}
