// One renderer's history: answers the history messages of the protocol from its HistorySource (the
// current context's recording, or a file it imported) and owns its replay subscriptions. Which files
// an export writes and an import reads is recording-files.ts's to decide: never a renderer's.
import { dirname } from 'node:path';
import type { Clock } from '../cache/clock';
import { gvrKey } from '../../shared/kube/object';
import type { GroupVersionResource } from '../../shared/kube/object';
import type {
  HistoryClientMessage,
  HistoryImportMessage,
  HistoryObjectReference,
  HistoryTimeline,
  HistoryTimelineMessage,
  RecordingSource,
} from '../../shared/protocol/history-messages';
import type { OutgoingMessage } from './outgoing-message';
import { StatusError, newStatus } from '../../shared/kube/status';
import type { ObjectReference } from '../history/object-history';
import { recordingToImport } from './recording-files';
import { RecordingExports, exportCancelled } from './recording-exports';
import { timelineReply } from './timeline-reply';
import type { FilePicker, RecordingFileAccess } from './recording-files';
import type { HistoryTransfers } from './history-transfers';
import { HistoryQueries } from '../history/history-queries';
import type { ClusterSession } from './cluster-session';
import { HistorySource } from './history-source';
import { ReplaySubscription } from './history-replay';
import type { BaseRows } from './sent-rows';
import type { JournalSource } from './journal-feed';
import { LiveJournalFeed } from './journal-feed';
import { printerFor } from '../../shared/kinds/columns';
import { WithdrawableRequests } from './withdrawable-requests';
import { sendReplyParts } from './reply-part-sender';

export type { FilePicker } from './recording-files';

export interface HistoryServiceOptions {
  /** The host's current session (it changes with context switches). */
  readonly session: () => ClusterSession;
  readonly send: (message: OutgoingMessage) => void;
  readonly bufferedBytes?: () => number;
  readonly clock: Clock;
  /** Main's file dialog (Electron); without one, destination and source "dialog" are refused. */
  readonly pickFile?: FilePicker;
  /** Browser mode's downloads and uploads; without them, "download" and uploads are refused. */
  readonly transfers?: HistoryTransfers;
  /** How many changes an export writes between two historyExportProgress messages. */
  readonly exportProgressEvery?: number;
  /**
   * The rows the renderer holds for its live subscription `subscriptionId`, if it mirrors (gvr,
   * namespace) and can serve as a moment's base now (see ReplayBase).
   */
  readonly liveRows?: (
    subscriptionId: string,
    gvr: GroupVersionResource,
    namespace: string,
  ) => BaseRows | undefined;
  /** The identity journal of the renderer's live subscription `subscriptionId` (see LiveJournalFeed). */
  readonly liveJournal?: (subscriptionId: string) => JournalSource | undefined;
}

function notFound(message: string): StatusError {
  return new StatusError(newStatus(404, 'NotFound', message));
}

export class HistoryService {
  private imported: HistorySource | undefined;
  /** Deletes the imported file when it was an upload (main's own temporary copy). */
  private removeImported: (() => void) | undefined;
  private live: HistorySource | undefined;
  private readonly replays = new Map<string, ReplaySubscription>();
  /** Runs the exports, each stopped by its request's withdrawal or by close. */
  private readonly exports: RecordingExports;
  /** Rebuilds moments off the main thread, for every replay subscription. */
  private readonly queries: HistoryQueries;
  /** The metrics questions and exports unanswered, which the renderer may withdraw (historyWithdraw). */
  private readonly withdrawable = new WithdrawableRequests();

  /** Has the travel path's worker read the live rows' journal ahead of a travel from them. */
  private readonly journalFeed: LiveJournalFeed;

  constructor(private readonly options: HistoryServiceOptions) {
    // The travel path's prewarm waits while the session's start lists (see spareCores), its worker
    // only while the first recorded kind lists (see startsWorker).
    this.queries = new HistoryQueries({
      spareCores: () => !options.session().starting,
      startsWorker: () => !options.session().firstListing,
    });
    this.exports = new RecordingExports(options.send, options.exportProgressEvery);
    this.journalFeed = new LiveJournalFeed({
      read: (journal, compare) => this.queries.readLiveJournal(journal, compare),
      nextTask: () => options.clock.sleep(0),
      idle: () => this.queries.travelPathIdle(),
    });
  }

  /** How many replay subscriptions this renderer holds (they count towards its subscription limit). */
  get replayCount(): number {
    return this.replays.size;
  }

  /** True when `subscriptionId` is one of this renderer's replay subscriptions. */
  has(subscriptionId: string): boolean {
    return this.replays.has(subscriptionId);
  }

  acknowledge(subscriptionId: string, seq: number): void {
    this.replays.get(subscriptionId)?.acknowledge(seq);
  }

