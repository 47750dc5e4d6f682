// Writes changes, keyframes and marks into a recording, one transaction per batch. What the next write
// needs of each object (its id, its last change and text, whether it is live) is kept by
// WrittenObjects. It never parses an object: versions are texts, filed by the few metadata fields a
// CapturedObject carries.
import type { DeltaType } from '../cache/delta';
import type { KubeObject } from '../../shared/kube/object';
import type { CapturedObject } from './captured-object';
import { ChangeBlockWriter } from './change-blocks';
import { captureObject } from './captured-object';
import { VersionEncoding, encodeMembers } from './object-codec';
import type { RecordingMark, StreamIdentity } from './recorded-change';
import { encodeDeltaType } from './recorded-change';
import type { RowFrameOptions } from './row-frame-writer';
import { RowFrameWriter } from './row-frame-writer';
import type { SqliteDatabase } from './schema';
import { writeMeta } from './schema';
import { VersionDecoder } from './version-decoder';
import type { Encoded } from './version-encoder';
import { encodeNextVersion } from './version-encoder';
import type { ObjectState } from './written-objects';
import { WrittenObjects } from './written-objects';

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

/** A ChangeToWrite whose object is its captured text (what the recording process receives). */
export interface CapturedChangeToWrite extends Omit<ChangeToWrite, 'object'> {
  readonly object: CapturedObject | undefined;
}

