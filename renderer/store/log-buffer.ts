// The lines a log view holds: a ring of at most `capacity` lines in time order, kept as parallel
// columns (time, source, text) so a million lines cost the text plus 20 bytes each, not an object
// apiece. Lines from several sources arrive in batches, each sorted, the batches interleaving in
// time; append() merges them: a line goes after every held line with a time <= its own (so one
// source's lines keep their order), which is a push for nearly every line and a short shift for the
// few that arrive late. Past capacity the oldest lines are dropped, and counted, so the view can say so.
//
// Texts are packed by chunk (packed-texts.ts) so that a full buffer is a few thousand strings to the
// garbage collector, not a million.
//
// Positions: a line's `position` is dropped + its index, stable while lines are only appended at the
// end, so a search can scan just the new tail; `layout` changes when a line lands before the end (or
// on clear), telling such readers to start over.

import { PackedTexts } from './packed-texts';

export interface BufferedLine {
  time: number;
  source: number;
  text: string;
}

export class LogBuffer {
  private times: Float64Array;
  private sources: Int32Array;
  private texts: PackedTexts;
  /** Physical slot of logical index 0. */
  private head = 0;
  private count = 0;
  private droppedCount = 0;
  private layoutVersion = 0;
  private revisionNumber = 0;

  constructor(readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1)
      throw new Error('capacity must be a positive integer');
    const initial = Math.min(capacity, 1024);
    this.times = new Float64Array(initial);
    this.sources = new Int32Array(initial);
    this.texts = new PackedTexts(initial);
  }

  get length(): number {
    return this.count;
  }

  /** Lines dropped from the front since the buffer was made (or cleared). */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Changes whenever a line lands before the end or the buffer is cleared (see the file comment). */
  get layout(): number {
    return this.layoutVersion;
  }

  /** Changes with every mutation: what a view re-renders on. */
  get revision(): number {
    return this.revisionNumber;
  }

  time(index: number): number {
    return this.times[this.slot(index)];
  }

  source(index: number): number {
    return this.sources[this.slot(index)];
  }

  text(index: number): string {
    return this.texts.get(this.slot(index));
  }

  line(index: number): BufferedLine {
    const slot = this.slot(index);
    return { time: this.times[slot], source: this.sources[slot], text: this.texts.get(slot) };
  }

  append(lines: readonly BufferedLine[]): void {
    if (lines.length === 0) return;
    for (const line of lines) this.insert(line);
    this.texts.packAllBut(this.slot(this.count === this.times.length ? 0 : this.count));
    this.revisionNumber++;
  }

  clear(): void {
    this.head = 0;
    this.count = 0;
    this.droppedCount = 0;
    this.texts = new PackedTexts(this.times.length);
    this.layoutVersion++;
    this.revisionNumber++;
  }

  private insert(line: BufferedLine): void {
    if (this.count > 0 && line.time < this.time(this.count - 1)) return this.insertEarlier(line);
    if (this.count === this.capacity) this.dropOldest();
    else if (this.count === this.times.length) this.grow();
    this.write(this.count, line);
    this.count++;
  }

  /** A line older than the newest held: shifts the later lines up one slot. */
  private insertEarlier(line: BufferedLine): void {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.time(middle) <= line.time) low = middle + 1;
      else high = middle;
    }
    if (this.count === this.capacity) {
      // Full: the oldest line goes; a line older than all held is itself the one dropped.
      if (low === 0) {
        this.droppedCount++;
        return;
      }
      this.dropOldest();
      low--;
    } else if (this.count === this.times.length) this.grow();
    for (let index = this.count; index > low; index--) {
      const to = this.slot(index);
      const from = this.slot(index - 1);
      this.times[to] = this.times[from];
      this.sources[to] = this.sources[from];
      this.texts.set(to, this.texts.get(from));
    }
    this.write(low, line);
    this.count++;
    this.layoutVersion++;
  }

  /** The dropped line's slot is the next one written (the ring is full), so its text is not cleared. */
  private dropOldest(): void {
    this.head = (this.head + 1) % this.times.length;
    this.count--;
    this.droppedCount++;
  }

  private write(index: number, line: BufferedLine): void {
    const slot = this.slot(index);
    this.times[slot] = line.time;
    this.sources[slot] = line.source;
    this.texts.set(slot, line.text);
  }

  /**
   * Doubles the columns (up to capacity). The ring has never wrapped when it grows: lines are dropped
   * only once it holds `capacity`, and then it no longer grows; so logical index = slot, and the
   * columns are copied as they lie.
   */
  private grow(): void {
    const size = Math.min(this.capacity, this.times.length * 2);
    const times = new Float64Array(size);
    const sources = new Int32Array(size);
    times.set(this.times);
    sources.set(this.sources);
    this.times = times;
    this.sources = sources;
    this.texts = this.texts.resized(size);
  }

  private slot(index: number): number {
    const slot = this.head + index;
    return slot >= this.times.length ? slot - this.times.length : slot;
  }
}
