// Writes changes, keyframes and marks into a recording, one transaction per batch. Holds, per stream,
// what the next write needs: each object's id, its last change, that version and the text its payload
// held (to deflate the next one against), and which change is current for every live object (what a
// keyframe stores).
import type { DeltaType } from '../cache/delta';
import type { KubeObject } from '../../shared/kube/object';
import { encodeMembers } from './object-codec';
import type { RecordingMark, StreamIdentity } from './recorded-change';
import { encodeDeltaType } from './recorded-change';
import type { RowFrameOptions } from './row-frame-writer';
import { RowFrameWriter } from './row-frame-writer';
import type { SqliteDatabase } from './schema';
import { writeMeta } from './schema';
import type { ObjectVersions, Sibling } from './version-encoder';
import { encodeNextVersion, templateOf } from './version-encoder';

/** One delta to write; `object` undefined only for a DeletedFinalStateUnknown with no known state. */
export interface ChangeToWrite {
  readonly time: number;
  readonly stream: number;
  readonly type: DeltaType;
  readonly finalStateUnknown: boolean;
  readonly object: KubeObject | undefined;
  /** "namespace/name" (or "name"); names the object when `object` is undefined. */
  readonly key: string;
  /** The object's uid when `object` may not carry it (a deletion with no known state, an export). */
  readonly uid?: string;
}

/** An object as the writer knows it: its row id, and what encoding its next version needs. */
interface ObjectState extends ObjectVersions {
  readonly id: number;
}

interface StreamState {
  readonly id: number;
  readonly objects: Map<string, ObjectState>;
  /** uid of each live object by key, to place a DeletedFinalStateUnknown that carries no object. */
  readonly uidByKey: Map<string, string>;
  /** object id -> change id of its current version, for live objects. */
  readonly current: Map<number, number>;
  /** The latest version written of any object from each template (see templateOf). */
  readonly siblings: Map<string, Sibling>;
  /** While a list is being applied: the objects it named (see beginList). */
  listed: Set<number> | undefined;
}

/** Templates remembered per stream before the map is cleared; a bound on memory, not a policy. */
const maximumSiblings = 10_000;

/**
 * Bytes of stored texts (ObjectState.lastStored) kept for all objects before they are all dropped: a
 * bound on memory, not a policy. A pod's is a few hundred bytes (a patch; its JSON after a full
 * version), so this holds about 100,000 objects'. An object without its text writes its next version
 * as a patch against its canonical JSON, recomputed from the cache's object: correct, only slower.
 */
const maximumStoredBytes = 64 * 1024 * 1024;

export interface RecordingWriterOptions {
  /**
   * A full version every this many changes of one object (default 12; 0: every version whole).
   * Reading a version decodes its chain, so this bounds what rebuilding a moment costs per object: at
   * 12, a 1,000-pod moment of a 1,000,000-change recording rebuilds in 250-340 ms (issue 7's bound is
   * 500), for 12% fewer bytes per change than at 8 (214 against 243) and a few percent less CPU (a full
   * pod version costs several patches' worth of both). At 16, rebuilds ran past 500 ms.
   */
  fullVersionEvery?: number;
  /** The row frames' cadence (see RowFrameWriter); false: none. */
  rowFrames?: RowFrameOptions | false;
}

export class RecordingWriter {
  private readonly streams = new Map<number, StreamState>();
  private readonly fullVersionEvery: number;
  private touched: ObjectState[] = [];
  /** Bytes held in every object's lastStored: kept under maximumStoredBytes. */
  private storedBytes = 0;
  private lastChangeId: number;
  private readonly insertChange;
  private readonly insertObject;
  private readonly findObject;
  private readonly rowFrames: RowFrameWriter | undefined;

  constructor(
    readonly database: SqliteDatabase,
    options: RecordingWriterOptions = {},
  ) {
    this.fullVersionEvery = options.fullVersionEvery ?? 12;
    this.lastChangeId =
      (database.prepare('SELECT max(id) AS id FROM changes').get() as { id: number | null }).id ?? 0;
    this.insertChange = database.prepare(
      'INSERT INTO changes (time, stream, object, type, resource_version, base, hint, encoding, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.insertObject = database.prepare(
      'INSERT INTO objects (stream, namespace, name, uid) VALUES (?, ?, ?, ?)',
    );
    this.findObject = database.prepare('SELECT id FROM objects WHERE uid = ? AND stream = ?');
    if (options.rowFrames !== false) this.rowFrames = new RowFrameWriter(database, options.rowFrames);
  }

