// The members of a stream at a moment (object -> the change holding its version, as membersAt reads
// them) with the keyframe before it decoded once and kept, read-only, for the travels after: the
// changes since the keyframe lie over it (MomentMembers), no copy made. Decoding a keyframe of
// 150,000 members was a third of a travel from live's worker time, and travels from live land near
// the same keyframes (a keyframe every 20,000 changes: 10 s at 2,000 changes a second).
import type { ReaderStream, RecordingReader } from './recording-reader';
import { decodeMembers } from './object-codec';
import type { KeyframeSet } from './member-columns';
import { SortedMembers, decodeMemberColumns } from './member-columns';
import { isDeletion } from './recorded-change';
import { streamMembers } from './state-at';
import { changesBetween, keyframeBefore, keyframeBlob, lastChangeAt } from './stream-state';

/** Decoded keyframes kept: the newest two of a stream under churn, and one more. */
const keptKeyframes = 3;

/** Marks an object the changes over the keyframe deleted (change ids start at 1). */
const deleted = 0;

/** A stream's members at a moment: a keyframe's, with the changes after it up to the moment over them. */
export class MomentMembers {
  /** How many objects are members. */
  readonly size: number;

  constructor(
    private readonly keyframe: KeyframeSet,
    /** object -> its change after the keyframe (deleted: gone). */
    private readonly since: ReadonlyMap<number, number>,
    /** The last change included (undefined when read otherwise: see KeyframeMembers.membersAt). */
    readonly through?: number,
  ) {
    let size = keyframe.size;
    for (const [object, change] of since)
      size += (change !== deleted ? 1 : 0) - (keyframe.has(object) ? 1 : 0);
    this.size = size;
  }

  /** The change holding `object`'s version at the moment, if a member. */
  get(object: number): number | undefined {
    const change = this.since.get(object);
    if (change === undefined) return this.keyframe.get(object);
    return change === deleted ? undefined : change;
  }

  has(object: number): boolean {
    return this.get(object) !== undefined;
  }

  /** Calls `visit` with each member's change and object (in no order). */
  forEach(visit: (change: number, object: number) => void): void {
    const since = this.since;
    this.keyframe.forEach((change, object) => {
      if (!since.has(object)) visit(change, object);
    });
    since.forEach((change, object) => {
      if (change !== deleted) visit(change, object);
    });
  }
}

export class KeyframeMembers {
  /** Keyframe id -> its members decoded, the one used last at the end. */
  private readonly kept = new Map<number, KeyframeSet>();
  /**
   * The members read last, by stream, keyframe and last change: a travel from live reads them twice,
   * once to size the moment (see NewestStates.sizeAt) and once to compare it with the live rows.
   */
  private last: { stream: number; keyframe: number; through: number; members: MomentMembers } | undefined;

  /** Forgets every keyframe (another recording: ids start anew). */
  clear(): void {
    this.kept.clear();
    this.last = undefined;
  }

  /**
   * The members of `stream` including every change stamped at or before `time`: as membersAt, or as
   * streamMembers (which reports it) when the keyframe or changes cannot be read.
   */
  membersAt(reader: RecordingReader, stream: ReaderStream, time: number): MomentMembers {
    const database = reader.database;
    try {
      const keyframe = keyframeBefore(database, stream.id, time);
      const through = lastChangeAt(database, time);
      const last = this.last;
      const keyframeId = keyframe?.id ?? 0;
      if (last?.stream === stream.id && last.keyframe === keyframeId && last.through === through)
        return last.members;
      const members = keyframe === undefined ? new Map<number, number>() : this.keyframe(reader, keyframe.id);
      const since = new Map<number, number>();
      const changes = changesBetween(database, stream.id, keyframe?.last_change ?? 0, through);
      for (const change of changes) since.set(change.object, isDeletion(change.type) ? deleted : change.id);
      const read = new MomentMembers(members, since, through);
      this.last = { stream: stream.id, keyframe: keyframeId, through, members: read };
      return read;
    } catch {
      return new MomentMembers(streamMembers(reader, stream, time).members, new Map());
    }
  }

  /**
   * Decodes `stream`'s newest two keyframes ahead, if not kept (a worker warming: a moment of the
   * last keyframe interval or two is then read without decoding one), never failing.
   */
  warm(reader: RecordingReader, stream: ReaderStream): void {
    try {
      const ids = reader.database
        .prepare('SELECT id FROM keyframes WHERE stream = ? ORDER BY time DESC, id DESC LIMIT 2')
        .pluck()
        .all(stream.id) as number[];
      for (const id of ids.reverse()) this.keyframe(reader, id);
    } catch {
      // Read when a travel asks, which reports what it cannot read.
    }
  }

  private keyframe(reader: RecordingReader, id: number): KeyframeSet {
    let members = this.kept.get(id);
    if (members !== undefined) this.kept.delete(id);
    else members = readKeyframe(reader, id);
    this.kept.set(id, members);
    for (const old of this.kept.keys()) {
      if (this.kept.size <= keptKeyframes) break;
      this.kept.delete(old);
    }
    return members;
  }
}

/** Keyframe `id`'s members, decoded as columns (a Map for a keyframe written before them). */
export function readKeyframe(reader: RecordingReader, id: number): KeyframeSet {
  const blob = keyframeBlob(reader.database, id);
  const columns = decodeMemberColumns(blob);
  return columns ? new SortedMembers(columns.objects, columns.changes) : decodeMembers(blob);
}
