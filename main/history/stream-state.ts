// Which change holds each live object's version in a stream at a given moment: the nearest keyframe
// at or before it, plus the changes recorded after that keyframe up to the moment.
import { decodeMembers } from './object-codec';
import { isDeletion } from './recorded-change';
import type { SqliteDatabase } from './schema';

export interface StreamMembers {
  /** object id -> change id of its version at the moment. */
  readonly members: Map<number, number>;
  /** The keyframe the state was rebuilt from (undefined: none, so the state started empty). */
  readonly keyframeTime: number | undefined;
}

/** `stream`'s last keyframe at or before `time` (the newest written, of two at one time). */
export function keyframeBefore(
  database: SqliteDatabase,
  stream: number,
  time: number,
): { readonly id: number; readonly time: number; readonly last_change: number } | undefined {
  return database
    .prepare(
      'SELECT id, time, last_change FROM keyframes WHERE stream = ? AND time <= ? ORDER BY time DESC, id DESC LIMIT 1',
    )
    .get(stream, time) as { id: number; time: number; last_change: number } | undefined;
}

/** Keyframe `id`'s members as stored (object-codec's or member-columns' encoding). */
export function keyframeBlob(database: SqliteDatabase, id: number): Uint8Array {
  return database.prepare('SELECT members FROM keyframes WHERE id = ?').pluck().get(id) as Uint8Array;
}

/** The state of `stream` including every change stamped at or before `time`. */
export function membersAt(database: SqliteDatabase, stream: number, time: number): StreamMembers {
  const keyframe = keyframeBefore(database, stream, time);
  const members = keyframe ? decodeMembers(keyframeBlob(database, keyframe.id)) : new Map<number, number>();
  const last = lastChangeAt(database, time);
  for (const change of changesBetween(database, stream, keyframe?.last_change ?? 0, last)) {
    if (isDeletion(change.type)) members.delete(change.object);
    else members.set(change.object, change.id);
  }
  return { members, keyframeTime: keyframe?.time };
}

/** A change as it lies over a keyframe: which object it holds, and whether it deleted it. */
export interface MemberChange {
  readonly id: number;
  readonly object: number;
  readonly type: number;
}

/** `stream`'s changes with ids after `after` up to `through`, in id order (those over a keyframe). */
export function changesBetween(
  database: SqliteDatabase,
  stream: number,
  after: number,
  through: number,
): IterableIterator<MemberChange> {
  return database
    .prepare('SELECT id, object, type FROM changes WHERE id > ? AND id <= ? AND stream = ? ORDER BY id')
    .iterate(after, through, stream) as IterableIterator<MemberChange>;
}

/**
 * The id of the last change stamped at or before `time` (0 if none). Times never decrease with ids
 * within a recording, so "stamped at or before" is an id range, which the primary key serves.
 */
export function lastChangeAt(database: SqliteDatabase, time: number): number {
  const row = database
    .prepare('SELECT id FROM changes WHERE time <= ? ORDER BY time DESC, id DESC LIMIT 1')
    .get(time) as { id: number } | undefined;
  return row?.id ?? 0;
}
