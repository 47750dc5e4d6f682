// The entry point of a history query worker thread (see HistoryQueries): rebuilds a moment of a
// recording (stateAt: keyframe, changes, version chains, decompression) off the main thread and
// sends it back in chunks, so the receiving thread takes one chunk per task: the objects as JSON
// text, or (for kinds whose columns shared/ prints) the table rows projected here (see MomentRows), a
// tenth of the objects' size, also as JSON text (EncodedRows), which main passes on to a renderer
// without parsing it;
// sums up a span of it for the timeline (density per kind, gaps and relists); and reads one object's
// versions, the Events about one object and the sidebar's counts at a moment; inspects a file to
// import (schema, format, integrity); and reads playbacks ahead a page at a time (playback-reads).
// Opening a recording runs SQLite's quick_check, which alone could hold a thread for seconds.
import { statSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { RecordedMetrics, RecordedUsage, UsageSubject } from '../../shared/protocol/history-messages';
import { crashLogsAt } from './crash-log-store';
import { metricsAt, usageOver } from './metric-sample-reader';
import type { PlaybackChange, PlaybackQuery, PlaybackSpan } from './playback-reads';
import { closePlayback, nextChanges, openPlayback } from './playback-reads';
import type { StateQuery, TimeRange } from './replay';
import { recordingMarks, timeRange } from './replay';
import { ChangeDensity } from './change-density';
import { momentAt, versionsOf } from './state-at';
import type { EncodedRows } from '../bridge/encoded-rows';
import { MomentRows } from './moment-rows';
import type { ObjectReference } from './object-history';
import { adjacentChange, objectVersions } from './object-history';
import type { RecordedChange, RecordingMark } from './recorded-change';
import type { RecordingProblem } from './recording-error';
import { RecordingError, messageOf } from './recording-error';
import type { RecordingReader } from './recording-reader';
import { openRecording } from './recording-reader';
import { recordedCounts } from './recorded-counts';
import { recordedEventsAbout } from './recorded-events';
import type { InvolvedObject } from '../../shared/protocol/client-messages';

export type QueryRequest =
  | {
      readonly id: number;
      readonly type: 'state';
      readonly file: string;
      readonly query: StateQuery;
      /**
       * Set to have the objects projected here into rows, with the kind's printer from shared/
       * (printerFor) at the moment `now` (for a cell read off the clock, such as a running Job's
       * duration): replies are then "rows".
       */
      readonly rows?: { readonly now: number };
    }
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
    }
  | {
      readonly id: number;
      readonly type: 'inspect';
      readonly file: string;
      /** Keep the reader for the questions to come (else it is closed: a check only). */
      readonly keep: boolean;
    }
  /** Closes the reader of `file`, if open (an import given up: its file may be deleted). */
  | { readonly id: number; readonly type: 'release'; readonly file: string }
  /** Opens a playback; its id is this request's, for the play-next and play-close that follow. */
  | { readonly id: number; readonly type: 'play-open'; readonly file: string; readonly query: PlaybackQuery }
  /** Up to `max` next changes; rows (if asked for at play-open) projected at `now`. */
  | {
      readonly id: number;
      readonly type: 'play-next';
      readonly playback: number;
      readonly max: number;
      readonly now: number;
    }
  | { readonly id: number; readonly type: 'play-close'; readonly playback: number };

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
  | { readonly id: number; readonly type: 'inspected'; readonly inspection: RecordingInspection }
  | { readonly id: number; readonly type: 'released' }
  | { readonly id: number; readonly type: 'play-opened'; readonly span: PlaybackSpan }
  /** The playback's next changes; `done` once the last has been sent. */
  | {
      readonly id: number;
      readonly type: 'play-changes';
      readonly changes: PlaybackChange[];
      readonly done: boolean;
    }
  /**
   * A moment's size, before its first chunk: how many objects it holds (a version that cannot be read
   * is left out later, so at most this many come) and the gap covering it, if any.
   */
  | {
      readonly id: number;
      readonly type: 'moment';
      readonly total: number;
      readonly gap: RecordingMark | undefined;
    }
  | { readonly id: number; readonly type: 'objects'; readonly json: string }
  /** A chunk of objects projected as the question asked, encoded here (see EncodedRows). */
  | { readonly id: number; readonly type: 'rows'; readonly rows: EncodedRows }
  | {
      readonly id: number;
      readonly type: 'done';
      readonly complete: boolean;
      readonly gap: RecordingMark | undefined;
    }
  | {
      readonly id: number;
      readonly type: 'failed';
      readonly message: string;
      /** Set when the failure was a RecordingError, so the asker throws the same one. */
      readonly recording?: { readonly file: string; readonly problem: RecordingProblem };
    };

/** What opening a recording found: the context its metadata names, and any damage (as UI lines). */
export interface RecordingInspection {
  readonly context: string;
  readonly problems: string[];
}

/**
 * How long one opened reader answers before it is refreshed: a live recording's writer moves its
 * metadata (lastWritten, start) and adds streams meanwhile. Changes it reads as they are committed.
 */
const refreshAfterMs = 2000;

interface OpenReader {
  readonly reader: RecordingReader;
  /** The file's inode when opened: a file replaced at the same path is opened anew. */
  readonly inode: number;
  refreshedAt: number;
}