  /**
   * The id of `identity`'s stream, created if new. Its in-memory state starts empty: what it held in
   * an earlier session is unknown now, so the caller writes an empty keyframe (resetStream) before
   * its first changes.
   */
  stream(identity: StreamIdentity): number {
    this.database
      .prepare('INSERT INTO streams (gvr, scope) VALUES (?, ?) ON CONFLICT (gvr, scope) DO NOTHING')
      .run(identity.gvr, identity.scope);
    const { id } = this.database
      .prepare('SELECT id FROM streams WHERE gvr = ? AND scope = ?')
      .get(identity.gvr, identity.scope) as { id: number };
    if (!this.streams.has(id))
      this.streams.set(id, {
        id,
        objects: new Map(),
        uidByKey: new Map(),
        current: new Map(),
        siblings: new Map(),
        listed: undefined,
      });
    this.rowFrames?.stream(id, identity.gvr);
    return id;
  }

  /** Forgets every version held in memory: the next version of each object is written whole. */
  forgetVersions(): void {
    for (const stream of this.streams.values()) {
      stream.objects.clear();
      stream.siblings.clear();
    }
    this.touched = [];
    this.storedBytes = 0;
    // Its live objects may name changes a rolled-back batch took away.
    this.rowFrames?.resetAll();
  }

  /**
   * Forgets the stored text of `objects`' last versions: retention rewrote a version of each whole,
   * so a chainedPatch on the text kept here would not decode. Their next versions are stored against
   * their JSON, which the rewrite keeps.
   */
  forgetStoredTexts(objects: ReadonlySet<number>): void {
    for (const stream of this.streams.values())
      for (const state of stream.objects.values())
        if (objects.has(state.id)) this.keepStored(state, undefined);
  }

  /** Forgets which objects `stream` holds (they are unknown until the next list). */
  resetStream(stream: number): void {
    const state = this.requireStream(stream);
    state.current.clear();
    state.uidByKey.clear();
    this.rowFrames?.reset(stream);
  }

  /** A list starts replacing `stream`'s cache: remembers which objects it names until retireUnlisted. */
  beginList(stream: number): void {
    this.requireStream(stream).listed = new Set();
  }

  /**
   * The list begun by beginList is applied: every live object it did not name is gone. The informer
   * is keyed by name, so when a name came back with a new uid while the watch was down, the list
   * replaced the old uid's object without a deletion; that old uid is retired here, at the moment of
   * the list that revealed it, as a deletion whose final state is unknown. Returns how many retired.
   */
  retireUnlisted(stream: number, time: number): number {
    const state = this.requireStream(stream);
    const listed = state.listed;
    state.listed = undefined;
    if (!listed) return 0;
    let retired = 0;
    for (const [uid, object] of [...state.objects]) {
      if (listed.has(object.id) || !state.current.has(object.id)) continue;
      const metadata = object.lastObject?.metadata;
      const key = metadata?.namespace
        ? `${metadata.namespace}/${metadata.name ?? ''}`
        : (metadata?.name ?? uid);
      this.writeChange({
        time,
        stream,
        type: 'Deleted',
        finalStateUnknown: true,
        object: object.lastObject,
        key,
        uid,
      });
      retired++;
    }
    return retired;
  }

  /** Runs `work` in one transaction: all of it reaches the disk, or none. */
  transaction(work: () => void): void {
    this.database.transaction(work)();
  }

  writeChange(change: ChangeToWrite): number {
    const stream = this.requireStream(change.stream);
    const uid = change.uid || change.object?.metadata.uid || stream.uidByKey.get(change.key) || change.key;
    const object = change.object ?? stream.objects.get(uid)?.lastObject;
    const state = this.objectState(stream, uid, change.key, object);
    const { base, hint, encoding, payload, stored } = encodeNextVersion(
      state,
      object,
      stream.siblings,
      this.fullVersionEvery,
    );
    const deleted = change.type === 'Deleted';
    const result = this.insertChange.run(
      change.time,
      stream.id,
      state.id,
      encodeDeltaType(change.type, change.finalStateUnknown),
      object?.metadata.resourceVersion ?? '',
      base,
      hint ?? null,
      encoding,
      payload,
    );
    const id = Number(result.lastInsertRowid);
    this.lastChangeId = id;
    state.lastChange = id;
    state.lastObject = object;
    if (stored !== undefined) this.keepStored(state, stored);
    this.touched.push(state);
    this.rowFrames?.changed(stream.id, state.id, id, deleted ? undefined : object);
    if (deleted) {
      stream.current.delete(state.id);
      // The key may already name the object's successor (a uid retired after a relist).
      if (stream.uidByKey.get(change.key) === uid) stream.uidByKey.delete(change.key);
      stream.objects.delete(uid);
      this.keepStored(state, undefined);
    } else {
      stream.current.set(state.id, id);
      stream.listed?.add(state.id);
      stream.uidByKey.set(change.key, uid);
      // Only shallow versions serve as siblings: objects built on them start with room to grow.
      if (object && state.chain <= this.fullVersionEvery / 4) {
        if (stream.siblings.size >= maximumSiblings) stream.siblings.clear();
        // Its canonical JSON, when this write computed it (a new object, a full version): the next
        // object of the template, often the next one listed, is deflated against it.
        stream.siblings.set(templateOf(object), {
          change: id,
          object,
          json: state.lastCanonical?.json,
          chain: state.chain,
        });
      }
    }
    return id;
  }

