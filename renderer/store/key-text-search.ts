// Finds the keys of a mirror that hold a text, lower-cased, without reading 150,000 key strings. The
// filter bar's free text is looked for in each row's key ("namespace/name"); a scan of every key cost
// 10-20 ms of CPU per keystroke at 150,000 rows, nearly all of it memory reads (each key is its own
// string somewhere in the heap), for texts that few keys hold (`app i` on the way to `app in (x)`).
// Here the lower-cased keys are packed in chunks of 1,024, each chunk one string with an offsets
// table, and a text is found by indexOf over a few hundred long strings: a native scan of contiguous
// bytes that reads a key only where the text is.
//
// The chunks follow the mirror's change log in arrival order. An arrival is appended (a key is
// lower-cased once, when it arrives); a departure is remembered by key and skipped when found, and a
// key that departed and came back is found in both its entries and taken once. When such keys are
// an eighth of the entries, the chunks are built again from the rows.
import type { LogCursor, RowChangeLog } from './row-change-log';

const chunkSize = 1024;
/** Ends each packed key: a text holding it is never looked for (see find). */
const separator = '\n';

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
  /** Keys whose entries are all stale: they left and have not come back. */
  private departed = new Set<string>();
  /** Keys that left and came back: more than one of their entries is found. */
  private returned = new Set<string>();
  private entries = 0;
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
    this.catchUp();
    const found: string[] = [];
    const returned = this.returned;
    const taken = returned.size > 0 ? new Set<string>() : undefined;
    const take = (key: string): void => {
      if (this.departed.has(key)) return;
      if (taken !== undefined && returned.has(key)) {
        if (taken.has(key)) return;
        taken.add(key);
      }
      found.push(key);
    };
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

  /** Brings the chunks up to the change log's end (find does so first). */
  catchUp(): void {
    const changes = this.changes;
    if (this.cursor.position === changes.end) return;
    if (this.cursor.position < 0 || !changes.covers(this.cursor)) this.rebuild();
    else {
      changes.forEachRunSince(this.cursor.position, ({ oldRows, newRows, keys }, from) => {
        for (let slot = from; slot < oldRows.length; slot++) {
          if (newRows === undefined) this.departed.add(keys![slot]);
          else if (oldRows[slot] === undefined) {
            const key = newRows[slot].key;
            if (this.departed.delete(key)) this.returned.add(key);
            this.append(key);
          }
        }
      });
      if ((this.departed.size + this.returned.size) * 8 > this.entries) this.rebuild();
    }
    this.cursor.position = changes.end;
  }

  private rebuild(): void {
    this.chunks = [];
    this.open = { keys: [], lowered: [] };
    this.departed = new Set();
    this.returned = new Set();
    this.entries = 0;
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
