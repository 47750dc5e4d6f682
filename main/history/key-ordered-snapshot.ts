// A cache's snapshot taken in key order (namespace, then name), an object at a time, for a whole
// cache's record (CacheResync). An informer's cache lists its objects shard by shard (ShardedMap),
// each shard in the order its keys came (a list's: sorted), so a record in that order interleaved
// every namespace: the recording process, which deflates a list's texts together in blocks of one
// namespace (change-blocks.ts), cut dozens of small blocks at every commit, and pods of one
// ReplicaSet, whose texts are mostly alike, fell into different blocks. At 150,000 embedded-cluster
// pods (recording-profile.ts --list-order) the shard order cost the process 72-77 us of CPU and 226
// bytes a pod, key order 64-65 us and 168 bytes; a moment read in key order then walks a
// namespace's blocks one after another instead of inflating each again and again.
//
// The snapshot is a few sorted runs (one per shard, plus keys added since), so it is merged, not
// sorted: its runs are found a step at a time (one comparison an object), then each next() takes the
// least head of the runs from a binary heap. No turn of the informers' thread pays for the whole
// order: a sort of 150,000 objects took 160-390 ms of it here, each next() of the merge 0.5-1.2 us.
import type { KubeObject } from '../../shared/kube/object';

/**
 * Objects one prepare() reads for runs: one comparison each (0.15-0.8 us here, the machine quiet or
 * loaded), and a heap insertion per run found (a snapshot in no order at all is a run every two
 * objects). A few milliseconds of the thread at most; 150,000 pods take 37 steps.
 */
export const objectsPreparedPerStep = 4_096;

export class KeyOrderedSnapshot {
  /** Objects read for runs so far. */
  private scanned = 0;
  /** Where the run being read began. */
  private runStart = 0;
  /** Per run: the index of its next object, and its end. */
  private readonly cursors: number[] = [];
  private readonly ends: number[] = [];
  /** Runs with objects left, as a binary heap by their next object's key. */
  private readonly heap: number[] = [];

  constructor(private readonly snapshot: readonly KubeObject[]) {}

  /** Every run is found: next() may be called. */
  get ready(): boolean {
    return this.scanned === this.snapshot.length;
  }

  /** Reads the next objectsPreparedPerStep objects for runs (nothing once ready). */
  prepare(): void {
    const snapshot = this.snapshot;
    const end = Math.min(snapshot.length, this.scanned + objectsPreparedPerStep);
    for (let index = Math.max(1, this.scanned); index < end; index++)
      if (compareKeys(snapshot[index - 1]!, snapshot[index]!) > 0) {
        this.addRun(this.runStart, index);
        this.runStart = index;
      }
    this.scanned = end;
    if (end === snapshot.length && end > this.runStart) {
      this.addRun(this.runStart, end);
      this.runStart = end;
    }
  }

  /** The object with the least key not taken yet; undefined once all are taken. */
  next(): KubeObject | undefined {
    if (!this.ready) throw new Error('KeyOrderedSnapshot.next before its runs are all found');
    const heap = this.heap;
    if (heap.length === 0) return undefined;
    const run = heap[0]!;
    const object = this.snapshot[this.cursors[run]!]!;
    if (++this.cursors[run]! === this.ends[run]) {
      const last = heap.pop()!;
      if (heap.length === 0) return object;
      heap[0] = last;
    }
    this.siftDown(0);
    return object;
  }

  private addRun(start: number, end: number): void {
    const run = this.cursors.push(start) - 1;
    this.ends.push(end);
    const heap = this.heap;
    let at = heap.push(run) - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.less(run, heap[parent]!)) break;
      heap[at] = heap[parent]!;
      at = parent;
    }
    heap[at] = run;
  }

  private siftDown(from: number): void {
    const heap = this.heap;
    const run = heap[from]!;
    let at = from;
    for (;;) {
      let least = 2 * at + 1;
      if (least >= heap.length) break;
      if (least + 1 < heap.length && this.less(heap[least + 1]!, heap[least]!)) least++;
      if (!this.less(heap[least]!, run)) break;
      heap[at] = heap[least]!;
      at = least;
    }
    heap[at] = run;
  }

  /** Run `left`'s next object comes before run `right`'s (an equal key: the earlier run first). */
  private less(left: number, right: number): boolean {
    const order = compareKeys(this.snapshot[this.cursors[left]!]!, this.snapshot[this.cursors[right]!]!);
    return order < 0 || (order === 0 && left < right);
  }
}

/** By namespace, then name: the informer's key order, namespaces kept together. */
function compareKeys(left: KubeObject, right: KubeObject): number {
  const leftNamespace = left.metadata.namespace ?? '';
  const rightNamespace = right.metadata.namespace ?? '';
  if (leftNamespace !== rightNamespace) return leftNamespace < rightNamespace ? -1 : 1;
  const leftName = left.metadata.name ?? '';
  const rightName = right.metadata.name ?? '';
  return leftName === rightName ? 0 : leftName < rightName ? -1 : 1;
}
