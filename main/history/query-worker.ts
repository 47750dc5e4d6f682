// The entry point of the history query worker thread (see StateQueries): rebuilds a moment of a
// recording (stateAt: keyframe, changes, version chains, decompression) off the main thread and
// sends the objects back as JSON text in chunks, so the receiving thread parses one chunk per task.
import { parentPort } from 'node:worker_threads';
import type { StateQuery } from './replay';
import { stateAt } from './replay';
import type { RecordingMark } from './recorded-change';
import { messageOf } from './recording-error';
import type { RecordingReader } from './recording-reader';
import { openRecording } from './recording-reader';

export interface StateRequest {
  readonly id: number;
  readonly file: string;
  readonly query: StateQuery;
}

export type StateReply =
  | { readonly id: number; readonly type: 'objects'; readonly json: string }
  | {
      readonly id: number;
      readonly type: 'done';
      readonly complete: boolean;
      readonly gap: RecordingMark | undefined;
    }
  | { readonly id: number; readonly type: 'failed'; readonly message: string };

/** Objects per chunk: about 2.5 MB of pods, a few ms to parse. */
const chunkSize = 1000;
/**
 * How long one opened reader answers before it is reopened: a reader lists the streams when it
 * opens, so kinds first recorded later in a live recording need a fresh one.
 */
const reopenAfterMs = 2000;

const readers = new Map<string, { reader: RecordingReader; openedAt: number }>();

function readerFor(file: string): RecordingReader {
  const now = Date.now();
  const open = readers.get(file);
  if (open && now - open.openedAt < reopenAfterMs) return open.reader;
  open?.reader.close();
  const reader = openRecording(file);
  readers.set(file, { reader, openedAt: now });
  return reader;
}

const port = parentPort;
if (port) {
  port.on('message', (request: StateRequest) => {
    try {
      const state = stateAt(readerFor(request.file), request.query);
      for (let index = 0; index < state.objects.length; index += chunkSize) {
        const json = JSON.stringify(state.objects.slice(index, index + chunkSize));
        port.postMessage({ id: request.id, type: 'objects', json } satisfies StateReply);
      }
      port.postMessage({
        id: request.id,
        type: 'done',
        complete: state.complete,
        gap: state.gap,
      } satisfies StateReply);
    } catch (error) {
      port.postMessage({ id: request.id, type: 'failed', message: messageOf(error) } satisfies StateReply);
    }
  });
}