/** What currentObject's decoder keeps of the versions it read back: a bound on memory. */
const decoderMemoChars = 4 * 1024 * 1024;

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
  /** Per stream, the objects written and what their next versions are encoded against. */
  private readonly written: WrittenObjects;
  private readonly fullVersionEvery: number;
  /**
   * The last change id given out. Ids are the writer's, never SQLite's next rowid: once retention
   * has dropped every change, that would start again below the ids its keyframe says it holds.
   */
  private lastChangeId: number;
  private readonly insertChange;
  /** Reads back a version whose text is no longer kept (see currentObject); opened when first needed. */
  private decoder: VersionDecoder | undefined;
  private readonly rowFrames: RowFrameWriter | undefined;
  /** Where a list's versions go (see change-blocks.ts); only inside transaction(), which writes them. */
  private readonly blocks: ChangeBlockWriter;
  /** transaction() calls running: a block is only begun inside one, which writes it before its commit. */
  private transactionDepth = 0;

  constructor(
    readonly database: SqliteDatabase,
    options: RecordingWriterOptions = {},
  ) {
    this.fullVersionEvery = options.fullVersionEvery ?? 12;
    this.lastChangeId = (
      database
        .prepare(
          'SELECT max(coalesce((SELECT max(id) FROM changes), 0), coalesce((SELECT max(last_change) FROM keyframes), 0)) AS id',
        )
        .get() as { id: number }
    ).id;
    this.insertChange = database.prepare(
      'INSERT INTO changes (id, time, stream, object, type, resource_version, base, hint, encoding, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.written = new WrittenObjects(database);
    if (options.rowFrames !== false) this.rowFrames = new RowFrameWriter(database, options.rowFrames);
    this.blocks = new ChangeBlockWriter(database);
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
    this.written.open(id);
    this.rowFrames?.stream(id, identity.gvr);
    return id;
  }

  /** Forgets every version held in memory: the next version of each object is written whole. */
  forgetVersions(): void {
    this.written.forgetVersions();
    this.decoder = undefined;
    this.blocks.discard();
    // Its live objects may name changes a rolled-back batch took away.
    this.rowFrames?.resetAll();
  }

  /**
   * Forgets the siblings new objects are stored against: retention may have dropped their changes.
   * (An object's own last change is always kept: it is current, or later than what was dropped.)
   */
  forgetSiblings(): void {
    this.written.forgetSiblings();
  }

  /** Forgets which objects `stream` holds (they are unknown until the next list). */
  resetStream(stream: number): void {
    const state = this.written.stream(stream);
    state.current.clear();
    state.uidByKey.clear();
    this.rowFrames?.reset(stream);
  }

  /** A list starts replacing `stream`'s cache: remembers which objects it names until retireUnlisted. */
  beginList(stream: number): void {
    this.written.stream(stream).listed = new Set();
  }

  /**
   * The list begun by beginList is applied: every live object it did not name is gone. The informer
   * is keyed by name, so when a name came back with a new uid while the watch was down, the list
   * replaced the old uid's object without a deletion; that old uid is retired here, at the moment of
   * the list that revealed it, as a deletion whose final state is unknown. Returns how many retired.
   */
  retireUnlisted(stream: number, time: number): number {
    const state = this.written.stream(stream);
    const listed = state.listed;
    state.listed = undefined;
    if (!listed) return 0;
    let retired = 0;
    for (const [uid, object] of [...state.objects]) {
      if (listed.has(object.id) || !state.current.has(object.id)) continue;
      // No object: the deletion repeats the last version recorded.
      this.writeCapturedChange({
        time,
        stream,
        type: 'Deleted',
        finalStateUnknown: true,
        object: undefined,
        key: object.key,
        uid,
      });
      retired++;
    }
    return retired;
  }

  /** Runs `work` in one transaction: all of it reaches the disk, or none. */
  transaction(work: () => void): void {
    try {
      this.database.transaction(() => {
        this.transactionDepth++;
        try {
          work();
          // Before the commit: the changes written point into it.
          if (this.transactionDepth === 1) this.blocks.flush();
        } finally {
          this.transactionDepth--;
        }
      })();
    } catch (error) {
      // Rolled back: the block being filled belongs to changes that are not on disk.
      if (this.transactionDepth === 0) this.blocks.discard();
      throw error;
    }
  }

  /** Writes a change of an object held in memory (an import's, a test's): see writeCapturedChange. */
  writeChange(change: ChangeToWrite): number {
    return this.writeCapturedChange({
      ...change,
      object: change.object === undefined ? undefined : captureObject(change.object),
    });
  }

  /** Writes one change; returns its id. */
  writeCapturedChange(change: CapturedChangeToWrite): number {
    const stream = this.written.stream(change.stream);
    const object = change.object;
    const uid = change.uid || object?.uid || stream.uidByKey.get(change.key) || change.key;
    const state = this.written.object(stream, uid, change.key, object);
    const id = this.lastChangeId + 1;
    const { base, encoding, payload } =
      (change.type === 'Replaced' && stream.listed !== undefined && this.listedVersion(state, object, id)) ||
      encodeNextVersion(
        state,
        object,
        object && state.lastChange === 0 ? stream.siblings.get(object.template) : undefined,
        this.fullVersionEvery,
      );
    const deleted = change.type === 'Deleted';
    if (object !== undefined) state.resourceVersion = object.resourceVersion;
    this.insertChange.run(
      id,
      change.time,
      stream.id,
      state.id,
      encodeDeltaType(change.type, change.finalStateUnknown),
      state.resourceVersion,
      base,
      null,
      encoding,
      payload,
    );
    this.lastChangeId = id;
    state.lastChange = id;
    state.key = change.key;
    // Before keepText: the object's previous text is still state.lastText.
    this.rowFrames?.changed(stream.id, state.id, id, deleted ? undefined : object?.text, state.lastText);
    if (deleted) {
      stream.current.delete(state.id);
      // The key may already name the object's successor (a uid retired after a relist).
      if (stream.uidByKey.get(change.key) === uid) stream.uidByKey.delete(change.key);
      stream.objects.delete(uid);
      this.written.keepText(state, undefined);
      return id;
    }
    if (object !== undefined) this.written.keepText(state, object.text);
    stream.current.set(state.id, id);
    stream.listed?.add(state.id);
    stream.uidByKey.set(change.key, uid);
    // Only shallow versions serve as siblings: objects built on them start with room to grow.
    if (object !== undefined && state.lastText !== undefined && state.chain <= this.fullVersionEvery / 4) {
      this.written.keepSibling(stream, object.template, {
        change: id,
        text: state.lastText,
        chain: state.chain,
      });
    }
    return id;
  }

  /**
   * How change `id`, a list's Replaced `object`, is stored: in the list's block, unless its text is the
   * one its object's last version decodes to (a relist or resync of an object that did not change),
   * which encodeNextVersion stores as a repeat; undefined then, and outside transaction().
   */
  private listedVersion(
    state: ObjectState,
    object: CapturedObject | undefined,
    id: number,
  ): Encoded | undefined {
    if (object === undefined || this.transactionDepth === 0) return undefined;
    const repeat =
      state.lastChange !== 0 && state.chain < this.fullVersionEvery && state.lastText?.equals(object.text);
    if (repeat) return undefined;
    state.chain = 0;
    return {
      base: null,
      encoding: VersionEncoding.block,
      payload: this.blocks.add(object.text, id, object.namespace),
    };
  }

  /**
   * The object `uid` of `stream` as last written, parsed from its text (or, when memory dropped it,
   * read back from the recording); undefined when the stream holds no such live object. For what
   * needs an object's tree now and then: the writer itself keeps texts only.
   */
  currentObject(stream: number, uid: string): KubeObject | undefined {
    const state = this.written.stream(stream).objects.get(uid);
    if (state === undefined || state.lastChange === 0) return undefined;
    // Its version may be in the block being filled: on disk from here, like the changes before it.
    if (state.lastText === undefined && this.transactionDepth > 0) this.blocks.flush();
    const text =
      state.lastText?.toString() ??
      (this.decoder ??= new VersionDecoder(this.database, decoderMemoChars)).json(state.lastChange);
    return (JSON.parse(text) ?? undefined) as KubeObject | undefined;
  }

  /** Records the current state of `stream` at `time` (the changes written so far). */
  writeKeyframe(stream: number, time: number): void {
    const state = this.written.stream(stream);
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
    return this.written.stream(stream).current.size;
  }
}
