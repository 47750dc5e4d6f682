// The keys of a mirror that lower-casing would change, kept from the mirror's change log. Free text is
// matched case-insensitively (text-match.ts), and a row's key ("namespace/name") was lower-cased for
// every key a text scan read: a new string for each of 150,000 keys per keystroke, though Kubernetes
// names and namespaces are nearly always lower-case DNS names already. A key outside this set is its
// own lower case, so the text is looked for in the key itself; keys come and go a few at a time, and
// a key is fixed for as long as its row exists.
import type { LogCursor, RowChangeLog } from './row-change-log';

export class MixedCaseKeys {
  private keys: Set<string> | undefined;
  private readonly cursor: LogCursor;

  constructor(private readonly changes: RowChangeLog) {
    this.cursor = changes.follow(-1);
  }

  /** The keys that differ from their lower case, as of now. */
  read(): ReadonlySet<string> {
    if (this.keys === undefined || !this.changes.covers(this.cursor)) this.rebuild();
    else if (this.cursor.position < this.changes.end) this.replay();
    this.cursor.position = this.changes.end;
    return this.keys!;
  }

  /** Stops following the change log. */
  release(): void {
    this.changes.release(this.cursor);
  }

  private rebuild(): void {
    const keys = new Set<string>();
    for (const key of this.changes.rows!.keys()) if (isMixedCase(key)) keys.add(key);
    this.keys = keys;
  }

  private replay(): void {
    const keys = this.keys!;
    this.changes.forEachRunSince(this.cursor.position, ({ oldRows, newRows, keys: deleted }, from) => {
      for (let slot = from; slot < oldRows.length; slot++) {
        if (newRows === undefined) keys.delete(deleted![slot]);
        else if (oldRows[slot] === undefined && isMixedCase(newRows[slot].key)) keys.add(newRows[slot].key);
      }
    });
  }
}

/** Only A-Z and characters outside ASCII can change when lower-cased. */
const mayChange = /[A-Z\u0080-\uffff]/;

/** Whether lower-casing changes `text`: for a DNS name, one scan that builds no string. */
export function isMixedCase(text: string): boolean {
  return mayChange.test(text) && text.toLowerCase() !== text;
}

/** `text.toLowerCase().includes(lowerText)`, lower-casing only a text that lower-casing can change. */
export function lowerCaseIncludes(text: string, lowerText: string): boolean {
  return mayChange.test(text) ? text.toLowerCase().includes(lowerText) : text.includes(lowerText);
}
