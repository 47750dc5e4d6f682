// Playback's reads, in the query worker: a playback opens a reader of its own (its scan runs across
// many questions while others are answered) and hands the changes of its kind to the player a page
// at a time, in recorded order. The player on main only asks and applies; it never reads SQLite.
import type { RecordedChange, RecordingMark } from './recorded-change';
import { openRecording } from './recording-reader';
import type { RecordingReader } from './recording-reader';
import { playback, recordingMarks, timeRange } from './replay';

export interface PlaybackQuery {
  /** Plays the changes after this moment... */
  readonly from: number;
  /** ...of this kind (a gvr key)... */
  readonly gvr: string;
  /** ...in this namespace (all when absent). */
  readonly namespace?: string;
}

/**
 * A change read ahead for playback: its moment, and the RecordedChange as JSON text, parsed only when
 * the player applies it, so parsing a page never holds the player's thread longer than a frame allows.
 */
export interface PlaybackChange {
  readonly time: number;
  readonly json: string;
}

/** What a playback covers: up to the end of the recording as it was when opened, and its gaps. */
export interface PlaybackSpan {
  readonly end: number;
  /** The gaps over [from, end], for the cursor's gap as the moment moves. */
  readonly marks: RecordingMark[];
}

interface OpenPlayback {
  readonly reader: RecordingReader;
  readonly changes: Iterator<RecordedChange>;
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
    open.set(id, { reader, changes: changesOf(batches) });
    const marks = recordingMarks(reader, query.from, end).filter((mark) => mark.kind === 'gap');
    return { end, marks };
  } catch (error) {
    closePlayback(id);
    reader.close();
    throw error;
  }
}

/** Up to `max` next changes of playback `id`; `done` once the last one has been given. */
export function nextChanges(id: number, max: number): { changes: PlaybackChange[]; done: boolean } {
  const playing = open.get(id);
  if (!playing) throw new Error(`no playback ${id} is open`);
  const changes: PlaybackChange[] = [];
  while (changes.length < max) {
    const next = playing.changes.next();
    if (next.done) {
      closePlayback(id);
      return { changes, done: true };
    }
    changes.push({ time: next.value.time, json: JSON.stringify(next.value) });
  }
  return { changes, done: false };
}

export function closePlayback(id: number): void {
  open.get(id)?.reader.close();
  open.delete(id);
}

function* changesOf(batches: Iterable<{ readonly changes: readonly RecordedChange[] }>) {
  for (const batch of batches) yield* batch.changes;
}
