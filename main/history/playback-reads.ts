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
import { PlaybackFrameRows } from './playback-frame-rows';
import { printerSignature } from './row-frame-codec';
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
  /**
   * With rows: the changes are sent in steps of this many recorded ms from `from` (a grid), each step
   * squashed to the last change of each key in it and stamped at the step's end, so that the rows
   * applied through a step's end are the moment at that end. What a frame of the player's covers
   * (its frame times the speed): a burst costs a row per key, not one per change.
   */
  readonly stepMs?: number;
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

/** Steps of `ms` recorded ms from `from`, up to `end`. */
interface StepGrid {
  readonly from: number;
  readonly ms: number;
  readonly end: number;
}

type OpenPlayback =
  | {
      readonly reader: RecordingReader;
      /** Sent as rows: the changes' rows, each version decoded and projected when its page is asked. */
      readonly rows: Iterator<ChangeRow>;
      readonly projector: RowProjector;
      readonly decoder: VersionDecoder;
      /** Rows the row frames hold, taken there rather than decoded. */
      readonly frames: PlaybackFrameRows;
      readonly steps: StepGrid | undefined;
      /** The next change read, not yet sent: the first of the next step. */
      peeked: ChangeRow | undefined;
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
    const printer = printerFor(parseGvrKey(query.gvr));
    const stepMs = query.stepMs;
    open.set(
      id,
      query.rows
        ? {
            reader,
            rows: playbackRows(reader, options),
            projector: new RowProjector(printer),
            decoder: new VersionDecoder(reader.database, undefined, true),
            frames: new PlaybackFrameRows(reader, printerSignature(printer)),
            steps: stepMs !== undefined && stepMs > 0 ? { from: query.from, ms: stepMs, end } : undefined,
            peeked: undefined,
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

type RowsPlayback = Extract<OpenPlayback, { rows: unknown }>;

/**
 * The next `max` changes as rows, change by change, or (with steps) up to about `max` squashed
 * changes in whole steps (a step of more keys than that is sent over pages, each part stamped at its
 * end: the rows are the step's end's once its last part is applied).
 */
function nextRows(
  playing: RowsPlayback,
  max: number,
  now: number,
): { changes: PlaybackChange[]; done: boolean } {
  const steps = playing.steps;
  if (steps === undefined) {
    const rows: ChangeRow[] = [];
    let next: ChangeRow | undefined;
    while (rows.length < max && (next = readRow(playing))) rows.push(next);
    return { changes: rowChanges(playing, rows, now, (row) => row.time), done: next === undefined };
  }
  const changes: PlaybackChange[] = [];
  for (let first = readRow(playing); first; first = readRow(playing)) {
    const end = Math.min(steps.end, steps.from + Math.ceil((first.time - steps.from) / steps.ms) * steps.ms);
    // The last change of each key in the step, in the order keys were first touched: a key created
    // then deleted within it leaves its deletion, which the player drops unless the page holds the key.
    const squashed = new Map<string, ChangeRow>();
    for (let row: ChangeRow | undefined = first; row; row = readRow(playing)) {
      if (row.time > end || changes.length + squashed.size >= max) {
        playing.peeked = row;
        break;
      }
      squashed.set(objectKey(row.namespace, row.name), row);
    }
    for (const change of rowChanges(playing, [...squashed.values()], now, () => end)) changes.push(change);
    if (changes.length >= max) return { changes, done: false };
  }
  return { changes, done: true };
}

function readRow(playing: RowsPlayback): ChangeRow | undefined {
  const peeked = playing.peeked;
  if (peeked) {
    playing.peeked = undefined;
    return peeked;
  }
  const next = playing.rows.next();
  return next.done ? undefined : next.value;
}

/**
 * The rows `rows` leave, stamped at `timeOf`: from the row frames where they hold them, else decoded
 * and projected at `now` (the versions read ahead in bulk first, so that their chains are).
 */
function rowChanges(
  playing: RowsPlayback,
  rows: readonly ChangeRow[],
  now: number,
  timeOf: (row: ChangeRow) => number,
): PlaybackChange[] {
  const { reader, projector, decoder, frames } = playing;
  // Looked up in recorded order (the frames are walked forward); a step's rows come by key.
  const framed: (Row | undefined)[] = [];
  const byId = [...rows.keys()].sort((left, right) => rows[left]!.id - rows[right]!.id);
  for (const index of byId) {
    const row = rows[index]!;
    if (!isDeletion(row.type)) framed[index] = frames.row(row.stream, row.id);
  }
  decoder.prefetch(rows.filter((row, index) => !isDeletion(row.type) && !framed[index]).map((row) => row.id));
  return rows.map((row, index): PlaybackChange => {
    const key = objectKey(row.namespace, row.name);
    const time = timeOf(row);
    if (isDeletion(row.type)) return { time, key };
    const kept = framed[index];
    if (kept) return { time, key, row: kept };
    // A version that cannot be read (reported) is played as the object's deletion, as toChange's is.
    const version = reader.guard(`version of ${key} (change ${row.id})`, null, () => decoder.tree(row.id));
    if (version === null) return { time, key };
    return { time, key, row: projector.project(version as unknown as KubeObject, now) };
  });
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
