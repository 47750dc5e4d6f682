// The keys a replay's renderer holds, so that a recorded change a playback applies becomes an add, an
// update or a delete. A moment's keys come a chunk at a time and most moments are never played: a
// 150,000-pod moment costs main 0.1-0.3 s to hash into a set, so chunks are kept as they came and
// hashed only when playback needs them (all), or a slice per task ahead of that need (hashAhead).
//
// A moment sent as its difference from the one held (see ReplaySubscription) adds the keys it sends
// and removes those it deletes, with the older chunks still unhashed: a key removed meanwhile is
// skipped when they are hashed, unless a later chunk holds it again (the invariant: `removed` holds
// only keys no chunk added after their removal holds).
import type { Clock } from '../cache/clock';

/** Keys hashed in one task ahead of playback's need (see hashAhead): a few ms of main. */
const keysHashedPerTask = 5_000;

export class HeldKeys {
  /** Keys hashed so far: with `unhashed` (less `removed`), the keys held. */
  readonly hashed = new Set<string>();
  private unhashed: (readonly string[])[] = [];
  private unhashedCount = 0;
  /** Keys removed while chunks that may hold them were unhashed. */
  private readonly removed = new Set<string>();
  /** The count of keys held, when chunks may repeat keys (see sized). */
  private knownSize: number | undefined;
  /** A task hashing chunks a slice at a time is scheduled (see hashAhead). */
  private hashingAhead = false;

  /** How many keys are held. */
  get size(): number {
    if (this.unhashed.length === 0) return this.hashed.size;
    return this.knownSize ?? this.hashed.size + this.unhashedCount;
  }

  /** Whether chunks are waiting to be hashed. */
  get pending(): boolean {
    return this.unhashed.length > 0;
  }

  clear(): void {
    this.hashed.clear();
    this.unhashed = [];
    this.unhashedCount = 0;
    this.removed.clear();
    this.knownSize = undefined;
  }

  /** Adds a chunk of keys, hashed later. */
  add(keys: readonly string[]): void {
    if (keys.length === 0) return;
    this.knownSize = undefined;
    if (this.removed.size > 0) for (const key of keys) this.removed.delete(key);
    this.unhashed.push(keys);
    this.unhashedCount += keys.length;
  }

  /** Removes `keys` (those held, and any other). */
  remove(keys: readonly string[]): void {
    for (const key of keys) {
      this.hashed.delete(key);
      if (this.unhashed.length > 0) this.removed.add(key);
    }
  }

  /**
   * Says how many keys are held (until the next add): after a difference, chunks may repeat keys (a
   * row updated is sent again), and `size` would count them twice until hashed.
   */
  sized(count: number): void {
    this.knownSize = count;
  }

  /** Every key held, hashed now if they were not yet. */
  all(): Set<string> {
    while (this.unhashed.length > 0) this.hashChunk();
    return this.hashed;
  }

  /**
   * Hashes the chunks a slice per task, so that the first frame of a playback (or the first after a
   * jump) does not hash a whole moment in one go: 50,000 keys are 50-100 ms of main on a loaded
   * machine. Whatever is left when a change needs the keys, `all` hashes at once.
   */
  hashAhead(clock: Clock, stopped: () => boolean): void {
    if (this.hashingAhead || this.unhashed.length === 0) return;
    this.hashingAhead = true;
    const slice = () => {
      for (let hashed = 0; hashed < keysHashedPerTask && this.unhashed.length > 0;)
        hashed += this.hashChunk();
      this.hashingAhead = this.unhashed.length > 0 && !stopped();
      if (this.hashingAhead) clock.setTimeout(slice, 0);
    };
    clock.setTimeout(slice, 0);
  }

  /** Hashes the oldest chunk; returns how many keys it held. */
  private hashChunk(): number {
    const chunk = this.unhashed.shift()!;
    const removed = this.removed;
    if (removed.size === 0) for (const key of chunk) this.hashed.add(key);
    else for (const key of chunk) if (!removed.has(key)) this.hashed.add(key);
    this.unhashedCount -= chunk.length;
    if (this.unhashed.length === 0) {
      removed.clear();
      this.knownSize = undefined;
    }
    return chunk.length;
  }
}
