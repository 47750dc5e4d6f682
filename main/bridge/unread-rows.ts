// The objects a feed was given while none of its subscribers wanted rows (FeedSubscriber.wantsRows),
// by key: their rows are projected when the feed's rows are next read. A kind that is only recorded,
// or whose only subscriber (an AccessAwareFeed) serves nobody, projected every change of a churning
// cluster for no reader (replicasets and events: half of main's projection time at 2,000 changes/s).
// Invariant: a key held here has a stale row in the feed, or none; `added` counts the latter.
import type { KubeObject } from '../../shared/kube/object';

export class UnreadRows {
  private readonly objects = new Map<string, KubeObject>();
  private keysWithoutRow = 0;

  /** Keys held whose feed has no row yet: what the feed's count adds to its rows. */
  get added(): number {
    return this.keysWithoutRow;
  }

  /** Holds `object` as `key`'s newest, unprojected; `hasRow`: the feed holds an older row of it. */
  hold(key: string, object: KubeObject, hasRow: boolean): void {
    if (!hasRow && !this.objects.has(key)) this.keysWithoutRow++;
    this.objects.set(key, object);
  }

  /** Drops `key`'s object, if held; true when it was (then the feed's row of it, if any, is stale). */
  forget(key: string, hasRow: boolean): boolean {
    if (!this.objects.delete(key)) return false;
    if (!hasRow) this.keysWithoutRow--;
    return true;
  }

  /** Hands every held object to `project` and forgets them. */
  drain(project: (key: string, object: KubeObject) => void): void {
    if (this.objects.size === 0) return;
    for (const [key, object] of this.objects) project(key, object);
    this.objects.clear();
    this.keysWithoutRow = 0;
  }
}
