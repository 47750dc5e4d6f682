// History questions answered off the main thread, by two worker threads (query-worker), each in the
// order asked: one rebuilds moments and reads playbacks ahead (the travel path), the other answers
// everything beside them (the timeline, the sidebar's counts, the metrics, Events and versions of a
// moment). A travel's side questions are asked with it, and the past metrics of 50,000 pods took a
// second of one worker: in the ui bench's travel the moment's rebuild waited behind them, and a 10x
// playback's next page behind the metrics its own moving moment kept asking for. The objects (or
// rows) of a moment come back in chunks, each taken in its own task, so travelling to a 150,000-pod
// moment never holds the main thread for more than a chunk.
import type { KubeObject } from '../../shared/kube/object';
import type { InvolvedObject } from '../../shared/protocol/client-messages';
import type { RecordedUsage, UsageSubject } from '../../shared/protocol/history-messages';
import type { EncodedRows } from '../bridge/encoded-rows';
import { EncodedValue } from '../bridge/encoded-value';
import type { RecordedCrashLog } from './crash-log-store';
import type {
  LiveJournal,
  QueryReply,
  QueryRequest,
  RecordingInspection,
  TimelineFigures,
} from './query-protocol';
import type { QueryChunks } from './query-thread';
import { QueryThread } from './query-thread';
import type { ObjectReference } from './object-history';
import type { RecordingMark } from './recorded-change';
import type { HeldMetrics } from './metrics-layouts';
import type { StateQuery } from './replay';
import type { PlaybackChange, PlaybackQuery, PlaybackSpan } from './playback-reads';

export interface RebuiltState {
  /** False when damage hid some of it (see the reader's problems). */
  readonly complete: boolean;
  /** The gap covering the moment, if any (see ReplayState.gap). */
  readonly gap: RecordingMark | undefined;
  /** Rows only: how many the moment holds (sent, or against a moment kept from it). */
  readonly rows?: number;
  /**
   * Rows sent against a moment or the live rows (see MomentSize.against, againstLive): the keys of
   * those this one lacks.
   */
  readonly deletes?: string[];
}

/** A moment's size and gap, known before its first chunk (see the worker's "moment" reply). */
export interface MomentSize {
  /** The objects it holds: at most this many come (a version that cannot be read is left out). */
  readonly total: number;
  readonly gap: RecordingMark | undefined;
  /** Rows only: names the moment, for a later stateRows' `since` once its rows are held whole. */
  readonly moment?: number;
  /**
   * Rows only: set when they come as the difference from moment `against` (the `since` asked): only
   * the rows whose version it did not hold, then the keys it held that this one lacks (deletes).
   */
  readonly against?: number;
  /**
   * Rows only: set when they come as the difference from the live rows given (stateRows' `live`):
   * only the rows those lack or hold otherwise, then the keys they hold that this one lacks (deletes).
   */
  readonly againstLive?: true;
  /** With againstLive: how many of the moment's rows the live rows hold as they are (not sent). */
  readonly unchanged?: number;
  /** Asked with a live journal: the number of its next text, once read (see the "moment" reply). */
  readonly liveAt?: number;
}

export type { PlaybackChange, PlaybackQuery, PlaybackSpan, RecordingInspection, TimelineFigures };

export interface TimelineQuery {
  /** Defaults: the recording's range (or `now` when it holds nothing yet). */
  readonly from?: number;
  readonly to?: number;
  readonly buckets: number;
  readonly now: number;
}

/** An answer main passes on unparsed, in parts when it is big (see reply-parts.ts). */
export interface EncodedParts {
  /** The reply's value: the whole answer, or its head when it has parts. */
  readonly value: EncodedValue;
  /** The replyPart values to send before it, in order (none for an answer sent whole). */
  readonly parts: readonly EncodedValue[];
}

/** An 'encoded' or 'encoded-parts' reply as EncodedParts. */
function encodedPartsOf(reply: QueryReply): EncodedParts {
  if (reply.type === 'encoded-parts')
    return { value: new EncodedValue(reply.json), parts: reply.parts.map((part) => new EncodedValue(part)) };
  return { value: encodedOf(reply)!, parts: [] };
}

/** An 'encoded' reply's bytes as a value main passes on unparsed; undefined when it had none. */
function encodedOf(reply: QueryReply): EncodedValue | undefined {
  const { json } = replyOf(reply, 'encoded');
  return json === undefined ? undefined : new EncodedValue(json);
}

/** `reply` as the kind of reply its question expects: any other is the worker answering out of turn. */
function replyOf<T extends QueryReply['type']>(reply: QueryReply, type: T): Extract<QueryReply, { type: T }> {
  if (reply.type !== type) throw new Error('the history query worker answered out of turn');
  return reply as Extract<QueryReply, { type: T }>;
}