/** What a query worker is started with (see HistoryQueries). */
export interface QueryWorkerData {
  /**
   * Whether opening a recording runs quick_check (default true). The worker that rebuilds moments and
   * reads playbacks skips it, as playback's own readers do: its reads meet any damage as they go
   * (reported by the reader), and its first travel of a long recording should not wait seconds for
   * a check of every page that the other worker has made already.
   */
  readonly checkIntegrity?: boolean;
}

const checkIntegrity = (workerData as QueryWorkerData | undefined)?.checkIntegrity !== false;
const readers = new Map<string, OpenReader>();
/** Objects per chunk when they are sent whole: about 2.5 MB of pods, a few ms to parse. */
const objectsPerChunk = 1000;
/** Each open reader's change times, so a timeline reads only the changes committed since the last. */
const densities = new WeakMap<RecordingReader, ChangeDensity>();
/** The last moment's rows, so scrubbing nearby decodes only what changed in between. */
const momentRows = new MomentRows();

/**
 * The reader of `file`, opened once (opening runs quick_check over the whole file) and refreshed
 * every refreshAfterMs; reopened only if the path names another file since.
 */
function readerFor(file: string, check = checkIntegrity): RecordingReader {
  const now = Date.now();
  const open = readers.get(file);
  const inode = inodeOf(file);
  if (open && open.inode === inode) {
    if (now - open.refreshedAt >= refreshAfterMs) {
      open.reader.refresh();
      open.refreshedAt = now;
    }
    return open.reader;
  }
  open?.reader.close();
  readers.delete(file);
  const reader = openRecording(file, { checkIntegrity: check });
  readers.set(file, { reader, inode, refreshedAt: now });
  return reader;
}

/** Closes the reader of `file` (and removes its salvage copy, if it has one). */
function release(file: string): void {
  readers.get(file)?.reader.close();
  readers.delete(file);
}

/** The inode of `file`, or -1 when it cannot be read (openRecording then says why). */
function inodeOf(file: string): number {
  try {
    return statSync(file).ino;
  } catch {
    return -1;
  }
}

function timeline(request: Extract<QueryRequest, { type: 'timeline' }>): TimelineFigures {
  const reader = readerFor(request.file);
  const range = timeRange(reader);
  const from = request.from ?? range?.start ?? request.now;
  const to = Math.max(from + 1, request.to ?? range?.end ?? from + 1);
  let counted = densities.get(reader);
  if (!counted) densities.set(reader, (counted = new ChangeDensity(reader)));
  const density = Object.fromEntries(counted.density({ from, to, buckets: request.buckets }));
  return { range, from, to, density, marks: recordingMarks(reader, from, to) };
}

const port = parentPort;
if (port) {
  port.on('message', (request: QueryRequest) => {
    try {
      answer(port, request);
    } catch (error) {
      const recording =
        error instanceof RecordingError ? { file: error.file, problem: error.problem } : undefined;
      port.postMessage({
        id: request.id,
        type: 'failed',
        message: messageOf(error),
        ...(recording ? { recording } : {}),
      } satisfies QueryReply);
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
    case 'inspect': {
      // A fresh open, integrity check included, whatever was open before: the file is new to the
      // asker. A kept reader spares the questions that follow an import a second check.
      release(request.file);
      const reader = readerFor(request.file, true);
      const problems = reader.problems.map((problem) => `${problem.where}: ${problem.message}`);
      if (!request.keep) release(request.file);
      reply({
        id: request.id,
        type: 'inspected',
        inspection: { context: reader.metadata.context, problems },
      });
      return;
    }
    case 'release':
      release(request.file);
      reply({ id: request.id, type: 'released' });
      return;
    case 'play-open':
      reply({
        id: request.id,
        type: 'play-opened',
        span: openPlayback(request.id, request.file, request.query),
      });
      return;
    case 'play-next': {
      const { changes, done } = nextChanges(request.playback, request.max, request.now);
      reply({ id: request.id, type: 'play-changes', changes, done });
      return;
    }
    case 'play-close':
      closePlayback(request.playback);
      reply({ id: request.id, type: 'released' });
      return;
    case 'state': {
      const reader = readerFor(request.file);
      const problemsBefore = reader.problems.length;
      if (request.rows) {
        const moment = momentRows.moment(reader, request.query, request.rows.now);
        reply({ id: request.id, type: 'moment', total: moment.total, gap: moment.gap });
        for (const rows of moment.chunks) reply({ id: request.id, type: 'rows', rows });
        const complete = reader.problems.length === problemsBefore;
        reply({ id: request.id, type: 'done', complete, gap: moment.gap });
        return;
      }
      const moment = momentAt(reader, request.query);
      reply({ id: request.id, type: 'moment', total: moment.rows.length, gap: moment.gap });
      let objects: unknown[] = [];
      for (const { version } of versionsOf(reader, moment.rows)) {
        objects.push(version);
        if (objects.length < objectsPerChunk) continue;
        reply({ id: request.id, type: 'objects', json: JSON.stringify(objects) });
        objects = [];
      }
      if (objects.length > 0) reply({ id: request.id, type: 'objects', json: JSON.stringify(objects) });
      const complete = reader.problems.length === problemsBefore;
      reply({ id: request.id, type: 'done', complete, gap: moment.gap });
      return;
    }
  }
}
