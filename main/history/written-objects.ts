// What a RecordingWriter remembers of the objects it wrote, per stream: each object's row id and what
// its next version is encoded against (its last change and text), which change is current for every
// live object (what a keyframe stores), and the siblings new objects start from. Memory is bounded:
// texts past maximumTextBytes and siblings past maximumSiblings are dropped, never the ids.
import type { CapturedObject } from './captured-object';
import type { SqliteDatabase } from './schema';
import type { ObjectVersions, Sibling } from './version-encoder';

/** An object as the writer knows it: its row id, and what encoding its next version needs. */
export interface ObjectState extends ObjectVersions {
  readonly id: number;
  /** The key it was last written under (a retired object's deletion names it). */
  key: string;
  /** Its last version's resourceVersion (a deletion with no known state repeats it). */
  resourceVersion: string;
}

export interface StreamState {
  readonly id: number;
  readonly objects: Map<string, ObjectState>;
  /** uid of each live object by key, to place a DeletedFinalStateUnknown that carries no object. */
  readonly uidByKey: Map<string, string>;
  /** object id -> change id of its current version, for live objects. */
  readonly current: Map<number, number>;
  /** The latest version written of any object from each template (see templateOf). */
  readonly siblings: Map<string, Sibling>;
  /** While a list is being applied: the objects it named (see RecordingWriter.beginList). */
  listed: Set<number> | undefined;
}

/** Templates remembered per stream before the map is cleared; a bound on memory, not a policy. */
const maximumSiblings = 10_000;

/**
 * Bytes of texts (ObjectState.lastText) kept for all objects before they are all dropped: a bound on
 * memory, not a policy. A pod's JSON without managedFields is 2-3 KB, so this holds about 200,000
 * pods', outside the JavaScript heap (the parsed tree per object kept before cost several times
 * that, on it). An object without its text writes its next version whole: correct, only larger.
 */
const maximumTextBytes = 512 * 1024 * 1024;

export class WrittenObjects {
  private readonly streams = new Map<number, StreamState>();
  /** Bytes held in every object's lastText: kept under maximumTextBytes. */
  private textBytes = 0;
  private readonly insertObject;
  private readonly findObject;

  constructor(database: SqliteDatabase) {
    this.insertObject = database.prepare(
      'INSERT INTO objects (stream, namespace, name, uid) VALUES (?, ?, ?, ?)',
    );
    this.findObject = database.prepare('SELECT id FROM objects WHERE uid = ? AND stream = ?');
  }

  /** Stream `id`'s state, empty when first opened: what it held in an earlier session is unknown. */
  open(id: number): StreamState {
    let state = this.streams.get(id);
    if (!state) {
      state = {
        id,
        objects: new Map(),
        uidByKey: new Map(),
        current: new Map(),
        siblings: new Map(),
        listed: undefined,
      };
      this.streams.set(id, state);
    }
    return state;
  }

  stream(id: number): StreamState {
    const state = this.streams.get(id);
    if (!state) throw new Error(`stream ${id} was not opened with stream()`);
    return state;
  }

  /** Forgets every version held: the next version of each object is written whole. */
  forgetVersions(): void {
    for (const stream of this.streams.values()) {
      stream.objects.clear();
      stream.siblings.clear();
    }
    this.textBytes = 0;
  }

  /** Forgets the siblings new objects are stored against (retention may have dropped their changes). */
  forgetSiblings(): void {
    for (const stream of this.streams.values()) stream.siblings.clear();
  }

  /** `uid`'s state in `stream`, its row found or inserted when the writer first meets it. */
  object(stream: StreamState, uid: string, key: string, object: CapturedObject | undefined): ObjectState {
    const known = stream.objects.get(uid);
    if (known) return known;
    const slash = key.indexOf('/');
    const namespace = object?.namespace || (slash === -1 ? '' : key.slice(0, slash));
    const name = object?.name || key.slice(slash + 1);
    const found = this.findObject.get(uid, stream.id) as { id: number } | undefined;
    const id = found?.id ?? Number(this.insertObject.run(stream.id, namespace, name, uid).lastInsertRowid);
    const state: ObjectState = { id, lastChange: 0, lastText: undefined, chain: 0, key, resourceVersion: '' };
    stream.objects.set(uid, state);
    return state;
  }

  /** Sets `state`'s text, dropping every object's (and every sibling) when they would exceed the bound. */
  keepText(state: ObjectState, text: Buffer | undefined): void {
    this.textBytes += (text?.length ?? 0) - (state.lastText?.length ?? 0);
    state.lastText = text;
    if (this.textBytes <= maximumTextBytes) return;
    for (const stream of this.streams.values()) {
      for (const other of stream.objects.values()) other.lastText = undefined;
      stream.siblings.clear();
    }
    this.textBytes = 0;
  }

  /** Remembers `sibling` as the latest version from `template`, within maximumSiblings. */
  keepSibling(stream: StreamState, template: string, sibling: Sibling): void {
    if (stream.siblings.size >= maximumSiblings) stream.siblings.clear();
    stream.siblings.set(template, sibling);
  }
}
