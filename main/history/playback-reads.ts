// Playback's reads, in the query worker: a playback opens a reader of its own (its scan runs across
// many questions while others are answered) and hands the changes of its kind to the player a page
// at a time, in recorded order. The player on main only asks and applies; it never reads SQLite.
// For a kind whose columns shared/ prints, each change comes projected here into the row it leaves
// (or the key it deletes), so main neither parses nor projects objects: a dense recording at 100x
// costs main a few microseconds a change. Those rows are projected from the decoder's parsed trees,
// a page's version chains read ahead in bulk: a version's JSON text is never built nor parsed again.
import { parseGvrKey } from '../../shared/kube/object';
import { printerFor } from '../../shared/kinds/columns';
import { objectKey } from '../../shared/protocol/row';
import type { Row } from '../../shared/protocol/row';
import { RowProjector } from '../bridge/row-projection';
import type { KubeObject } from '../../shared/kube/object';
import type { RecordedChange, RecordingMark } from './recorded-change';
import { isDeletion } from './recorded-change';
import { openRecording } from './recording-reader';
import type { ChangeRow, RecordingReader } from './recording-reader';
import { playback, playbackRows, recordingMarks, timeRange } from './replay';
import { VersionDecoder } from './version-decoder';

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

type OpenPlayback =
  | {
      readonly reader: RecordingReader;
      /** Sent as rows: the changes' rows, each version decoded and projected when its page is asked. */
      readonly rows: Iterator<ChangeRow>;
      readonly projector: RowProjector;
      readonly decoder: VersionDecoder;
    }
  | { readonly reader: RecordingReader; readonly changes: Iterator<RecordedChange> };

const open = new Map<number, OpenPlayback>();
/**
 * Playbacks closed after their last page, so that a page asked for meanwhile (the player keeps two
 * asked for at once) is answered as done rather than as an unknown playback. The newest few.
 */
const finished = new Set<number>();
const finishedKept = 64;

/** Opens playback `id` of `file` (replacing any open one of that id). */
export function openPlayback(id: number, file: string, query: PlaybackQuery): PlaybackSpan {
  closePlayback(id);
  // No quick_check: it reads every page, and the scan meets any damage on the way (reported by the
  // reader, answered with what could be read).
  const reader = openRecording(file, { checkIntegrity: false });
  try {
    const end = Math.max(timeRange(reader)?.end ?? query.from, query.from);
    const options = {
      from: query.from,
      to: end,
      gvrs: [query.gvr],
      ...(query.namespace ? { namespaces: [query.namespace] } : {}),
    };
    open.set(
      id,
      query.rows
        ? {
            reader,
            rows: playbackRows(reader, options),
            projector: new RowProjector(printerFor(parseGvrKey(query.gvr))),
            decoder: new VersionDecoder(reader.database, undefined, true),
          }
        : { reader, changes: changesOf(playback(reader, options)) },
    );
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
  if (!playing) {
    if (finished.has(id)) return { changes: [], done: true };
    throw new Error(`no playback ${id} is open`);
  }
  const { changes, done } =
    'rows' in playing ? nextRows(playing, max, now) : nextRecordedChanges(playing.changes, max);
  if (done) {
    closePlayback(id);
    finished.add(id);
    if (finished.size > finishedKept) finished.delete(finished.values().next().value!);
  }
  return { changes, done };
}

/** The next `max` changes as rows: the page's rows read first, so that their chains are read ahead. */
function nextRows(
  playing: Extract<OpenPlayback, { rows: unknown }>,
  max: number,
  now: number,
): { changes: PlaybackChange[]; done: boolean } {
  const { reader, projector, decoder } = playing;
  const rows: ChangeRow[] = [];
  let done = false;
  while (rows.length < max) {
    const next = playing.rows.next();
    if (next.done) {
      done = true;
      break;
    }
    rows.push(next.value);
  }
  decoder.prefetch(rows.filter((row) => !isDeletion(row.type)).map((row) => row.id));
  const changes = rows.map((row): PlaybackChange => {
    const key = objectKey(row.namespace, row.name);
    if (isDeletion(row.type)) return { time: row.time, key };
    // A version that cannot be read (reported) is played as the object's deletion, as toChange's is.
    const version = reader.guard(`version of ${key} (change ${row.id})`, null, () => decoder.tree(row.id));
    if (version === null) return { time: row.time, key };
    return { time: row.time, key, row: projector.project(version as unknown as KubeObject, now) };
  });
  return { changes, done };
}

function nextRecordedChanges(
  changes: Iterator<RecordedChange>,
  max: number,
): { changes: PlaybackChange[]; done: boolean } {
  const page: PlaybackChange[] = [];
  while (page.length < max) {
    const next = changes.next();
    if (next.done) return { changes: page, done: true };
    const change = next.value;
    page.push({ time: change.time, json: JSON.stringify(change) });
  }
  return { changes: page, done: false };
}

export function closePlayback(id: number): void {
  open.get(id)?.reader.close();
  open.delete(id);
  finished.delete(id);
}

function* changesOf(batches: Iterable<{ readonly changes: readonly RecordedChange[] }>) {
  for (const batch of batches) yield* batch.changes;
}
