// What an object costs in the informer's cache, cut down as it enters (client-go's TransformFunc,
// which it documents as performance-sensitive): managedFields are dropped, the parts siblings have in
// common are shared (sibling-sharing.ts), and the strings a cluster repeats in every object (images,
// label values, condition types and reasons, timestamps written in the same second, node names) are
// shared, so 150,000 pods hold one copy of each instead of 150,000.
import type { TransformFunc } from '../cache/store';
import type { KubeObject } from '../../shared/kube/object';
import { SiblingSharing } from './sibling-sharing';
import { carryObjectText } from '../cache/object-text';
import { shardCount, stringShard } from '../history/string-shards';

/** Fields whose values are unique per object: interning them would only grow the table. */
const uniqueValueFields: ReadonlySet<string> = new Set([
  'uid',
  'name',
  'generateName',
  'resourceVersion',
  'containerID',
  'podIP',
  'ip',
]);
/** Longer strings (certificates, last-applied-configuration) are rarely repeated whole. */
const maximumInternedLength = 256;
/**
 * V8's JSON.parse already internalizes string values of at most 10 characters (one copy per isolate,
 * json-parser's kMaxInternalizedStringValueLength), so looking those up again would only cost time.
 */
const maximumParserInternedLength = 10;

/**
 * Shares repeated strings across every object it is given. The table keeps one entry per distinct
 * string it has seen outside uniqueValueFields: the cluster's vocabulary, not its size. It is split in
 * shards (string-shards.ts): one Map of 131,072 strings took 53 ms of the informers' thread's CPU to
 * grow (load 18), the longest iteration of the history bench's flood, whose timestamps are new at
 * every change; a shard of capacity / 64 grows at most ~2,000 entries at once.
 */
export class StringInterner {
  private readonly shards: Map<string, string>[] = [];
  private readonly shardCapacity: number;

  get size(): number {
    let size = 0;
    for (const shard of this.shards) size += shard.size;
    return size;
  }

  /** The most strings one of the table's Maps holds: what one insertion may have to rehash. */
  get largestShard(): number {
    let largest = 0;
    for (const shard of this.shards) largest = Math.max(largest, shard.size);
    return largest;
  }

  constructor(capacity = 250_000) {
    this.shardCapacity = Math.max(1, Math.floor(capacity / shardCount));
    for (let index = 0; index < shardCount; index++) this.shards.push(new Map());
  }

  /**
   * The table is bounded: values that are unique in time (timestamps, event messages) would otherwise
   * grow it for as long as the app runs. A full shard starts over; strings already shared stay shared.
   */
  intern(value: string): string {
    const shard = this.shards[stringShard(value)];
    const known = shard.get(value);
    if (known !== undefined) return known;
    if (shard.size >= this.shardCapacity) shard.clear();
    shard.set(value, value);
    return value;
  }

  /** Replaces, in place, every internable string under `value`; returns `value`. */
  internAll<T>(value: T, field = ''): T {
    if (typeof value === 'string') {
      if (
        value.length <= maximumParserInternedLength ||
        value.length > maximumInternedLength ||
        uniqueValueFields.has(field)
      )
        return value;
      return this.intern(value) as T;
    }
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) value[index] = this.internAll(value[index], field);
    } else if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      for (const key in record) record[key] = this.internAll(record[key], key);
    }
    return value;
  }
}

/** One feed's compactor: the informer's transform, and the same work done ahead of DeltaFIFO. */
export interface ObjectCompactor {
  /**
   * The informer's TransformFunc; an object compactAhead or compactFinal already did passes through as
   * it is, once.
   */
  readonly transform: TransformFunc;
  /**
   * Compacts a LIST item before it reaches DeltaFIFO (compacting-lister-watcher.ts) and remembers it.
   * Only these are remembered: a WeakSet insertion costs about a microsecond (the object's identity
   * hash is made then), a fifth of what compacting a watch event costs.
   */
  readonly compactAhead: TransformFunc;
  /**
   * Compacts the final state of a deleted object (a DELETED watch event) and remembers it. It leaves
   * the cache at once, so sharing its parts with its siblings would save nothing, and would make a
   * dying object its owner's template: only managedFields are dropped.
   */
  readonly compactFinal: TransformFunc;
}

/**
 * The compactor of one feed's informer: metadata rebuilt without managedFields, then the parts it
 * shares with its siblings taken from them and the remaining strings interned.
 */
export function createObjectCompactor(interner = new StringInterner()): ObjectCompactor {
  const siblings = new SiblingSharing(interner);
  // By the object's name (its shard, string-shards.ts): one WeakSet of a 150,000-pod list grew by
  // rehashing its 131,072 objects in one insertion, 27 ms of the main thread's CPU (68 ms of wall time
  // at load 12), among the longest tasks left while listing. The compactor never renames an object.
  const compactedAheadShards = Array.from({ length: shardCount }, () => new WeakSet<object>());
  const compactedAhead = (object: KubeObject) =>
    compactedAheadShards[stringShard(object.metadata.name ?? '')];
  // Sharing may hand back another object, equal as JSON: the text the object was parsed from goes
  // with it (object-text.ts), so the recorder copies that text rather than serializing the object.
  const compact = (object: KubeObject): KubeObject => {
    const output = siblings.share(withoutManagedFields(object));
    carryObjectText(object, output);
    return output;
  };
  return {
    transform(input) {
      const object = input as KubeObject | undefined;
      if (!object?.metadata) return input;
      // DeltaFIFO transforms each object once (never a Sync's: client-go's rule), so an object leaves
      // its set as it passes: the sets hold only objects on their way to the informer, not every
      // cached one. 150,000 cached pods in them were ephemeron tables each mark-compact of main's
      // heap had to clear in its pause. Were one transformed again, it would only be compacted again.
      if (compactedAhead(object).delete(object)) return input;
      return compact(object);
    },
    compactAhead: remembering(compact),
    compactFinal: remembering(withoutManagedFields),
  };

  /** A transform by `compactWith` whose outputs the compactor's later calls pass through as they are. */
  function remembering(compactWith: (object: KubeObject) => KubeObject): TransformFunc {
    return (input) => {
      const object = input as KubeObject | undefined;
      if (!object?.metadata || compactedAhead(object).has(object)) return input;
      const output = compactWith(object);
      compactedAhead(output).add(output);
      return output;
    };
  }
}

/**
 * `object` with metadata rebuilt without managedFields (a `delete` would turn metadata into a slow
 * dictionary-mode object, larger and slower to read).
 */
function withoutManagedFields(object: KubeObject): KubeObject {
  const metadata = object.metadata;
  if ('managedFields' in metadata) {
    const { managedFields: _managedFields, ...rest } = metadata;
    object.metadata = rest;
  }
  return object;
}
