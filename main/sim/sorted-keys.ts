// A sorted array of object keys. LIST pages walk it from a continue key, so paging through 150,000
// pods never re-sorts the whole set. Additions are buffered and merged in on the next read, which
// keeps bulk seeding O(n log n) instead of one array splice per insert.

export class SortedKeys {
  private keys: string[] = [];
  private pending: string[] = [];

  get size(): number {
    this.settle();
    return this.keys.length;
  }

  /** Index of the first key >= `key` (or > `key` when `exclusive`). */
  lowerBound(key: string, exclusive = false): number {
    this.settle();
    let low = 0;
    let high = this.keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const candidate = this.keys[middle];
      if (candidate < key || (exclusive && candidate === key)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Adds a key that is not present (the store guarantees it). */
  add(key: string): void {
    this.pending.push(key);
  }

  remove(key: string): void {
    const index = this.lowerBound(key);
    if (this.keys[index] === key) this.keys.splice(index, 1);
  }

  at(index: number): string | undefined {
    this.settle();
    return this.keys[index];
  }

  private settle(): void {
    if (this.pending.length === 0) return;
    const added = this.pending.sort();
    this.pending = [];
    if (added.length < 8) {
      for (const key of added) {
        let low = 0;
        let high = this.keys.length;
        while (low < high) {
          const middle = (low + high) >>> 1;
          if (this.keys[middle] < key) low = middle + 1;
          else high = middle;
        }
        this.keys.splice(low, 0, key);
      }
      return;
    }
    const merged = new Array<string>(this.keys.length + added.length);
    let left = 0;
    let right = 0;
    let index = 0;
    while (left < this.keys.length && right < added.length)
      merged[index++] = this.keys[left] < added[right] ? this.keys[left++] : added[right++];
    while (left < this.keys.length) merged[index++] = this.keys[left++];
    while (right < added.length) merged[index++] = added[right++];
    this.keys = merged;
  }
}
