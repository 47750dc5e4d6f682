// How many objects each stream held at a moment, for the sidebar's counts while the view is in the
// past (recordedCounts). A playback asks again about once a second for a moment a little later, and
// each answer read every stream's keyframe into a Map and walked every change since it: at 150,000
// pods under churn about 190 ms of the side worker a question, for as long as a 10x playback ran, on
// a 2-core machine where the page and the player wait for a core meanwhile.
// Here each stream keeps the keyframe it counted from, decoded once as columns, with the changes
// since laid over it (object -> member or not), and a later moment over the same keyframe reads only
// the changes after the last moment counted. A count is exactly the size of what membersAt reads.
// (The changes have no index by stream, so a stream's walk still visits the other streams' changes
// in its range, in SQLite: one by stream and id about halved a recount again, but made
// every change 15 bytes larger, session 34: not added.)
import { readKeyframe } from './keyframe-members';
import type { KeyframeSet } from './member-columns';
import { isDeletion } from './recorded-change';
import type { ReaderStream, RecordingReader } from './recording-reader';
import { changesBetween, keyframeBefore, lastChangeAt } from './stream-state';

/** A stream's count as of change `through`: its keyframe's members with the changes after it. */
interface StreamCount {
  readonly keyframe: number;
  /** The keyframe's members (undefined: no keyframe by the moment). */
  readonly members: KeyframeSet | undefined;
  /** object -> whether the changes after the keyframe, up to `through`, leave it a member. */
  readonly since: Map<number, boolean>;
  through: number;
  size: number;
}

export class MemberCounts {
  private recording: string | undefined;
  private readonly streams = new Map<number, StreamCount>();

  /**
   * How many objects each of `streams` held including every change stamped at or before `time`, by
   * stream id; undefined for a stream with neither a keyframe nor a member by then (not recorded yet,
   * or holding nothing a keyframe says). Throws what the recording's reads throw, keeping nothing
   * half counted.
   */
  countsAt(
    reader: RecordingReader,
    streams: readonly ReaderStream[],
    time: number,
  ): Map<number, number | undefined> {
    this.readingOf(reader);
    const database = reader.database;
    const through = lastChangeAt(database, time);
    for (const stream of streams) {
      const keyframe = keyframeBefore(database, stream.id, time);
      const keyframeId = keyframe?.id ?? 0;
      let count = this.streams.get(stream.id);
      // Counted from another keyframe, or past this moment (a step back): counted afresh.
      if (count === undefined || count.keyframe !== keyframeId || count.through > through) {
        const members = keyframe === undefined ? undefined : readKeyframe(reader, keyframe.id);
        count = {
          keyframe: keyframeId,
          members,
          since: new Map(),
          through: keyframe?.last_change ?? 0,
          size: members?.size ?? 0,
        };
        this.streams.set(stream.id, count);
      }
      if (count.through < through) this.layOver(reader, stream.id, count, through);
    }
    const counts = new Map<number, number | undefined>();
    for (const stream of streams) {
      const count = this.streams.get(stream.id)!;
      counts.set(stream.id, count.keyframe === 0 && count.size === 0 ? undefined : count.size);
    }
    return counts;
  }

  /** Lays `stream`'s changes after the last one `count` holds, up to `through`, over it. */
  private layOver(reader: RecordingReader, stream: number, count: StreamCount, through: number): void {
    try {
      for (const change of changesBetween(reader.database, stream, count.through, through)) {
        const was = count.since.get(change.object) ?? count.members?.has(change.object) ?? false;
        const is = !isDeletion(change.type);
        if (was !== is) count.size += is ? 1 : -1;
        count.since.set(change.object, is);
      }
    } catch (error) {
      // Some of the changes laid over: the count is of no moment, so it is not kept.
      this.streams.delete(stream);
      throw error;
    }
    count.through = through;
  }

  /** Forgets what was counted in another recording (its ids mean nothing in this one). */
  private readingOf(reader: RecordingReader): void {
    const recording = reader.identity;
    if (recording === this.recording) return;
    this.streams.clear();
    this.recording = recording;
  }
}