  /** Sends the replay's rows again at its moment (the renderer saw a sequence gap). */
  resnapshot(subscriptionId: string): void {
    const replay = this.replays.get(subscriptionId);
    if (!replay) return;
    // A failed resend leaves the renderer's rows as they were; its next question reports the error.
    replay.resnapshot(this.queries, this.source().file).catch(() => {});
  }

  unsubscribe(subscriptionId: string): boolean {
    const replay = this.replays.get(subscriptionId);
    if (!replay) return false;
    replay.close();
    this.replays.delete(subscriptionId);
    return true;
  }

  serve(message: HistoryClientMessage): unknown {
    switch (message.type) {
      case 'historyTimeline':
        return this.timeline(message);
      case 'historyState': {
        const namespace = message.namespace ?? '';
        let replay = this.replays.get(message.subscriptionId);
        if (replay && (gvrKey(replay.gvr) !== gvrKey(message.gvr) || replay.namespace !== namespace)) {
          this.unsubscribe(message.subscriptionId);
          replay = undefined;
        }
        if (!replay) {
          replay = new ReplaySubscription({
            subscriptionId: message.subscriptionId,
            gvr: message.gvr,
            namespace,
            projector: this.options.session().projectorFor(message.gvr),
            clock: this.options.clock,
            send: this.options.send,
            ...(this.options.bufferedBytes ? { bufferedBytes: this.options.bufferedBytes } : {}),
            // The recording worker's CPU goes to the moment's rebuild; it writes what it missed after.
            holdRecording: (work) => this.options.session().recording?.recorder?.holdWhile(work),
          });
          this.replays.set(message.subscriptionId, replay);
        }
        const liveRows = this.options.liveRows;
        const base = message.base;
        return replay.showState(
          this.queries,
          this.source().file,
          message.time,
          // An imported recording is another cluster's (or another time's): the live rows are no base.
          base !== undefined && liveRows && !this.imported
            ? { subscriptionId: base, rows: () => liveRows(base, message.gvr, namespace) }
            : undefined,
        );
      }
      case 'historyPlay':
        return this.replay(message.subscriptionId)
          .play(this.queries, this.source().file, message.speed)
          .then(() => null);
      case 'historyStop':
        this.replay(message.subscriptionId).stop();
        return null;
      case 'historyVersions':
        return this.queries.versionList(this.source().file, reference(message.object));
      // Answered in the query worker from the two versions alone, and passed on as its bytes: main
      // never holds the object's history (a busy Deployment's hour is thousands of versions).
      case 'historyDiff':
        return this.queries
          .versionDiff(this.source().file, reference(message.object), message.olderId, message.newerId)
          .then((diff) => {
            if (!diff) throw notFound('no such version of the object');
            return diff;
          });
      case 'historyObject':
        return this.queries.objectAt(this.source().file, reference(message.object), message.time);
      case 'historyAdjacent':
        return this.queries
          .adjacent(this.source().file, reference(message.object), message.time, message.direction)
          .then((time) => (time === undefined ? null : { time }));
      case 'historyCrashLogs':
        return this.queries.crashLogs(this.source().file, message.uid, message.time);
      case 'historyMetrics':
        return this.withdrawable.run(message.requestId, async (signal) => {
          const answer = await this.queries.metricsAt(this.source().file, message.resource, message.time, {
            keys: message.heldKeys,
            answer: message.heldAnswer,
          });
          await sendReplyParts(message.requestId, answer.parts, {
            send: this.options.send,
            bufferedBytes: this.options.bufferedBytes,
            clock: this.options.clock,
            // Aborted too when the connection closes (close() withdraws every request).
            stopped: () => signal.aborted,
          });
          // Withdrawn meanwhile: the page would parse the answer only to drop it.
          signal.throwIfAborted();
          return answer.value;
        });
      case 'historyUsage':
        return this.queries.usage(this.source().file, message.subject, message.points, message);
      case 'historyEvents':
        return this.queries.events(this.source().file, message.involvedObject, message.time);
      case 'historyCounts':
        return this.queries.counts(this.source().file, message.time);
      case 'historyExport': {
        const source = this.source();
        const files = this.fileAccess();
        return this.withdrawable.run(
          message.requestId,
          (signal) => this.exports.start(message, source, files, signal),
          exportCancelled,
        );
      }
      case 'historyWithdraw':
        return this.withdrawable.withdraw(message.withdrawnRequestId);
      case 'historyImport':
        return this.import(message.source);
      case 'historyLive': {
        const closed = this.closeImported();
        this.stopReplays();
        // Answered once the import's file is closed and, for an upload, deleted.
        return closed.then(() => this.describe());
      }
    }
  }

