// Finds the keys of a mirror that hold a text, lower-cased, without reading 150,000 key strings. The
// filter bar's free text is looked for in each row's key ("namespace/name"); a scan of every key cost
// 10-20 ms of CPU per keystroke at 150,000 rows, nearly all of it memory reads (each key is its own
// string somewhere in the heap), for texts that few keys hold (`app i` on the way to `app in (x)`).
// Here the lower-cased keys are packed in chunks of 1,024, each chunk one string with an offsets
// table, and a text is found by indexOf over a few hundred long strings: a native scan of contiguous
// bytes that reads a key only where the text is.
//
// The chunks follow the mirror's change log in arrival order. An arrival is appended (a key is
// lower-cased once, when it arrives); a departure leaves the key's entry in place, stale, skipped when
// found, and a key that departed and came back is found in both its entries and taken once. Stale
// entries are dropped a few chunks at a time (compactStep, from idle time: warmTextSearch), each
// chunk's survivors packed again from its own text. Dropping them all at once, by building every
// chunk again from the rows whenever they were an eighth of the entries, was a 22-33 ms idle task
// every 11-33 s under 2,000 changes a second at 150,000 rows, and a burst of 150,000 new strings for
// the collector. A reader the log has left behind still builds from the rows.
import type { LogCursor, RowChangeLog } from './row-change-log';

const chunkSize = 1024;
/** Ends each packed key: a text holding it is never looked for (see find). */
const separator = '\n';
/** Past this share of stale entries, idle-time reads compact the chunks (a pass over all of them). */
const compactShare = 1 / 8;
/** Past this share, a find builds every chunk again first: a page never idle (playback) stays bounded. */
const rebuildShare = 1 / 2;
/** Entries lacking() reads before it may refuse a text by the share of them lacking it. */
const estimatedAfter = 8 * chunkSize;
/** Entries one compaction step reads: a few milliseconds at most, so no idle callback runs long. */
const entriesPerStep = 16 * chunkSize;

interface Chunk {
  readonly keys: readonly string[];
  /** The keys lower-cased, each followed by the separator. */
  readonly text: string;
  /** Where each key starts in `text`, and the text's length last. */
  readonly offsets: Uint32Array;
}

export class KeyTextSearch {
  private chunks: Chunk[] = [];
  private open: { keys: string[]; lowered: string[] } = { keys: [], lowered: [] };
  /** Keys whose rows left: every entry of theirs is stale. */
  private departed = new Set<string>();
  /**
   * Entries per key, for the keys not held exactly once by a live entry: the departed, and those that
   * left and came back (one entry live, the others stale). A key held once, and live, is not here.
   */
  private entryCounts = new Map<string, number>();
  /** Entries whose key departed or that another entry of the same key repeats. */
  private stale = 0;
  private entries = 0;
  /** The next sealed chunk a compaction pass reads; undefined between passes. */
  private compacting: number | undefined;
  private readonly cursor: LogCursor;

  constructor(private readonly changes: RowChangeLog) {
    this.cursor = changes.follow(-1);
  }

  /** Stops following the change log. */
  release(): void {
    this.changes.release(this.cursor);
  }

  /**
   * The keys, as of now, whose lower case holds `lowerText` (in no particular order); undefined for a
   * text holding the separator, which the caller then looks for key by key.
   */
  find(lowerText: string): string[] | undefined {
    if (lowerText.includes(separator) || lowerText === '') return undefined;
    this.replay();
    if (this.stale > this.entries * rebuildShare) this.rebuild();
    const found: string[] = [];
    const take = this.liveTaker(found);
    for (const { keys, text, offsets } of this.chunks) {
      let at = text.indexOf(lowerText);
      while (at >= 0) {
        const entry = entryAt(offsets, at);
        take(keys[entry]);
        // The rest of this key is skipped: a key is taken once however often it holds the text.
        at = text.indexOf(lowerText, offsets[entry + 1]);
      }
    }
    const { keys, lowered } = this.open;
    for (let entry = 0; entry < keys.length; entry++)
      if (lowered[entry].includes(lowerText)) take(keys[entry]);
    return found;
  }

