// One LIST of metrics.k8s.io read into columns as its items arrive: per object its key, namespace,
// scrape time and window; per container its name, CPU and memory. A poll of 150,000 pods used to keep
// every item (an object, its containers array, a usage object each, fresh strings) until the poll's
// sums and the recorder's numbering had read them, seconds later on a busy main thread: all of it was
// promoted to the old generation every 15 s, and the old generation's collections held the thread for
// 100-360 ms at a time at 150,000 pods. Here each item is dropped as soon as it is read. What a poll
// keeps is arrays of numbers (the collector does not trace into them), made at about their size, one
// array of keys that are the same strings poll after poll (MetricsKeys), and small tables of
// namespaces and container names. (Typed arrays were tried: their memory lies outside the heap, and
// V8 starts a full collection for every 64 MB of that, where the heap's own limit allows hundreds.)
import { parseGoDuration } from '../../shared/kube/duration';
import { parseQuantity } from '../../shared/kube/quantity';
import type { MetricsItem, MetricsList } from './metrics-list';
import { MetricsKeys } from './metrics-keys';

export interface MetricsUsage {
  /** Per object: "namespace/name" ("name" for a node), as the rows are keyed. */
  readonly keys: readonly string[];
  /** Per object: its namespace, as its place in `namespaceNames` ("" for a node). */
  readonly namespaces: readonly number[];
  readonly namespaceNames: readonly string[];
  /** Per object: its scrape's time (epoch ms), NaN when absent or unreadable. */
  readonly timestamps: readonly number[];
  /** Per object: its scrape's window (ms), NaN when absent or unreadable. */
  readonly windowsMs: readonly number[];
  /** Per object: its first container's row; `containerStarts[keys.length]` ends the last object's. */
  readonly containerStarts: readonly number[];
  /** Per container (a node: one, named ""): its name, as its place in `containerNames`. */
  readonly containers: readonly number[];
  readonly containerNames: readonly string[];
  /** Per container: its CPU in cores and its memory in bytes. */
  readonly cpu: readonly number[];
  readonly memory: readonly number[];
}

/** An object's name: its key without "namespace/". */
export function nameOf(usage: MetricsUsage, object: number): string {
  const namespace = usage.namespaceNames[usage.namespaces[object]!]!;
  const key = usage.keys[object]!;
  return namespace ? key.slice(namespace.length + 1) : key;
}

export class MetricsUsageBuilder {
  private readonly keys: string[];
  private readonly namespaces: number[];
  private readonly namespaceNames: string[] = [];
  private readonly namespaceIndex = new Map<string, number>();
  private readonly timestamps: number[];
  private readonly windowsMs: number[];
  private readonly containerStarts: number[];
  private readonly containers: number[];
  private readonly containerNames: string[] = [];
  private readonly containerIndex = new Map<string, number>();
  private readonly cpu: number[];
  private readonly memory: number[];
  private objects = 0;
  private rows = 0;
  // metrics-server stamps a scrape's items alike: each run of one text is parsed once.
  private timestampText: string | undefined;
  private timestamp = Number.NaN;
  private windowText: string | undefined;
  private windowMs = Number.NaN;

  /**
   * `expectedObjects`: how many objects the list likely holds (the last poll's count), so each column
   * is made once at about its size, not copied at every growth (a column past it grows as any array).
   */
  constructor(
    private readonly resource: 'pods' | 'nodes',
    private readonly keyStrings: MetricsKeys,
    expectedObjects = 0,
  ) {
    const objects = expectedObjects;
    const rows = resource === 'nodes' ? objects : objects * 2;
    this.keys = new Array<string>(objects);
    this.namespaces = new Array<number>(objects);
    this.timestamps = new Array<number>(objects);
    this.windowsMs = new Array<number>(objects);
    this.containerStarts = new Array<number>(objects + 1);
    this.containerStarts[0] = 0;
    this.containers = new Array<number>(rows);
    this.cpu = new Array<number>(rows);
    this.memory = new Array<number>(rows);
  }

  /** Reads one item of the list; an item without a name (or not an object) is left out. */
  add(item: MetricsItem | null): void {
    const name = item?.metadata?.name;
    if (!item || !name) return;
    const namespace = item.metadata?.namespace ?? '';
    const object = this.objects++;
    this.keys[object] = this.keyStrings.key(namespace, name);
    this.namespaces[object] = indexIn(this.namespaceIndex, this.namespaceNames, namespace);
    this.timestamps[object] = this.timestampOf(item.timestamp);
    this.windowsMs[object] = this.windowOf(item.window);
    if (this.resource === 'nodes') this.addContainer('', item.usage);
    else
      for (const container of item.containers ?? []) this.addContainer(container.name ?? '', container.usage);
    this.containerStarts[object + 1] = this.rows;
  }

  /** The columns read so far, each cut to what it holds. */
  finish(): MetricsUsage {
    const objects = this.objects;
    const rows = this.rows;
    this.keys.length = this.namespaces.length = this.timestamps.length = this.windowsMs.length = objects;
    this.containerStarts.length = objects + 1;
    this.containers.length = this.cpu.length = this.memory.length = rows;
    return {
      keys: this.keys,
      namespaces: this.namespaces,
      namespaceNames: this.namespaceNames,
      timestamps: this.timestamps,
      windowsMs: this.windowsMs,
      containerStarts: this.containerStarts,
      containers: this.containers,
      containerNames: this.containerNames,
      cpu: this.cpu,
      memory: this.memory,
    };
  }

  private addContainer(name: string, usage: Record<string, string> | undefined): void {
    const row = this.rows++;
    this.containers[row] = indexIn(this.containerIndex, this.containerNames, name);
    this.cpu[row] = parseQuantity(usage?.['cpu'] ?? '0') ?? 0;
    this.memory[row] = parseQuantity(usage?.['memory'] ?? '0') ?? 0;
  }

  private timestampOf(text: string | undefined): number {
    if (text !== this.timestampText) {
      this.timestampText = text;
      this.timestamp = text ? Date.parse(text) : Number.NaN;
    }
    return this.timestamp;
  }

  private windowOf(text: string | undefined): number {
    if (text !== this.windowText) {
      this.windowText = text;
      this.windowMs = (text ? parseGoDuration(text) : undefined) ?? Number.NaN;
    }
    return this.windowMs;
  }
}

/** `value`'s place in `table`, added at its end when new. */
function indexIn(index: Map<string, number>, table: string[], value: string): number {
  let at = index.get(value);
  if (at === undefined) index.set(value, (at = table.push(value) - 1));
  return at;
}

/** A list already read whole (a test's, or a reply decoded at once), as columns. */
export function metricsUsageOf(
  resource: 'pods' | 'nodes',
  list: MetricsList,
  keys = new MetricsKeys(),
): MetricsUsage {
  const builder = new MetricsUsageBuilder(resource, keys);
  for (const item of list.items ?? []) builder.add(item);
  return builder.finish();
}
