// The object keys of one resource in order. LIST pages walk them from a continue key, and churn picks
// one by its position, so both need positions, not just order. The keys are kept in sorted blocks of
// at most `blockSize`: adding or removing one key moves at most a block's worth of entries, where one
// sorted array of 150,000 pods moved up to all of them for every pod created or deleted under churn
// (a fifth to a quarter of the simulator's main thread under churn). Additions are buffered and
// merged in on the next read, which keeps bulk seeding O(n log n).
//
// Invariants: every block is non-empty and sorted; the last key of each block is below the first of
// the next; `starts[i]` is the position of blocks[i][0] in the whole order whenever `startsStale` is
// false.

/** The most keys a block holds; a fuller block splits in two. */
const blockSize = 512;
/** A block is filled to this when the keys are laid out afresh, so the next inserts do not split at once. */
const freshBlockSize = 384;

export class SortedKeys {
  private blocks: string[][] = [];
  private starts: number[] = [];
  private startsStale = false;
  private count = 0;
  private pending: string[] = [];

  get size(): number {
    this.settle();
    return this.count;
  }

  /** Index of the first key >= `key` (or > `key` when `exclusive`). */
  lowerBound(key: string, exclusive = false): number {
    this.settle();
    const blockIndex = this.blockFor(key, exclusive);
    if (blockIndex === this.blocks.length) return this.count;
    return this.startOf(blockIndex) + boundIn(this.blocks[blockIndex], key, exclusive);
  }

  /** Adds a key that is not present (the store guarantees it). */
  add(key: string): void {
    this.pending.push(key);
  }

  remove(key: string): void {
    this.settle();
    const blockIndex = this.blockFor(key, false);
    const block = this.blocks[blockIndex];
    if (!block) return;
    const index = boundIn(block, key, false);
    if (block[index] !== key) return;
    block.splice(index, 1);
    if (block.length === 0) this.blocks.splice(blockIndex, 1);
    this.count--;
    this.startsStale = true;
  }

  at(index: number): string | undefined {
    this.settle();
    if (!(index >= 0 && index < this.count)) return undefined;
    const starts = this.currentStarts();
    let low = 0;
    let high = starts.length - 1;
    // The last block starting at or before `index`.
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (starts[middle] <= index) low = middle;
      else high = middle - 1;
    }
    return this.blocks[low][index - starts[low]];
  }

  /** The first block whose last key is >= `key` (> when `exclusive`); blocks.length when none is. */
  private blockFor(key: string, exclusive: boolean): number {
    let low = 0;
    let high = this.blocks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const block = this.blocks[middle];
      const last = block[block.length - 1];
      if (last < key || (exclusive && last === key)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private startOf(blockIndex: number): number {
    return this.currentStarts()[blockIndex];
  }

  private currentStarts(): number[] {
    if (this.startsStale) {
      const starts = new Array<number>(this.blocks.length);
      let position = 0;
      for (let index = 0; index < this.blocks.length; index++) {
        starts[index] = position;
        position += this.blocks[index].length;
      }
      this.starts = starts;
      this.startsStale = false;
    }
    return this.starts;
  }

  private settle(): void {
    if (this.pending.length === 0) return;
    const added = this.pending.sort();
    this.pending = [];
    // Many keys at once (seeding, a burst of creates): merge everything and lay the blocks out again.
    if (added.length * 16 > this.count) this.layOut(merge(this.blocks.flat(), added));
    else for (const key of added) this.insert(key);
  }

  private insert(key: string): void {
    this.count++;
    this.startsStale = true;
    if (this.blocks.length === 0) {
      this.blocks.push([key]);
      return;
    }
    // A key past every block's last goes at the end of the last block.
    const blockIndex = Math.min(this.blockFor(key, false), this.blocks.length - 1);
    const block = this.blocks[blockIndex];
    block.splice(boundIn(block, key, false), 0, key);
    if (block.length > blockSize) this.blocks.splice(blockIndex + 1, 0, block.splice(block.length >>> 1));
  }

  private layOut(keys: string[]): void {
    const blocks: string[][] = [];
    for (let start = 0; start < keys.length; start += freshBlockSize)
      blocks.push(keys.slice(start, start + freshBlockSize));
    this.blocks = blocks;
    this.count = keys.length;
    this.startsStale = true;
  }
}

/** Index in `block` of its first key >= `key` (> when `exclusive`). */
function boundIn(block: readonly string[], key: string, exclusive: boolean): number {
  let low = 0;
  let high = block.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const candidate = block[middle];
    if (candidate < key || (exclusive && candidate === key)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Two sorted arrays as one. */
function merge(left: readonly string[], right: readonly string[]): string[] {
  const merged = new Array<string>(left.length + right.length);
  let leftIndex = 0;
  let rightIndex = 0;
  let index = 0;
  while (leftIndex < left.length && rightIndex < right.length)
    merged[index++] = left[leftIndex] < right[rightIndex] ? left[leftIndex++] : right[rightIndex++];
  while (leftIndex < left.length) merged[index++] = left[leftIndex++];
  while (rightIndex < right.length) merged[index++] = right[rightIndex++];
  return merged;
}
