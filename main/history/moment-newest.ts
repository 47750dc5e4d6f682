// Which version of which object each key of a stream holds at the recording's newest change, kept by
// the query worker between travels (see liveMoment): a travel from live compares the live rows with
// this, not with the moment, so that what it reads of the moment is only what changed since it (and
// what the live rows hold otherwise), however many rows the cluster has. Kept up to date by the
// changes committed since it was last read: its members are read again (the keyframe before the
// newest change and the changes after it: a reset shows only there) and only the objects whose change
// moved are read from the changes table.
import { objectKey } from '../../shared/protocol/row';
import { KeyframeMembers } from './keyframe-members';
import type { MomentMembers } from './keyframe-members';
import type { MomentRow } from './moment-order';
import type { ChangeRow, ReaderStream, RecordingReader } from './recording-reader';
import { isDeletion } from './recorded-change';
import type { StateQuery } from './state-at';
import { changeRows, streamMembers, streamsOf } from './state-at';
import { changesBetween, lastChangeAt } from './stream-state';

/**
 * One object of the newest state: the change holding its version and that version's identity. It is
 * the row of a moment from live that the live rows hold as they are (never made: no text, no change
 * row), kept for the moment asked next as any row of the moment is (see MomentRows).
 */
export interface NewestObject extends MomentRow {
  readonly object: number;
  readonly uid: string;
  readonly resourceVersion: string;
}

/**
 * Keyframes this small may be empty (a reset's): the objects touched since one are not all that may
 * have changed (see touchedSince). Larger ones hold members, which a reset's never does.
 */
const smallKeyframeBytes = 64;

/** Keys logged beyond twice the keys held before the change log is let go (small streams). */
const spareLogKeys = 20_000;

export class NewestState {
  /** The members as of this change id (0: never read). */
  private lastChange = 0;
  /** object id -> its object at the newest change (those whose change row could be read). */
  private readonly objects = new Map<number, NewestObject>();
  /** key -> the objects holding it (two while a name re-created is live beside the old object). */
  private readonly keys = new Map<string, NewestObject[]>();
  /** The members (object -> change) through change `through`, read from keyframe `keyframe` on. */
  private members:
    { members: Map<number, number>; keyframe: number | undefined; through: number } | undefined;
  /**
   * The keys whose holders changed, in order, the first at position `logStart` (see changedSince):
   * what a comparison with the live rows reads again (LiveComparison).
   */
  private changeLog: string[] = [];
  private logStart = 0;

  constructor(readonly stream: ReaderStream) {}

  /**
   * Reads the changes committed since the last refresh. A member whose change row cannot be read
   * (reported by changeRows) is left out, until its object changes again or the members are read
   * whole (a new keyframe): a travel then reads its key at the moment as any other that differs.
   */
  refresh(reader: RecordingReader): void {
    const newest = reader.lastChangeId();
    if (newest === this.lastChange) return;
    const { members, touched } = this.membersNow(reader);
    const moved: number[] = [];
    if (touched !== undefined) {
      // Only the objects the changes since touched can have moved (under churn, a few thousand of
      // 150,000: two passes over every member at every refresh were most of a warm refresh).
      for (const object of touched) {
        const change = members.get(object);
        if (change === undefined) this.remove(object);
        else if (this.objects.get(object)?.change !== change) moved.push(change);
      }
    } else {
      for (const [object, change] of members)
        if (this.objects.get(object)?.change !== change) moved.push(change);
      for (const object of [...this.objects.keys()]) if (!members.has(object)) this.remove(object);
    }
    for (const row of changeRows(reader, this.stream, moved)) this.set(row);
    this.lastChange = newest;
    // Let go past twice the keys held (a few MB of references): a comparison behind it compares whole.
    if (this.changeLog.length > 2 * this.keys.size + spareLogKeys) {
      this.logStart += this.changeLog.length;
      this.changeLog = [];
    }
  }

  /** The position after the last key logged (see changedSince). */
  get logEnd(): number {
    return this.logStart + this.changeLog.length;
  }

  /**
   * The keys whose holders changed since position `position` (of logEnd), in order, some perhaps
   * more than once; undefined when they are no longer logged.
   */
  changedSince(position: number): readonly string[] | undefined {
    if (position < this.logStart) return undefined;
    return this.changeLog.slice(position - this.logStart);
  }

  /**
   * The members at the newest change: those of the last refresh and the changes since, while the
   * stream's newest keyframe is the one they were read from (a keyframe is the members as of its
   * last change, so the two are equal); else read from the new keyframe (a reset starts the stream
   * anew only with one). Reading them whole at every refresh (150,000 members decoded, and every
   * change since the keyframe) was most of the worker's time while it warmed under churn.
   */
  private membersNow(reader: RecordingReader): {
    readonly members: ReadonlyMap<number, number>;
    /** The objects the changes since the last refresh touched; undefined when read whole. */
    readonly touched?: ReadonlySet<number>;
  } {
    const database = reader.database;
    const streamId = this.stream.id;
    try {
      const keyframe = database
        .prepare('SELECT id, last_change FROM keyframes WHERE stream = ? ORDER BY time DESC, id DESC LIMIT 1')
        .get(streamId) as { id: number; last_change: number } | undefined;
      const last = lastChangeAt(database, Number.MAX_SAFE_INTEGER);
      const kept = this.members;
      if (kept === undefined || keyframe?.id !== kept.keyframe || last < kept.through) {
        this.members = undefined;
        const { members } = streamMembers(reader, this.stream, Number.MAX_SAFE_INTEGER);
        // Through `last` at least (a change committed since is read again next time: applied in
        // order, a change read twice leaves the members as once).
        this.members = { members, keyframe: keyframe?.id, through: last };
        return { members };
      }
      const changes = changesBetween(database, streamId, kept.through, last);
      const touched = new Set<number>();
      for (const change of changes) {
        if (isDeletion(change.type)) kept.members.delete(change.object);
        else kept.members.set(change.object, change.id);
        touched.add(change.object);
      }
      kept.through = last;
      return { members: kept.members, touched };
    } catch {
      // Read whole, as any moment is (streamMembers reports what it cannot read).
      this.members = undefined;
      return { members: streamMembers(reader, this.stream, Number.MAX_SAFE_INTEGER).members };
    }
  }