  /** Closes every replay and reader. */
  close(): void {
    this.withdrawable.withdrawAll('the connection closed');
    this.stopReplays();
    this.live = undefined;
    // The worker closes the imported file (removing any salvage copy) before it ends.
    void this.closeImported().finally(() => this.queries.close());
  }

  /**
   * Forgets the imported file: the worker closes its reader (and any salvage copy) first, then an
   * upload's temporary copy is deleted.
   */
  private async closeImported(replacedBy?: string): Promise<void> {
    const imported = this.imported;
    const remove = this.removeImported;
    this.imported = undefined;
    this.removeImported = undefined;
    if (!imported) return;
    // The same file imported again: the worker's reader, just opened for it, stays.
    if (imported.file === replacedBy) return;
    await this.queries.release(imported.file).catch(() => {});
    remove?.();
  }

  private describe(): RecordingSource {
    try {
      return this.source().describe();
    } catch {
      return { kind: 'none', context: this.options.session().context, problems: [] };
    }
  }

  /** The imported file, else the current session's recording; throws when there is neither. */
  private source(): HistorySource {
    if (this.imported) return this.imported;
    const session = this.options.session();
    const recording = session.recording;
    if (!recording) throw notFound(`context ${session.context} is not being recorded`);
    if (this.live?.file !== recording.file) {
      this.live = new HistorySource({
        file: recording.file,
        context: session.context,
        ...(recording.recorder ? { recorder: recording.recorder } : {}),
        ...(recording.readOnly ? { readOnly: recording.readOnly } : {}),
      });
    }
    return this.live;
  }

  private replay(subscriptionId: string): ReplaySubscription {
    const replay = this.replays.get(subscriptionId);
    if (!replay) throw notFound(`no replay subscription ${subscriptionId}: send historyState first`);
    return replay;
  }

  private stopReplays(): void {
    for (const replay of this.replays.values()) replay.stop();
  }

  /** The timeline's figures come from the query worker: density over a long recording is a long scan. */
  private async timeline(message: HistoryTimelineMessage): Promise<HistoryTimeline> {
    const source = this.source();
    const asked = this.queries.timeline(source.file, {
      ...(message.from !== undefined ? { from: message.from } : {}),
      ...(message.to !== undefined ? { to: message.to } : {}),
      buckets: message.buckets,
      now: this.options.clock.now(),
    });
    if (message.base !== undefined) this.feedJournal(message.base, source);
    const figures = await asked;
    // Only the live recording is bounded by retention; an imported file's span is all there is.
    const recording = source.live ? this.options.session().recording : undefined;
    return timelineReply(
      figures,
      source.describe(),
      recording?.retention,
      recording?.recorder?.writingBehindMs() ?? 0,
    );
  }

  /**
   * Has the travel path's worker read the journal of the live subscription `subscriptionId` (the one
   * the page may travel from, named with its timeline question) ahead of the travel, when a travel
   * from it would read it: a kind the worker projects, from the live recording, with the worker
   * started (not while the session's start lists: see HistoryQueries' spareCores).
   */
  private feedJournal(subscriptionId: string, source: HistorySource): void {
    const journal = this.options.liveJournal?.(subscriptionId);
    if (!journal || this.imported || !source.live || !this.queries.travelPathStarted) return;
    if (this.options.session().projectorFor(journal.gvr).printer !== printerFor(journal.gvr)) return;
    const query = {
      gvr: gvrKey(journal.gvr),
      ...(journal.namespace ? { namespace: journal.namespace } : {}),
    };
    // A feed that fails leaves the journal to the travel, which reads what is left of it.
    this.journalFeed.feed(journal, { file: source.file, query }).catch(() => {});
  }

  /**
   * Opens the file to import in the query worker (header, schema, format and integrity checks, seconds
   * for a big file) and answers from it from then on; main only reads its 100-byte header.
   */
  private async import(from: HistoryImportMessage['source']): Promise<RecordingSource | null> {
    const chosen = await recordingToImport(this.fileAccess(), from);
    if (!chosen) return null;
    void this.closeImported(chosen.file);
    this.stopReplays();
    this.imported = new HistorySource({
      file: chosen.file,
      name: chosen.name,
      context: chosen.inspection.context,
      problems: chosen.inspection.problems,
    });
    this.removeImported = chosen.remove;
    return this.imported.describe();
  }

  private fileAccess(): RecordingFileAccess {
    const live = this.options.session().recording?.file;
    return {
      pickFile: this.options.pickFile,
      transfers: this.options.transfers,
      recordingsFolder: live ? dirname(live) : undefined,
      queries: this.queries,
    };
  }
}

function reference(object: HistoryObjectReference): ObjectReference {
  if ('uid' in object) return { uid: object.uid };
  return { gvr: gvrKey(object.gvr), namespace: object.namespace ?? '', name: object.name };
}