  /**
   * The keys, as of now, whose lower case does not hold `lowerText` (in no particular order), while
   * they are at most `limit`; undefined past it (or when the entries read first say so: see below),
   * or for a text find() does not look for. The first letters typed are in nearly every key: the
   * few keys without them, with the rows whose labels hold them, are what a query leaves out of the
   * name order, where checking every key was a read of 150,000 strings (20-30 ms of CPU at that
   * size). Each chunk's matches are walked in order, and the entries between two matches are the
   * ones lacking the text.
   */
  lacking(lowerText: string, limit: number): string[] | undefined {
    if (lowerText.includes(separator) || lowerText === '') return undefined;
    this.replay();
    if (this.stale > this.entries * rebuildShare) this.rebuild();
    // Spans of entries lacking the text (chunk, first entry, end), counted before any key is read:
    // text that most keys lack (`app i`, asked whether a query is answered by exclusion) is refused
    // after an indexOf over the chunks that reach the limit, no entry read.
    const spans: number[] = [];
    let count = 0;
    let seen = 0;
    const { chunks } = this;
    for (let chunk = 0; chunk < chunks.length; chunk++) {
      const { keys, text, offsets } = chunks[chunk];
      let entry = 0;
      let at = text.indexOf(lowerText);
      while (at >= 0) {
        // Matches come in order: the entry holding this one is found by walking forward.
        let holder = entry;
        while (offsets[holder + 1] <= at) holder += 1;
        if (holder > entry) {
          spans.push(chunk, entry, holder);
          count += holder - entry;
        }
        entry = holder + 1;
        at = text.indexOf(lowerText, offsets[entry]);
      }
      if (entry < keys.length) {
        spans.push(chunk, entry, keys.length);
        count += keys.length - entry;
      }
      seen += keys.length;
      // Stale entries are counted too (which are stale is known only by reading keys), so `count`
      // bounds the live keys lacking the text from above, and past limit + stale it is refused for
      // sure. Under churn a third of the entries may be stale, so it is also refused once the share
      // lacking it among the entries seen is over twice the limit's: an estimate, whose mistakes
      // only send the query to the check of every key.
      if (count > limit + this.stale) return undefined;
      if (seen >= estimatedAfter && count > (2 * limit * seen) / this.entries) return undefined;
    }
    const lacking: string[] = [];
    // An entry of a key that came back holds the same text as its live one: either lacks the text.
    const take = this.liveTaker(lacking);
    for (let span = 0; span < spans.length; span += 3) {
      const keys = chunks[spans[span]].keys;
      for (let entry = spans[span + 1]; entry < spans[span + 2]; entry++) take(keys[entry]);
    }
    const { keys, lowered } = this.open;
    for (let entry = 0; entry < keys.length; entry++)
      if (!lowered[entry].includes(lowerText)) take(keys[entry]);
    return lacking.length > limit ? undefined : lacking;
  }

  /**
   * What find() and lacking() push a read entry's key through: a departed key's entries are skipped,
   * and a key with several entries (it left and came back) is pushed once.
   */
  private liveTaker(into: string[]): (key: string) => void {
    const { departed, entryCounts } = this;
    const taken = entryCounts.size > 0 ? new Set<string>() : undefined;
    return (key) => {
      if (departed.has(key)) return;
      if (taken !== undefined && entryCounts.has(key)) {
        if (taken.has(key)) return;
        taken.add(key);
      }
      into.push(key);
    };
  }

  /**
   * Brings the chunks up to the change log's end, and drops some stale entries when they are many
   * (one compaction step): what idle time calls.
   */
  catchUp(): void {
    this.replay();
    if (this.compacting === undefined && this.stale > this.entries * compactShare) this.compacting = 0;
    if (this.compacting !== undefined) this.compactStep();
  }

  /** Entries held as of now, stale ones included (for tests and measurements). */
  get size(): number {
    this.replay();
    return this.entries;
  }

  /** Stale entries held as of now (for tests and measurements). */
  get staleEntries(): number {
    this.replay();
    return this.stale;
  }