  /**
   * The objects the changes after change `after` touched, up to those this state holds; undefined
   * when they may not be all the objects whose member changed since: the members were read without a
   * keyframe, or a keyframe since may be a reset's (a reset writes an empty keyframe, and drops the
   * objects the relist after it misses without a change; any other keyframe is the members the
   * changes before it make).
   */
  touchedSince(reader: RecordingReader, after: number): ReadonlySet<number> | undefined {
    const kept = this.members;
    if (kept === undefined || after > kept.through) return undefined;
    try {
      const database = reader.database;
      const reset = database
        .prepare(
          'SELECT 1 FROM keyframes WHERE stream = ? AND last_change >= ? AND length(members) < ? LIMIT 1',
        )
        .get(this.stream.id, after, smallKeyframeBytes);
      if (reset !== undefined) return undefined;
      const objects = database
        .prepare('SELECT object FROM changes WHERE id > ? AND id <= ? AND stream = ?')
        .pluck()
        .all(after, kept.through, this.stream.id) as number[];
      return new Set(objects);
    } catch {
      return undefined;
    }
  }

  /** object id -> its object at the newest change. */
  get newest(): ReadonlyMap<number, NewestObject> {
    return this.objects;
  }

  /** The object of the latest change holding `key`, if any. */
  latest(key: string): NewestObject | undefined {
    const holders = this.keys.get(key);
    if (holders === undefined) return undefined;
    let latest = holders[0];
    for (const holder of holders) if (holder.change > latest.change) latest = holder;
    return latest;
  }

  /** The objects holding `key`. */
  holders(key: string): readonly NewestObject[] {
    return this.keys.get(key) ?? [];
  }

  /** How many keys are held. */
  get keyCount(): number {
    return this.keys.size;
  }

  /** Calls `visit` with each key held and the object of its latest change (in no order). */
  forEachLatest(visit: (key: string, latest: NewestObject) => void): void {
    this.keys.forEach((holders, key) => {
      let latest = holders[0];
      for (let index = 1; index < holders.length; index++)
        if (holders[index].change > latest.change) latest = holders[index];
      visit(key, latest);
    });
  }

  /** Every key held (in no order). */
  heldKeys(): IterableIterator<string> {
    return this.keys.keys();
  }

  private set(row: ChangeRow): void {
    this.remove(row.object);
    const key = objectKey(row.namespace, row.name);
    // The fields in momentRow's order, then its own: one shape for every row of a moment.
    const entry: NewestObject = {
      key,
      namespace: row.namespace,
      change: row.id,
      text: undefined,
      rank: -1,
      changeRow: undefined,
      object: row.object,
      uid: row.uid,
      resourceVersion: row.resource_version,
    };
    this.objects.set(row.object, entry);
    this.changeLog.push(key);
    const holders = this.keys.get(key);
    if (holders === undefined) this.keys.set(key, [entry]);
    else holders.push(entry);
  }

  private remove(object: number): void {
    const entry = this.objects.get(object);
    if (entry === undefined) return;
    this.objects.delete(object);
    this.changeLog.push(entry.key);
    const holders = this.keys.get(entry.key)!;
    if (holders.length === 1) this.keys.delete(entry.key);
    else holders.splice(holders.indexOf(entry), 1);
  }
}

/** The newest states of one recording's streams, kept while the recording is the one asked. */
export class NewestStates {
  private recording: string | undefined;
  private readonly states = new Map<number, NewestState>();
  /** The keyframes a travel from live read the members at its moment from, kept with the states. */
  readonly keyframes = new KeyframeMembers();

  /** The newest state of `stream` of `reader`, refreshed. */
  of(reader: RecordingReader, stream: ReaderStream): NewestState {
    this.readingOf(reader);
    let state = this.states.get(stream.id);
    if (state === undefined) this.states.set(stream.id, (state = new NewestState(stream)));
    state.refresh(reader);
    return state;
  }

  /**
   * `stream`'s members at `time` (see KeyframeMembers.membersAt), without refreshing its newest state:
   * a travel reads them first, to know whether the moment is large enough to be sent against the live
   * rows at all.
   */
  membersAt(reader: RecordingReader, stream: ReaderStream, time: number): MomentMembers {
    this.readingOf(reader);
    return this.keyframes.membersAt(reader, stream, time);
  }

  /**
   * How many objects `query`'s streams hold at its moment (their members, in any namespace): what a
   * travel from live is sized by (see liveMoment), asked before the live rows are listed for it.
   */
  sizeAt(reader: RecordingReader, query: StateQuery): number {
    let size = 0;
    for (const stream of streamsOf(reader, query)) size += this.membersAt(reader, stream, query.time).size;
    return size;
  }

  /** Forgets what was kept of another recording (its ids mean nothing in this one). */
  private readingOf(reader: RecordingReader): void {
    const recording = reader.identity;
    if (recording === this.recording) return;
    this.states.clear();
    this.keyframes.clear();
    this.recording = recording;
  }
}
