// Playback's reads, in the query worker: a playback opens a reader of its own (its scan runs across
// many questions while others are answered) and hands the changes of its kind to the player a page
// at a time, in recorded order. The player on main only asks and applies; it never reads SQLite.
// For a kind whose columns shared/ prints, each change comes projected here into the row it leaves
// (or the key it deletes), so main neither parses nor projects objects: a dense recording at 100x
// costs main a few microseconds a change.
import { parseGvrKey } from '../../shared/kube/object';
import { printerFor } from '../../shared/kinds/columns';
import { objectKey } from '../../shared/protocol/row';
import type { Row } from '../../shared/protocol/row';
import { RowProjector } from '../bridge/row-projection';
import type { RecordedChange, RecordingMark } from './recorded-change';
import { openRecording } from './recording-reader';
import type { RecordingReader } from './recording-reader';
import { playback, recordingMarks, timeRange } from './replay';

export interface PlaybackQuery {
  /** Plays the changes after this moment... */
  readonly from: number;
  /** ...of this kind (a gvr key)... */
  readonly gvr: string;
  /** ...in this namespace (all when absent)... */
  readonly namespace?: string;
  /**
   * ...projected here into rows with the kind's printer from shared/ (printerFor), when the player
   * projects with that printer too; else sent as JSON for the player to project.
   */
  readonly rows?: boolean;
}

/**
 * A change read ahead for playback, at its moment: the row it leaves, or its key alone when it deleted
 * the object (projected in the worker); or the RecordedChange as JSON text, parsed only when the
 * player applies it, so parsing a page never holds the player's thread longer than a frame allows.
 */
export type PlaybackChange =
  | { readonly time: number; readonly key: string; readonly row?: Row }
  | { readonly time: number; readonly json: string };

/** What a playback covers: up to the end of the recording as it was when opened, and its gaps. */
export interface PlaybackSpan {
  readonly end: number;
  /** The gaps over [from, end], for the cursor's gap as the moment moves. */
  readonly marks: RecordingMark[];
}

interface OpenPlayback {
  readonly reader: RecordingReader;
  readonly changes: Iterator<RecordedChange>;
  /** Set when the changes are sent as rows. */
  readonly projector?: RowProjector;
}

const open = new Map<number, OpenPlayback>();

/** Opens playback `id` of `file` (replacing any open one of that id). */
export function openPlayback(id: number, file: string, query: PlaybackQuery): PlaybackSpan {
  closePlayback(id);
  // No quick_check: it reads every page, and the scan meets any damage on the way (reported by the
  // reader, answered with what could be read).
  const reader = openRecording(file, { checkIntegrity: false });
  try {
    const end = Math.max(timeRange(reader)?.end ?? query.from, query.from);
    const batches = playback(reader, {
      from: query.from,
      to: end,
      gvrs: [query.gvr],
      ...(query.namespace ? { namespaces: [query.namespace] } : {}),
    });
    const projector = query.rows ? new RowProjector(printerFor(parseGvrKey(query.gvr))) : undefined;
    open.set(id, { reader, changes: changesOf(batches), ...(projector ? { projector } : {}) });
    const marks = recordingMarks(reader, query.from, end).filter((mark) => mark.kind === 'gap');
    return { end, marks };
  } catch (error) {
    closePlayback(id);
    reader.close();
    throw error;
  }
}

/**
 * Up to `max` next changes of playback `id`, rows projected at `now`; `done` once the last one has
 * been given.
 */
export function nextChanges(
  id: number,
  max: number,
  now: number,
): { changes: PlaybackChange[]; done: boolean } {
  const playing = open.get(id);
  if (!playing) throw new Error(`no playback ${id} is open`);
  const changes: PlaybackChange[] = [];
  while (changes.length < max) {
    const next = playing.changes.next();
    if (next.done) {
      closePlayback(id);
      return { changes, done: true };
    }
    changes.push(playbackChange(next.value, playing.projector, now));
  }
  return { changes, done: false };
}

export function closePlayback(id: number): void {
  open.get(id)?.reader.close();
  open.delete(id);
}

function playbackChange(
  change: RecordedChange,
  projector: RowProjector | undefined,
  now: number,
): PlaybackChange {
  if (!projector) return { time: change.time, json: JSON.stringify(change) };
  const key = objectKey(change.namespace, change.name);
  if (change.type === 'Deleted' || !change.object) return { time: change.time, key };
  return { time: change.time, key, row: projector.project(change.object, now) };
}

function* changesOf(batches: Iterable<{ readonly changes: readonly RecordedChange[] }>) {
  for (const batch of batches) yield* batch.changes;
}
