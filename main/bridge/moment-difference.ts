// A moment's rows as their difference from the rows the renderer already holds (a live subscription's,
// see SentRows): the rows that differ, and at the end the keys the moment lacks. A row is unchanged
// when the base holds the same version of the same object (uid and resourceVersion), which is how the
// query worker itself reuses a row from one moment to the next (moment-rows.ts): a row is a function
// of its object's version, save for a cell read off the clock (a running Job's duration), which a live
// row shows as of its last change too.
//
// The worker sends rows as JSON text (EncodedRows) that main passes on unparsed: tuples, each
// [key, uid, name, namespace, resourceVersion, ...] (row-tuples.ts). Here each row's text is found by
// its start, "[" and its key's JSON (known: the chunk lists its keys), and only its uid and
// resourceVersion are read, at known places before any nested value: no row is parsed on main. A
// string's text holds no unescaped quote, and a tuple's only arrays are the owners (of objects), the
// cells (whose first is the name, written 0 or boxed, see replay-layout.ts) and boxed cells (one
// value, then "]"): so "," "[" key "," inside a row is the next row's start. A key with escapes is
// not found as raw text: its chunk is sent whole.
import type { Row } from '../../shared/protocol/row';
import type { EncodedRows } from './encoded-rows';
import type { BaseRows } from './sent-rows';

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
   * Whether the base holds the row of `key` whose uid's text starts at json[at] as it is: its uid and
   * version are compared where they stand in the text, without cutting them out (no string made per
   * row).
   */
  private holdsText(key: string, json: string, at: number): boolean {
    const row = this.base.get(key);
    if (row === undefined) return false;
    // [key,"uid","name","namespace","resourceVersion",...
    if (!quotedIs(json, at, row.uid)) return false;
    const name = afterRawString(json, at + row.uid.length + 3);
    const namespace = afterRawString(json, name + 1);
    return name > 0 && namespace > 0 && quotedIs(json, namespace + 1, row.resourceVersion);
  }

  private changedEncoded(rows: EncodedRows): EncodedRows {
    const { json, keys } = rows;
    const texts: string[] = [];
    const changedKeys: string[] = [];
    const momentKeys = this.momentKeys;
    for (const key of keys) momentKeys.add(key);
    // Row i's text is json[start, next): it starts after "[" or ",", and ends where the next row starts.
    let start = 1;
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index];
      // Where the row's uid starts, after "[", its key and ",".
      const uid = start + key.length + 4;
      const next = index + 1 < keys.length ? rowStart(json, keys[index + 1], uid) : json.length - 1;
      // Text not as projected here, or a key with escapes: the whole chunk is sent, which is always
      // right (a row the base holds as it is changes nothing when sent again).
      if (next < 0 || json.charCodeAt(start) !== openBracket || !quotedIs(json, start + 1, key)) return rows;
      if (!this.holdsText(key, json, uid)) {
        texts.push(json.slice(start, next));
        changedKeys.push(key);
      }
      start = next + 1;
    }
    this.unchanged += keys.length - changedKeys.length;
    if (changedKeys.length === keys.length) return rows;
    return { json: `[${texts.join(',')}]`, layout: rows.layout, keys: changedKeys };
  }
}

/**
 * Where the row of `key` starts in `json` from `from` on: the "," before `[` and its key as raw text
 * (then ","); -1 when it is not found. Found with the key alone, so no string is made per row.
 */
function rowStart(json: string, key: string, from: number): number {
  for (let at = json.indexOf(key, from); at >= 0; at = json.indexOf(key, at + 1)) {
    const end = at + key.length;
    if (
      json.charCodeAt(at - 1) === quote &&
      json.charCodeAt(at - 2) === openBracket &&
      json.charCodeAt(at - 3) === comma &&
      json.charCodeAt(end) === quote &&
      json.charCodeAt(end + 1) === comma
    )
      return at - 3;
  }
  return -1;
}

/**
 * Whether the JSON string at json[at] is `value` followed by ",", as raw text: a value with escapes
 * never is, and its row is then sent, which is always safe.
 */
function quotedIs(json: string, at: number, value: string): boolean {
  const end = at + value.length + 1;
  return (
    json.charCodeAt(at) === quote &&
    json.startsWith(value, at + 1) &&
    json.charCodeAt(end) === quote &&
    json.charCodeAt(end + 1) === comma
  );
}

/**
 * Where the JSON string starting at json[at] ends (the index after its closing quote), or -1 when it
 * is not there or holds an escape before its end (its row is then sent).
 */
function afterRawString(json: string, at: number): number {
  if (at < 0 || json.charCodeAt(at) !== quote) return -1;
  const end = json.indexOf('"', at + 1);
  if (end < 0 || json.charCodeAt(end - 1) === backslash) return -1;
  return end + 1;
}

const quote = 0x22;
const comma = 0x2c;
const openBracket = 0x5b;
const backslash = 0x5c;
