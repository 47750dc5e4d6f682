// A moment's rows as their difference from the rows the renderer already holds (a live subscription's,
// see SentRows): the rows that differ, and at the end the keys the moment lacks. A row is unchanged
// when the base holds the same version of the same object (uid and resourceVersion), which is how the
// query worker itself reuses a row from one moment to the next (moment-rows.ts): a row is a function
// of its object's version, save for a cell read off the clock (a running Job's duration), which a live
// row shows as of its last change too.
//
// The worker sends rows as JSON text (EncodedRows) that main passes on unparsed. Here each row's text
// is found by its start (every row is an object whose first member is "key", and no member of a row
// holds an object in an array whose first member is "key") and only its uid and resourceVersion are
// read, at known places before any nested value: no row is parsed on main.
import type { Row } from '../../shared/protocol/row';
import type { EncodedRows } from './encoded-rows';
import type { BaseRows } from './sent-rows';

const rowStart = ',{"key":';
const uidMember = ',"uid":"';
const versionMember = ',"resourceVersion":"';

export class MomentDifference {
  /** Rows of the moment the base already holds as they are (not sent). */
  unchanged = 0;

  /** `momentKeys` receives every key of the moment (the caller's set, emptied beforehand). */
  constructor(
    private readonly base: BaseRows,
    private readonly momentKeys: Set<string>,
  ) {}

  get seq(): number {
    return this.base.seq;
  }

  /** The rows of `rows` (the moment's next chunk) the base lacks or holds otherwise, in order. */
  changed(rows: readonly Row[] | EncodedRows): Row[] | EncodedRows {
    if ('json' in rows) return this.changedEncoded(rows);
    const changed: Row[] = [];
    for (const row of rows) {
      this.momentKeys.add(row.key);
      if (this.holds(row.key, row.uid, row.resourceVersion)) this.unchanged += 1;
      else changed.push(row);
    }
    return changed;
  }

  /**
   * The base's keys the moment lacks (every chunk given): the keys the snapshot deletes. A slice of
   * `keysPerTask` keys at a time, `nextTask` between them: 150,000 keys are 30-100 ms of main, too
   * long for one task. The base may change meanwhile (see SentRows): its keys as of its batch are
   * still the ones read. Releases the base.
   */
  async deletes(nextTask: () => Promise<void>, keysPerTask = 10_000): Promise<string[]> {
    const deletes: string[] = [];
    const momentKeys = this.momentKeys;
    let read = 0;
    try {
      for (const key of this.base.keys()) {
        if (!momentKeys.has(key)) deletes.push(key);
        if (++read % keysPerTask === 0) await nextTask();
      }
    } finally {
      this.base.release();
    }
    return deletes;
  }

  release(): void {
    this.base.release();
  }

  private holds(key: string, uid: string, resourceVersion: string): boolean {
    const row = this.base.get(key);
    return row !== undefined && row.uid === uid && row.resourceVersion === resourceVersion;
  }

  /**
   * Whether the base holds the row whose text is json[start, end) as it is: its uid and version are
   * compared where they stand in the text, without cutting them out (no string made per row).
   */
  private holdsText(key: string, json: string, start: number, end: number): boolean {
    const row = this.base.get(key);
    return (
      row !== undefined &&
      quotedIs(json, start, uidMember, end, row.uid) &&
      quotedIs(json, start, versionMember, end, row.resourceVersion)
    );
  }

  private changedEncoded(rows: EncodedRows): EncodedRows {
    const { json, keys } = rows;
    const texts: string[] = [];
    const changedKeys: string[] = [];
    const momentKeys = this.momentKeys;
    // Row i's text is json[start, end): it starts after "[" or ",", and ends where the next row starts.
    for (const key of keys) momentKeys.add(key);
    let start = 1;
    for (let index = 0; index < keys.length; index++) {
      const next = index + 1 < keys.length ? json.indexOf(rowStart, start) : json.length - 1;
      // Text not as projected here: the whole chunk is sent, which is always right (a row the base
      // holds as it is changes nothing when sent again).
      if (next < 0) return rows;
      if (!this.holdsText(keys[index], json, start, next)) {
        texts.push(json.slice(start, next));
        changedKeys.push(keys[index]);
      }
      start = next + 1;
    }
    this.unchanged += keys.length - changedKeys.length;
    if (changedKeys.length === keys.length) return rows;
    return { json: `[${texts.join(',')}]`, keys: changedKeys };
  }
}

/**
 * Whether the string member that `member` (its name, quotes and opening quote) opens after `from`
 * and before `before` is `value`, as raw text: a value with escapes never is, and its row is then
 * sent, which is always safe.
 */
function quotedIs(json: string, from: number, member: string, before: number, value: string): boolean {
  const at = json.indexOf(member, from);
  if (at < 0) return false;
  const valueStart = at + member.length;
  const valueEnd = valueStart + value.length;
  return valueEnd < before && json.charCodeAt(valueEnd) === quote && json.startsWith(value, valueStart);
}

const quote = 0x22;
