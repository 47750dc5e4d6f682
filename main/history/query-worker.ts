// The entry point of a history query worker thread (see HistoryQueries; its messages are in
// query-protocol.ts): rebuilds a moment of a recording (stateAt: keyframe, changes, version chains,
// decompression) off the main thread and sends it back in chunks, so the receiving thread takes one
// chunk per task: the objects as JSON text, or (for kinds whose columns shared/ prints) the table
// rows projected here (see MomentRows), a tenth of the objects' size, also as JSON text
// (EncodedRows), which main passes on to a renderer without parsing it;
// sums up a span of it for the timeline (density per kind, gaps and relists); answers one object's
// version list, a diff of two of its versions and the object at a moment, and a moment's usage, as
// JSON bytes main passes on (EncodedValue); reads the Events about one object and the sidebar's
// counts at a moment; inspects a file to
// import (schema, format, integrity); reads playbacks ahead a page at a time (playback-reads); and,
// while nothing is asked, decodes a recording's newest row frames ahead of its first travel
// (FrameWarmer).
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { jsonBytes } from '../bridge/encoded-value';
import { splitReplyValue } from '../../shared/protocol/reply-parts';
import type { PartedArrays } from '../../shared/protocol/reply-parts';
import { metricsKeysPerPart } from '../../shared/protocol/metrics-parts';
import { crashLogsAt } from './crash-log-store';
import { FrameWarmer } from './frame-warmer';
import { LiveListings } from './live-identities';
import { metricsAt, usageOver } from './metric-sample-reader';
import { MetricsLayouts } from './metrics-layouts';
import { closePlayback, nextChanges, openPlayback } from './playback-reads';
import { recordingMarks, timeRange } from './replay';
import { ChangeDensity } from './change-density';
import { momentAt, versionsOf } from './state-at';
import { MomentRows } from './moment-rows';
import { compareLive } from './moment-live';
import { adjacentChange, objectAt, objectVersionList, objectVersionsById } from './object-history';
import { diffObjects } from './object-diff';
import { RecordingError, messageOf } from './recording-error';
import type { RecordingReader } from './recording-reader';
import { recordedCounts } from './recorded-counts';
import { MemberCounts } from './member-counts';
import { recordedEventsAbout } from './recorded-events';
import type { QueryReply, QueryRequest, QueryWorkerData, TimelineFigures } from './query-protocol';
import { QueryReaders } from './query-readers';
import { nameThisThread } from './thread-name';

const readers = new QueryReaders((workerData as QueryWorkerData | undefined)?.checkIntegrity !== false);
/** Objects per chunk when they are sent whole: about 2.5 MB of pods, a few ms to parse. */
const objectsPerChunk = 1000;
/** Each open reader's change times, so a timeline reads only the changes committed since the last. */
const densities = new WeakMap<RecordingReader, ChangeDensity>();
/** The last moment's rows, so scrubbing nearby decodes only what changed in between. */
const momentRows = new MomentRows();
const warmer = new FrameWarmer();
/** The layouts past metrics were answered in, so that the next answer sends only what is new. */
const metricsLayouts = new MetricsLayouts();
/** The sidebar's counts at past moments, each stream's kept for the next moment asked (see MemberCounts). */
const memberCounts = new MemberCounts();
/** The live rows' identities of the travels from live before, by journal (see LiveListings). */
const liveListings = new LiveListings();
const readerFor = (file: string, check?: boolean) => readers.readerFor(file, check);

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
  nameThisThread('kubetide-query');
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

/** Replies with `value`'s JSON bytes, moved to main (see EncodedValue); undefined: nothing found. */
function replyEncoded(port: MessagePort, id: number, value: unknown): void {
  const json = value === undefined ? undefined : jsonBytes(value);
  port.postMessage(
    { id, type: 'encoded', json } satisfies QueryReply,
    json ? [json.buffer as ArrayBuffer] : [],
  );
}

/** A moment's metrics go in parts of the live metrics' size (a few ms of the page's thread each). */
const recordedMetricsParts: PartedArrays = {
  fields: ['keys', 'cpu', 'memory', 'addedKeys'],
  itemsPerPart: metricsKeysPerPart,
};

/** Like replyEncoded, cut into a head and parts when `value`'s arrays are longer than a part. */
function replyEncodedInParts(port: MessagePort, id: number, value: object, parted: PartedArrays): void {
  const split = splitReplyValue(value, parted);
  if (!split) return replyEncoded(port, id, value);
  const json = jsonBytes(split.head);
  const parts = split.parts.map((part) => jsonBytes(part));
  port.postMessage({ id, type: 'encoded-parts', json, parts } satisfies QueryReply, [
    json.buffer as ArrayBuffer,
    ...parts.map((part) => part.buffer as ArrayBuffer),
  ]);
}