/** The questions of the travel path: a moment's rebuild and a playback's reads. */
const travelPath = new Set<QueryRequest['type']>([
  'state',
  'play-open',
  'play-next',
  'play-close',
  'prewarm',
  'live-journal',
  'moment-size',
]);

export interface HistoryQueriesOptions {
  /**
   * Whether a timeline asked of a recording has the travel path's worker decode its newest row frames
   * meanwhile (see prewarm; default true). Off, a first travel is as cold as an imported file's.
   */
  readonly prewarm?: boolean;
  /**
   * Whether the app has the cores to spare for the travel path now, asked at each timeline question
   * (default: always). While it says no, a timeline question neither starts the travel path's worker
   * nor has it prewarm: the page asks for the timeline as soon as it opens and every 2 s after, while
   * a big cluster's first LIST is still decoding on a 2-core machine, and a worker's start (its
   * modules) and a prewarm's decode of full row frames (a few hundred ms each at 150,000 rows) took
   * CPU that listing needed. The next timeline question once it says yes starts both.
   */
  readonly spareCores?: () => boolean;
  /**
   * Whether a timeline question may start the travel path's worker, without its prewarm, while
   * spareCores still says no (default: as spareCores): once the kind a first travel is asked of has
   * listed, the later recorded kinds' listing kept the worker unstarted through a whole churn window,
   * and the first travel then waited 1.5-6.6 s for its modules to load.
   */
  readonly startsWorker?: () => boolean;
}

/**
 * A travel's questions (a moment's size, then its rows): while one is unanswered the travel path's
 * worker does nothing else that can wait (see travelPathIdle).
 */
const travelQuestions = new Set<QueryRequest['type']>(['state', 'moment-size']);

export class HistoryQueries {
  /** Rebuilds moments and reads playbacks (travelPath), without quick_check (see QueryWorkerData). */
  private readonly moments = new QueryThread({ checkIntegrity: false });
  /** Every other question. */
  private readonly side = new QueryThread({});
  private nextId = 0;
  private readonly warmOnTimeline: boolean;
  private readonly spareCores: () => boolean;
  private readonly startsWorker: () => boolean;
  /** A travel's questions not yet answered (see travelQuestions). */
  private travelling = 0;
  /** Called once no travel's question is left unanswered (see travelPathIdle). */
  private idleWaiters: (() => void)[] = [];

  constructor(options: HistoryQueriesOptions = {}) {
    this.warmOnTimeline = options.prewarm !== false;
    this.spareCores = options.spareCores ?? (() => true);
    this.startsWorker = options.startsWorker ?? this.spareCores;
  }

  /** Whether the travel path's worker runs (a travel started it, or a timeline asked with cores to spare). */
  get travelPathStarted(): boolean {
    return this.moments.started;
  }