  /** Sets `state`'s stored text, dropping every object's when they would exceed maximumStoredBytes. */
  private keepStored(state: ObjectState, stored: Buffer | undefined): void {
    this.storedBytes += (stored?.length ?? 0) - (state.lastStored?.length ?? 0);
    state.lastStored = stored;
    if (this.storedBytes <= maximumStoredBytes) return;
    for (const stream of this.streams.values())
      for (const other of stream.objects.values()) other.lastStored = undefined;
    this.storedBytes = 0;
  }

  /**
   * Drops the JSON kept from the last batch (objects' and siblings'); the objects stay (the cache
   * holds them anyway). Call after each batch: JSON of every object would double the memory a large
   * cluster costs.
   */
  releaseBatchMemory(): void {
    for (const state of this.touched) state.lastCanonical = undefined;
    this.touched = [];
    for (const stream of this.streams.values())
      for (const sibling of stream.siblings.values()) sibling.json = undefined;
  }

  /** Records the current state of `stream` at `time` (the changes written so far). */
  writeKeyframe(stream: number, time: number): void {
    const state = this.requireStream(stream);
    this.database
      .prepare('INSERT INTO keyframes (time, stream, last_change, members) VALUES (?, ?, ?, ?)')
      .run(time, stream, this.lastChangeId, encodeMembers(state.current));
  }

  /** Writes the row frames due at `time` (see RowFrameWriter): call once a batch's changes are written. */
  writeRowFramesDue(time: number): void {
    this.rowFrames?.writeDue(time, this.lastChangeId);
  }

  /** Starts every row frame chain anew: retention dropped the frames the chains added to. */
  restartRowFrames(): void {
    this.rowFrames?.restartChains();
  }

  /** Inserts a mark; returns its id (to close a gap later). */
  writeMark(mark: Omit<RecordingMark, 'stream'> & { stream: number | undefined }): number {
    const result = this.database
      .prepare('INSERT INTO marks (kind, reason, stream, start, end, detail) VALUES (?, ?, ?, ?, ?, ?)')
      .run(mark.kind, mark.reason, mark.stream ?? null, mark.start, mark.end ?? null, mark.detail);
    return Number(result.lastInsertRowid);
  }

  closeMark(id: number, end: number): void {
    this.database.prepare('UPDATE marks SET end = ? WHERE id = ?').run(end, id);
  }

  /** Remembers that the recording was written up to `time`: a restart records a gap from here. */
  touch(time: number): void {
    writeMeta(this.database, 'lastWritten', String(time));
  }

  liveObjectCount(stream: number): number {
    return this.requireStream(stream).current.size;
  }

  private objectState(
    stream: StreamState,
    uid: string,
    key: string,
    object: KubeObject | undefined,
  ): ObjectState {
    const known = stream.objects.get(uid);
    if (known) return known;
    const slash = key.indexOf('/');
    const namespace = object?.metadata.namespace ?? (slash === -1 ? '' : key.slice(0, slash));
    const name = object?.metadata.name ?? key.slice(slash + 1);
    const found = this.findObject.get(uid, stream.id) as { id: number } | undefined;
    const id = found?.id ?? Number(this.insertObject.run(stream.id, namespace, name, uid).lastInsertRowid);
    const state: ObjectState = {
      id,
      lastChange: 0,
      lastObject: undefined,
      lastCanonical: undefined,
      lastStored: undefined,
      chain: 0,
    };
    stream.objects.set(uid, state);
    return state;
  }

  private requireStream(stream: number): StreamState {
    const state = this.streams.get(stream);
    if (!state) throw new Error(`stream ${stream} was not opened with stream()`);
    return state;
  }
}