function answer(port: MessagePort, request: QueryRequest): void {
  const reply = (message: QueryReply) => port.postMessage(message);
  switch (request.type) {
    case 'timeline':
      reply({ id: request.id, type: 'timeline', timeline: timeline(request) });
      return;
    case 'version-list':
      return replyEncoded(port, request.id, objectVersionList(readerFor(request.file), request.reference));
    case 'version-diff': {
      const { olderId, newerId } = request;
      const versions = objectVersionsById(readerFor(request.file), request.reference, [olderId, newerId]);
      const older = versions.find((version) => version.id === olderId);
      const newer = versions.find((version) => version.id === newerId);
      const diff = older && newer ? diffObjects(older.object, newer.object) : undefined;
      return replyEncoded(port, request.id, diff);
    }
    case 'object-at': {
      const object = objectAt(readerFor(request.file), request.reference, request.time);
      return replyEncoded(port, request.id, object ?? null);
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
        counts: recordedCounts(readerFor(request.file), request.time, memberCounts),
      });
      return;
    case 'metrics-at': {
      const metrics = metricsAt(readerFor(request.file).database, request.resource, request.time);
      return replyEncodedInParts(
        port,
        request.id,
        metricsLayouts.answer(metrics, request.held),
        recordedMetricsParts,
      );
    }
    case 'usage': {
      const usage = usageOver(readerFor(request.file).database, request.subject, request.points, request);
      reply({ id: request.id, type: 'usage', usage });
      return;
    }
    case 'inspect': {
      // A fresh open, integrity check included, whatever was open before: the file is new to the
      // asker. A kept reader spares the questions that follow an import a second check.
      readers.release(request.file);
      const reader = readerFor(request.file, true);
      const problems = reader.problems.map((problem) => `${problem.where}: ${problem.message}`);
      if (!request.keep) readers.release(request.file);
      reply({
        id: request.id,
        type: 'inspected',
        inspection: { context: reader.metadata.context, problems },
      });
      return;
    }
    case 'release':
      readers.release(request.file);
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
    case 'prewarm': {
      const reader = readerFor(request.file);
      warmer.warm(
        request.file,
        () => momentRows.warming(reader),
        () => reply({ id: request.id, type: 'warmed' }),
      );
      return;
    }
    case 'live-journal': {
      const { journal, compare } = request;
      const listing = liveListings.apply(journal);
      reply({ id: request.id, type: 'journal-read', at: listing?.at });
      if (listing && compare) {
        // After the reply and between questions (see FrameWarmer.soon): a travel asked meanwhile
        // goes first, and compares what the comparison has not brought up to date yet.
        const { identities, comparisons } = listing;
        const reader = readerFor(compare.file);
        warmer.soon(() => compareLive(reader, momentRows.newest, compare.query, identities, comparisons));
      }
      return;
    }
    case 'moment-size':
      // A travel's first question: its rows are asked next (see FrameWarmer.hold).
      warmer.hold();
      reply({
        id: request.id,
        type: 'moment-size',
        total: momentRows.newest.sizeAt(readerFor(request.file), request.query),
      });
      return;
    case 'play-close':
      closePlayback(request.playback);
      reply({ id: request.id, type: 'released' });
      return;
    case 'state': {
      // Answered in this task: the warming goes on after it (see FrameWarmer.hold).
      setImmediate(() => warmer.release());
      const reader = readerFor(request.file);
      const problemsBefore = reader.problems.length;
      if (request.rows) {
        const { now, since, live, liveJournal } = request.rows;
        // The live rows as their journal's new texts, applied to those kept from the travels before.
        const listing = liveJournal && liveListings.apply(liveJournal);
        const liveRows = listing ?? live;
        const moment = momentRows.moment(reader, request.query, now, since, liveRows);
        const { total, gap, against, againstLive, unchanged } = moment;
        reply({
          id: request.id,
          type: 'moment',
          total,
          gap,
          moment: moment.id,
          ...(against ? { against } : {}),
          ...(againstLive ? { againstLive, unchanged } : {}),
          ...(listing ? { liveAt: listing.at } : {}),
        });
        for (const rows of moment.chunks) reply({ id: request.id, type: 'rows', rows });
        const complete = reader.problems.length === problemsBefore;
        const { rows, deletes } = moment.ended();
        reply({
          id: request.id,
          type: 'done',
          complete,
          gap,
          rows,
          ...(against || againstLive ? { deletes } : {}),
        });
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
