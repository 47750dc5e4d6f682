// One informer's cache recorded whole, as a list replacing what its stream held, a slice at a time:
// serializing 150,000 objects in one call held the main thread for a second or more. The record is
// still exact, the way client-go's Replace is: the cache is snapshotted at one instant (the array of
// its objects, which are never mutated, only replaced), and while the slices run the informer goes
// on changing it. A key already recorded has its later changes recorded as they come, after its
// Replaced; a key not recorded yet absorbs them, so that its Replaced, when its turn comes, carries
// the cache's object of that moment (or nothing, once deleted). Keys the snapshot did not hold are
// recorded last, the same way. So when the last slice is done, the stream's record (each key's
// Replaced, then its live changes) equals the cache at that instant: that is the list's keyframe.
// The snapshot is recorded in key order (KeyOrderedSnapshot), as a list comes from the API server:
// the recording process stores a list's texts best that way.
import type { KubeObject } from '../../shared/kube/object';
import { KeyOrderedSnapshot } from './key-ordered-snapshot';
import { ShardedKeySet } from './string-shards';

export interface CacheResyncHost {
  /** Stamps, serializes and queues `object` as a Replaced change of `key`; returns its JSON's bytes. */
  replaced(key: string, object: KubeObject): number;
  /** Runs `work` in a later turn of the event loop, after what is waiting (I/O, pops, messages). */
  nextTurn(work: () => void): void;
  /** Every key is recorded: the stream's record equals the cache now. */
  finished(): void;
}

export class CacheResync {
  /** The snapshot's objects, taken in key order. */
  private readonly ordered: KeyOrderedSnapshot;
  /**
   * Keys whose Replaced is queued (or which were gone before their turn): later changes are live.
   * Sharded: one Set of 150,000 pod keys would rehash 131,072 of them in one insertion (31 ms).
   */
  private readonly recorded = new ShardedKeySet();
  /** Keys not recorded yet that changed since the snapshot -> their object now (null: deleted). */
  private readonly changedSince = new Map<string, KubeObject | null>();
  /** Cancelled, or finished: no slice runs again, and nothing more is absorbed. */
  private stopped = false;

  constructor(
    /** The cache's objects at the instant the resync began. */
    snapshot: readonly KubeObject[],
    /** About how much JSON one turn writes (512 KiB is a few ms of JSON.stringify). */
    private readonly sliceBytes: number,
    private readonly host: CacheResyncHost,
  ) {
    this.ordered = new KeyOrderedSnapshot(snapshot);
  }

  /** Records the first slice now (a small cache is recorded before this returns), the rest in later turns. */
  start(): void {
    this.slice();
  }

  /**
   * A change the cache took to `key` after the snapshot (`object` null: deleted). True when it is
   * absorbed (the key's Replaced is still to come and will carry it); false when the key is recorded
   * already, so the change must be recorded now, as it came.
   */
  absorb(key: string, object: KubeObject | null): boolean {
    if (this.stopped || this.recorded.has(key)) return false;
    this.changedSince.set(key, object);
    return true;
  }

  /** Stops before the next slice; finished() is never called. */
  cancel(): void {
    this.stopped = true;
  }

  private slice(): void {
    if (this.stopped) return;
    // The snapshot's order is found a step a turn first (a small cache's at once).
    this.ordered.prepare();
    if (!this.ordered.ready) {
      this.host.nextTurn(() => this.slice());
      return;
    }
    let bytes = 0;
    // Cancelled from inside host.replaced (a reply served on this turn) ends the slice there too.
    while (!this.stopped && bytes < this.sliceBytes) {
      let key: string;
      let object: KubeObject | null;
      const listed = this.ordered.next();
      if (listed !== undefined) {
        key = keyOf(listed);
        const changed = this.changedSince.get(key);
        object = changed === undefined ? listed : changed;
      } else {
        // The snapshot is done: what remains are keys created since (and maybe deleted again).
        const next = this.changedSince.entries().next();
        if (next.done) {
          this.stopped = true;
          this.host.finished();
          return;
        }
        [key, object] = next.value;
      }
      this.changedSince.delete(key);
      this.recorded.add(key);
      if (object !== null) bytes += this.host.replaced(key, object);
    }
    if (!this.stopped) this.host.nextTurn(() => this.slice());
  }
}

/** The informer's key of `object` (client-go's MetaNamespaceKeyFunc). */
export function keyOf(object: KubeObject): string {
  const { namespace, name } = object.metadata;
  return namespace ? `${namespace}/${name ?? ''}` : (name ?? '');
}
