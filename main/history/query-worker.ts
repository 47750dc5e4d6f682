// The entry point of the history query worker thread (see HistoryQueries): rebuilds a moment of a
// recording (stateAt: keyframe, changes, version chains, decompression) off the main thread and
// sends the objects back as JSON text in chunks, so the receiving thread parses one chunk per task;
// sums up a span of it for the timeline (density per kind, gaps and relists); and reads one object's
// versions, the Events about one object and the sidebar's counts at a moment. Opening a recording runs
// SQLite's quick_check, which alone could hold a thread for seconds.
import { parentPort } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { RecordedMetrics, RecordedUsage, UsageSubject } from '../../shared/protocol/history-messages';
import { crashLogsAt } from './crash-log-store';
import { metricsAt, usageOver } from './metric-sample-reader';
import type { StateQuery, TimeRange } from './replay';
import { eventDensity, recordingMarks, stateAt, timeRange } from './replay';
import type { ObjectReference } from './object-history';
import { adjacentChange, objectVersions } from './object-history';
import type { RecordedChange, RecordingMark } from './recorded-change';
import { messageOf } from './recording-error';
import type { RecordingReader } from './recording-reader';
import { openRecording } from './recording-reader';
import { recordedCounts } from './recorded-counts';
import { recordedEventsAbout } from './recorded-events';
import type { InvolvedObject } from '../../shared/protocol/client-messages';

export type QueryRequest =
  | { readonly id: number; readonly type: 'state'; readonly file: string; readonly query: StateQuery }
  | {
      readonly id: number;
      readonly type: 'timeline';
      readonly file: string;
      /** Defaults: the recording's range (or `now` when it holds nothing yet). */
      readonly from: number | undefined;
      readonly to: number | undefined;
      readonly buckets: number;
      readonly now: number;
    }
  | {
      readonly id: number;
      readonly type: 'versions';
      readonly file: string;
      readonly reference: ObjectReference;
    }
  | {
      readonly id: number;
      readonly type: 'adjacent';
      readonly file: string;
      readonly reference: ObjectReference;
      readonly time: number;
      readonly direction: 'previous' | 'next';
    }
  | {
      readonly id: number;
      readonly type: 'crash-logs';
      readonly file: string;
      readonly uid: string;
      readonly time: number;
    }
  | {
      readonly id: number;
      readonly type: 'events';
      readonly file: string;
      readonly involved: InvolvedObject;
      readonly time: number;
    }
  | { readonly id: number; readonly type: 'counts'; readonly file: string; readonly time: number }
  | {
      readonly id: number;
      readonly type: 'metrics-at';
      readonly file: string;
      readonly resource: 'pods' | 'nodes';
      readonly time: number;
    }
  | {
      readonly id: number;
      readonly type: 'usage';
      readonly file: string;
      readonly subject: UsageSubject;
      readonly points: number;
      readonly from: number | undefined;
      readonly to: number | undefined;
    };

/** A timeline's figures: the range covered, change density per kind, and the gaps and relists. */
export interface TimelineFigures {
  readonly range: TimeRange | undefined;
  readonly from: number;
  readonly to: number;
  readonly density: Record<string, number[]>;
  readonly marks: RecordingMark[];
}

export type QueryReply =
  | { readonly id: number; readonly type: 'timeline'; readonly timeline: TimelineFigures }
  /** `json`: the RecordedChange[] of objectVersions. */
  | { readonly id: number; readonly type: 'versions'; readonly json: string }
  | { readonly id: number; readonly type: 'adjacent'; readonly time: number | undefined }
  /** `json`: the RecordedCrashLog[] of crashLogsAt (inflated here, parsed by the asker). */
  | { readonly id: number; readonly type: 'crash-logs'; readonly json: string }
  /** `json`: the Events (KubeObject[]) of recordedEventsAbout. */
  | { readonly id: number; readonly type: 'events'; readonly json: string }
  | { readonly id: number; readonly type: 'counts'; readonly counts: Record<string, number> }
  | { readonly id: number; readonly type: 'metrics-at'; readonly metrics: RecordedMetrics }
  | { readonly id: number; readonly type: 'usage'; readonly usage: RecordedUsage }
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

function timeline(request: Extract<QueryRequest, { type: 'timeline' }>): TimelineFigures {
  const reader = readerFor(request.file);
  const range = timeRange(reader);
  const from = request.from ?? range?.start ?? request.now;
  const to = Math.max(from + 1, request.to ?? range?.end ?? from + 1);
  const density = Object.fromEntries(eventDensity(reader, { from, to, buckets: request.buckets }));
  return { range, from, to, density, marks: recordingMarks(reader, from, to) };
}

const port = parentPort;
if (port) {
  port.on('message', (request: QueryRequest) => {
    try {
      answer(port, request);
    } catch (error) {
      port.postMessage({ id: request.id, type: 'failed', message: messageOf(error) } satisfies QueryReply);
    }
  });
}

function answer(port: MessagePort, request: QueryRequest): void {
  const reply = (message: QueryReply) => port.postMessage(message);
  switch (request.type) {
    case 'timeline':
      reply({ id: request.id, type: 'timeline', timeline: timeline(request) });
      return;
    case 'versions': {
      const versions: RecordedChange[] = objectVersions(readerFor(request.file), request.reference);
      reply({ id: request.id, type: 'versions', json: JSON.stringify(versions) });
      return;
    }
    case 'adjacent': {
      const reader = readerFor(request.file);
      const change = adjacentChange(reader, request.reference, request.time, request.direction);
      reply({ id: request.id, type: 'adjacent', time: change?.time });
      return;
    }
    case 'crash-logs': {
      const logs = crashLogsAt(readerFor(request.file).database, request.uid, request.time);
      reply({ id: request.id, type: 'crash-logs', json: JSON.stringify(logs) });
      return;
    }
    case 'events': {
      const events = recordedEventsAbout(readerFor(request.file), request.involved, request.time);
      reply({ id: request.id, type: 'events', json: JSON.stringify(events) });
      return;
    }
    case 'counts':
      reply({
        id: request.id,
        type: 'counts',
        counts: recordedCounts(readerFor(request.file), request.time),
      });
      return;
    case 'metrics-at': {
      const metrics = metricsAt(readerFor(request.file).database, request.resource, request.time);
      reply({ id: request.id, type: 'metrics-at', metrics });
      return;
    }
    case 'usage': {
      const usage = usageOver(readerFor(request.file).database, request.subject, request.points, request);
      reply({ id: request.id, type: 'usage', usage });
      return;
    }
    case 'state': {
      const state = stateAt(readerFor(request.file), request.query);
      for (let index = 0; index < state.objects.length; index += chunkSize) {
        const json = JSON.stringify(state.objects.slice(index, index + chunkSize));
        reply({ id: request.id, type: 'objects', json });
      }
      reply({ id: request.id, type: 'done', complete: state.complete, gap: state.gap });
      return;
    }
  }
}