  /**
   * Resolves once no travel's question (a moment's size or rows) is left unanswered: at once when none
   * is. Work for the travel path's worker that can wait (the live journal read ahead, see
   * LiveJournalFeed) waits for it: the worker answers in the order asked, and under churn a journal
   * piece and its comparison with the newest state came ahead of the moment the user waits for.
   */
  travelPathIdle(): Promise<void> {
    if (this.travelling === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Rebuilds `query` of the recording `file` in the worker; `onObjects` gets the objects (ordered by
   * namespace/name) a chunk at a time, and the promise settles after the last chunk.
   */
  stateAt(
    file: string,
    query: StateQuery,
    onObjects: (objects: KubeObject[]) => void,
    onMoment?: (moment: MomentSize) => void,
  ): Promise<RebuiltState> {
    return this.ask({ type: 'state', file, query }, { onObjects, ...(onMoment ? { onMoment } : {}) }).then(
      rebuiltState,
    );
  }

  /**
   * stateAt, projected into rows in the worker with the kind's printer from shared/ (printerFor) at
   * the moment `now`: what a replay's table needs, without the objects crossing threads. The rows come
   * as JSON text (see EncodedRows), for main to pass on unparsed. Only for kinds whose projector uses
   * that printer (a CRD's columns come from its definition, known to main). With `since`, the
   * moment a stateRows named (MomentSize.moment) whose rows the asker holds whole, the worker may
   * send only the difference from them (MomentSize.against). Else with `live`, the live rows the
   * asker holds (see base-identities.ts), the difference from those (MomentSize.againstLive).
   */
  stateRows(
    file: string,
    query: StateQuery,
    now: number,
    onRows: (rows: EncodedRows) => void,
    onMoment?: (moment: MomentSize) => void,
    since?: number,
    live?: string | LiveJournal,
  ): Promise<RebuiltState> {
    const liveAsked = live === undefined ? {} : typeof live === 'string' ? { live } : { liveJournal: live };
    const asked = { now, ...(since !== undefined ? { since } : {}), ...liveAsked };
    return this.ask(
      { type: 'state', file, query, rows: asked },
      { onRows, ...(onMoment ? { onMoment } : {}) },
    ).then(rebuiltState);
  }

  /**
   * How many objects `query`'s moment of `file` holds (its members in any namespace, nothing decoded),
   * asked of the travel path's worker, which keeps them for the moment's rebuild.
   */
  momentSize(file: string, query: StateQuery): Promise<number> {
    return this.ask({ type: 'moment-size', file, query }).then(
      (reply) => replyOf(reply, 'moment-size').total,
    );
  }

  /** The span `query` asks for of the recording `file`: its range, density per kind, gaps and relists. */
  timeline(file: string, query: TimelineQuery): Promise<TimelineFigures> {
    return this.ask({
      type: 'timeline',
      file,
      from: query.from,
      to: query.to,
      buckets: query.buckets,
      now: query.now,
    }).then((reply) => replyOf(reply, 'timeline').timeline);
  }

  /** The object's versions as the History tab lists them (ObjectVersion[], see objectVersionList). */
  versionList(file: string, reference: ObjectReference): Promise<EncodedValue> {
    return this.ask({ type: 'version-list', file, reference }).then((reply) => encodedOf(reply)!);
  }

  /**
   * The line diff of the object's versions `olderId` and `newerId` (DiffLine[]), made in the worker;
   * undefined when either is not a version of the object.
   */
  versionDiff(
    file: string,
    reference: ObjectReference,
    olderId: number,
    newerId: number,
  ): Promise<EncodedValue | undefined> {
    return this.ask({ type: 'version-diff', file, reference, olderId, newerId }).then(encodedOf);
  }

  /** The object as recorded at `time` (a KubeObject, or null; see objectAt). */
  objectAt(file: string, reference: ObjectReference, time: number): Promise<EncodedValue> {
    return this.ask({ type: 'object-at', file, reference, time }).then((reply) => encodedOf(reply)!);
  }

  /** The time of the object's change before or after `time` (see adjacentChange); undefined if none. */
  adjacent(
    file: string,
    reference: ObjectReference,
    time: number,
    direction: 'previous' | 'next',
  ): Promise<number | undefined> {
    return this.ask({ type: 'adjacent', file, reference, time, direction }).then(
      (reply) => replyOf(reply, 'adjacent').time,
    );
  }

  /** The crash logs recorded for the pod `uid` at or before `time`, newest first (see crashLogsAt). */
  crashLogs(file: string, uid: string, time: number): Promise<RecordedCrashLog[]> {
    return this.ask({ type: 'crash-logs', file, uid, time }).then(
      (reply) => JSON.parse(replyOf(reply, 'crash-logs').json) as RecordedCrashLog[],
    );
  }

  /** The Events about `involved` in the recording `file` at `time` (see recordedEventsAbout). */
  events(file: string, involved: InvolvedObject, time: number): Promise<KubeObject[]> {
    return this.ask({ type: 'events', file, involved, time }).then(
      (reply) => JSON.parse(replyOf(reply, 'events').json) as KubeObject[],
    );
  }

  /** Objects per recorded kind in the recording `file` at `time` (see recordedCounts). */
  counts(file: string, time: number): Promise<Record<string, number>> {
    return this.ask({ type: 'counts', file, time }).then((reply) => replyOf(reply, 'counts').counts);
  }

  /**
   * Every pod's (or node's) recorded usage at `time` (see metricsAt), a RecordedMetrics as the
   * worker serialized it, in parts when big: for main to pass on to a renderer, never to read (see
   * EncodedValue), less what the asker holds (see MetricsLayouts).
   */
  metricsAt(
    file: string,
    resource: 'pods' | 'nodes',
    time: number,
    held: HeldMetrics = {},
  ): Promise<EncodedParts> {
    return this.ask({ type: 'metrics-at', file, resource, time, held }).then(encodedPartsOf);
  }

  /** `subject`'s recorded usage over the recording, at most about `points` polls (see usageOver). */
  usage(
    file: string,
    subject: UsageSubject,
    points: number,
    range: { readonly from?: number | undefined; readonly to?: number | undefined },
  ): Promise<RecordedUsage> {
    return this.ask({ type: 'usage', file, subject, points, from: range.from, to: range.to }).then(
      (reply) => replyOf(reply, 'usage').usage,
    );
  }

  /**
   * Opens the recording `file` afresh, integrity check included (seconds for a big file, hence the
   * worker), and says what it records and what is damaged; `keep` leaves it open for the questions
   * to come (then `release` closes it). Rejects with the RecordingError that
   * opening it threw when nothing can be read (not SQLite, not a recording, a newer format).
   */
  inspect(file: string, options: { keep: boolean }): Promise<RecordingInspection> {
    return this.ask({ type: 'inspect', file, keep: options.keep }).then(
      (reply) => replyOf(reply, 'inspected').inspection,
    );
  }

  /**
   * Opens a playback of the recording `file` in the worker: resolves with its id (for
   * playbackChanges and closePlayback) and the span it covers.
   */
  openPlayback(file: string, query: PlaybackQuery): Promise<{ id: number } & PlaybackSpan> {
    const { id, answer } = this.question({ type: 'play-open', file, query });
    return answer.then((reply) => ({ id, ...replyOf(reply, 'play-opened').span }));
  }

  /**
   * Up to `max` next changes of the playback `id`, in recorded order (rows projected at `now`); `done`
   * after the last.
   */
  playbackChanges(
    id: number,
    max: number,
    now: number,
  ): Promise<{ changes: PlaybackChange[]; done: boolean }> {
    return this.ask({ type: 'play-next', playback: id, max, now }).then((reply) => {
      const answer = replyOf(reply, 'play-changes');
      return { changes: answer.changes, done: answer.done };
    });
  }

  /** Closes the playback `id` (its reader); nothing to wait for, and a closed worker closed it already. */
  closePlayback(id: number): void {
    if (!this.moments.started) return;
    this.ask({ type: 'play-close', playback: id }).catch(() => {});
  }

  /**
   * Has the travel path's worker decode the newest row frames of the recording `file` (each framed
   * kind's newest chain) while it answers nothing else, so that the first travel near the recording's
   * end reads them decoded; settles when they are (or could not be). A timeline asks it (see
   * HistoryQueriesOptions): a window that shows one is a window to travel in.
   */
  prewarm(file: string): Promise<void> {
    return this.ask({ type: 'prewarm', file }).then((reply) => {
      replyOf(reply, 'warmed');
    });
  }

  /**
   * Has the travel path's worker read `journal` of live rows ahead of a travel from them (see
   * LiveJournalFeed), and with `compare` compare them with the newest state of `compare.query`'s
   * kind in `compare.file`: resolves with the number of the journal's next batch once read, or
   * undefined when it could not be (see LiveListings.apply).
   */
  readLiveJournal(
    journal: LiveJournal,
    compare?: { readonly file: string; readonly query: Omit<StateQuery, 'time'> },
  ): Promise<number | undefined> {
    return this.ask({ type: 'live-journal', journal, ...(compare ? { compare } : {}) }).then(
      (reply) => replyOf(reply, 'journal-read').at,
    );
  }

  /** Closes the workers' readers of `file`, if open: a file given up may then be deleted. */
  release(file: string): Promise<void> {
    const threads = [this.side, this.moments].filter((thread) => thread.started);
    return Promise.all(
      threads.map((thread) => thread.ask({ type: 'release', file, id: ++this.nextId }, {})),
    ).then(() => undefined);
  }

  private ask(request: DistributiveOmit<QueryRequest, 'id'>, chunks: QueryChunks = {}): Promise<QueryReply> {
    return this.question(request, chunks).answer;
  }

  /** Sends `request` under a fresh id to its worker; `answer` settles with the worker's last reply to it. */
  private question(
    request: DistributiveOmit<QueryRequest, 'id'>,
    chunks: QueryChunks = {},
  ): { id: number; answer: Promise<QueryReply> } {
    const id = ++this.nextId;
    const thread = travelPath.has(request.type) ? this.moments : this.side;
    let answer = thread.ask({ ...request, id } as QueryRequest, chunks);
    if (travelQuestions.has(request.type)) {
      this.travelling += 1;
      answer = answer.finally(() => this.travelAnswered());
    }
    // A timeline is asked when a window opens, to travel with: the travel path's worker starts then,
    // since a worker takes a second or two to start on a loaded machine, which the first travel
    // should not wait for. Not while the app needs the cores (see HistoryQueriesOptions.spareCores):
    // a travel then starts it itself, unless the worker alone may start (see startsWorker). Nor does
    // it prewarm while a travel is asked: its steps would come between the travel's questions (the
    // page asks a timeline every 2 s, so the next one warms).
    if (request.type === 'timeline' && this.spareCores()) {
      this.moments.start();
      if (this.warmOnTimeline && this.travelling === 0) this.prewarm(request.file).catch(() => {});
    } else if (request.type === 'timeline' && this.startsWorker()) this.moments.start();
    return { id, answer };
  }

  private travelAnswered(): void {
    this.travelling -= 1;
    if (this.travelling > 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /** Ends the workers; questions still pending reject. */
  close(): void {
    this.moments.close();
    this.side.close();
  }
}

function rebuiltState(reply: QueryReply): RebuiltState {
  if (reply.type !== 'done') return { complete: false, gap: undefined };
  const { complete, gap, rows, deletes } = reply;
  return { complete, gap, ...(rows !== undefined ? { rows } : {}), ...(deletes ? { deletes } : {}) };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