  private replay(): void {
    const changes = this.changes;
    if (this.cursor.position === changes.end) return;
    if (this.cursor.position < 0 || !changes.covers(this.cursor)) this.rebuild();
    else {
      changes.forEachRunSince(this.cursor.position, ({ oldRows, newRows, keys }, from) => {
        for (let slot = from; slot < oldRows.length; slot++) {
          if (newRows === undefined) this.depart(keys![slot]);
          else if (oldRows[slot] === undefined) this.arrive(newRows[slot].key);
        }
      });
    }
    this.cursor.position = changes.end;
  }

  private depart(key: string): void {
    // Its one live entry turns stale; the others were already.
    this.stale += 1;
    this.departed.add(key);
    if (!this.entryCounts.has(key)) this.entryCounts.set(key, 1);
  }

  private arrive(key: string): void {
    const count = this.entryCounts.get(key);
    if (count !== undefined) {
      // Back after leaving: its old entries stay stale, the new one is live.
      if (!this.departed.delete(key)) this.stale += 1;
      this.entryCounts.set(key, count + 1);
    }
    this.append(key);
  }

  /**
   * Packs the survivors of the next few sealed chunks again: a stale entry is dropped, and of a key
   * held more than once every entry but the last one met (which one is kept does not matter: each
   * holds the same key). Chunks are read in order, so a pass reads each once.
   */
  private compactStep(): void {
    const start = this.compacting!;
    const packedChunks: Chunk[] = [];
    let keys: string[] = [];
    let lowered: string[] = [];
    let read = 0;
    let end = start;
    for (; end < this.chunks.length && read < entriesPerStep; end++) {
      const chunk = this.chunks[end];
      read += chunk.keys.length;
      for (let entry = 0; entry < chunk.keys.length; entry++) {
        const key = chunk.keys[entry];
        if (this.dropped(key)) continue;
        keys.push(key);
        lowered.push(chunk.text.slice(chunk.offsets[entry], chunk.offsets[entry + 1] - separator.length));
        if (keys.length === chunkSize) {
          packedChunks.push(packed(keys, lowered));
          keys = [];
          lowered = [];
        }
      }
    }
    if (keys.length > 0) packedChunks.push(packed(keys, lowered));
    this.chunks.splice(start, end - start, ...packedChunks);
    const next = start + packedChunks.length;
    this.compacting = next < this.chunks.length ? next : undefined;
  }

  /** Whether compaction drops this entry of `key` (and counts it gone). */
  private dropped(key: string): boolean {
    const count = this.entryCounts.get(key);
    if (count === undefined) return false;
    const departed = this.departed.has(key);
    if (!departed && count === 1) return false;
    if (count === 1 || (!departed && count === 2)) this.entryCounts.delete(key);
    else this.entryCounts.set(key, count - 1);
    if (departed && count === 1) this.departed.delete(key);
    this.stale -= 1;
    this.entries -= 1;
    return true;
  }

  private rebuild(): void {
    this.chunks = [];
    this.open = { keys: [], lowered: [] };
    this.departed = new Set();
    this.entryCounts = new Map();
    this.stale = 0;
    this.entries = 0;
    this.compacting = undefined;
    for (const key of this.changes.rows!.keys()) this.append(key);
  }

  private append(key: string): void {
    const open = this.open;
    open.keys.push(key);
    open.lowered.push(key.toLowerCase());
    this.entries += 1;
    if (open.keys.length === chunkSize) {
      this.chunks.push(packed(open.keys, open.lowered));
      this.open = { keys: [], lowered: [] };
    }
  }
}

function packed(keys: readonly string[], lowered: readonly string[]): Chunk {
  const offsets = new Uint32Array(keys.length + 1);
  let length = 0;
  for (let entry = 0; entry < keys.length; entry++) {
    offsets[entry] = length;
    length += lowered[entry].length + separator.length;
  }
  offsets[keys.length] = length;
  return { keys, text: lowered.join(separator) + separator, offsets };
}

/** The entry whose span in the chunk's text holds position `at`: the last offset at or before it. */
function entryAt(offsets: Uint32Array, at: number): number {
  let low = 0;
  let high = offsets.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (offsets[middle] <= at) low = middle;
    else high = middle - 1;
  }
  return low;
}
