// One renderer's history: answers the history messages of the protocol from its HistorySource (the
// current context's recording, or a file it imported) and owns its replay subscriptions.
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import type { Clock } from '../cache/clock';
import { gvrKey } from '../../shared/kube/object';
import type { KubeObject } from '../../shared/kube/object';
import type {
  HistoryClientMessage,
  HistoryExportMessage,
  HistoryExportReply,
  HistoryObjectReference,
  HistoryTimeline,
  HistoryTimelineMessage,
  ObjectVersion,
  RecordingSource,
} from '../../shared/protocol/history-messages';
import type { ServerMessage } from '../../shared/protocol/server-messages';
import { StatusError, newStatus } from '../../shared/kube/status';
import { openRecording } from '../history/recording-reader';
import type { RecordingReader } from '../history/recording-reader';
import { eventDensity, recordingMarks, timeRange } from '../history/replay';
import type { ObjectReference } from '../history/object-history';
import { adjacentChange, objectVersions } from '../history/object-history';
import { diffObjects } from '../history/object-diff';
import { exportRecording } from '../history/export-recording';
import type { ClusterSession } from './cluster-session';
import { HistorySource } from './history-source';
import { ReplaySubscription } from './history-replay';
import { recordedEventsAbout } from './recorded-events';
import { recordedCounts } from './recorded-counts';

/**
 * Asks the user for a recording file in main's own dialog (a save dialog to export, an open dialog to
 * import); resolves undefined when they cancel.
 */
export type FilePicker = (
  purpose: 'export' | 'import',
  suggestedPath: string | undefined,
) => Promise<string | undefined>;

export interface HistoryServiceOptions {
  /** The host's current session (it changes with context switches). */
  readonly session: () => ClusterSession;
  readonly send: (message: ServerMessage) => void;
  readonly bufferedBytes?: () => number;
  readonly clock: Clock;
  /** Main's file dialog; without one, requests with `pick` are refused. */
  readonly pickFile?: FilePicker;
}

/** Exports of at most this size also travel back in the reply, for a browser download. */
const maxDownloadBytes = 64 * 1024 * 1024;

function notFound(message: string): StatusError {
  return new StatusError(newStatus(404, 'NotFound', message));
}

export class HistoryService {
  private imported: HistorySource | undefined;
  private live: { file: string; source: HistorySource } | undefined;
  private readonly replays = new Map<string, ReplaySubscription>();

  constructor(private readonly options: HistoryServiceOptions) {}

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
    if (replay) replay.showState(this.source().reader(), replay.time);
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
          });
          this.replays.set(message.subscriptionId, replay);
        }
        return replay.showState(this.source().reader(), message.time);
      }
      case 'historyPlay':
        this.replay(message.subscriptionId).play(this.source(), message.speed);
        return null;
      case 'historyStop':
        this.replay(message.subscriptionId).stop();
        return null;
      case 'historyVersions':
        return this.versions(message.object);
      case 'historyDiff': {
        const versions = objectVersions(this.source().reader(), reference(message.object));
        const older = versions.find((version) => version.id === message.olderId);
        const newer = versions.find((version) => version.id === message.newerId);
        if (!older || !newer) throw notFound('no such version of the object');
        return diffObjects(older.object, newer.object);
      }
      case 'historyObject': {
        const versions = objectVersions(this.source().reader(), reference(message.object));
        let found: KubeObject | undefined;
        for (const version of versions) {
          if (version.time > message.time) break;
          found = version.type === 'Deleted' ? undefined : version.object;
        }
        return found ?? null;
      }
      case 'historyAdjacent': {
        const change = adjacentChange(
          this.source().reader(),
          reference(message.object),
          message.time,
          message.direction,
        );
        return change ? { time: change.time } : null;
      }
      case 'historyEvents':
        return recordedEventsAbout(this.source().reader(), message.involvedObject, message.time);
      case 'historyCounts':
        return recordedCounts(this.source().reader(), message.time);
      case 'historyExport':
        if (!message.pick) return this.export(message);
        return this.pick('export', message.path).then((path) => path && this.export({ ...message, path }));
      case 'historyImport':
        if (!message.pick) return this.import(message.path ?? '');
        return this.pick('import', message.path).then((path) => path && this.import(path));
      case 'historyLive':
        this.imported?.close();
        this.imported = undefined;
        this.stopReplays();
        return this.describe();
    }
  }

  /** The user's choice in main's dialog: a path, or null when they cancelled. */
  private async pick(purpose: 'export' | 'import', suggested: string | undefined): Promise<string | null> {
    if (!this.options.pickFile) throw new Error('main has no file dialog here: give a path instead');
    return (await this.options.pickFile(purpose, suggested)) ?? null;
  }

  /** Closes every replay and reader. */
  close(): void {
    this.stopReplays();
    this.imported?.close();
    this.live?.source.close();
    this.imported = undefined;
    this.live = undefined;
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
      this.live?.source.close();
      this.live = {
        file: recording.file,
        source: new HistorySource({
          file: recording.file,
          context: session.context,
          recorder: recording.recorder,
          clock: this.options.clock,
        }),
      };
    }
    return this.live.source;
  }

  private replay(subscriptionId: string): ReplaySubscription {
    const replay = this.replays.get(subscriptionId);
    if (!replay) throw notFound(`no replay subscription ${subscriptionId}: send historyState first`);
    return replay;
  }

  private stopReplays(): void {
    for (const replay of this.replays.values()) replay.stop();
  }

  private timeline(message: HistoryTimelineMessage): HistoryTimeline {
    const source = this.source();
    const reader = source.reader();
    const range = timeRange(reader);
    const from = message.from ?? range?.start ?? this.options.clock.now();
    const to = Math.max(from + 1, message.to ?? range?.end ?? from + 1);
    const density = Object.fromEntries(eventDensity(reader, { from, to, buckets: message.buckets }));
    const marks = recordingMarks(reader, from, to).map((mark) => ({
      kind: mark.kind,
      reason: mark.reason,
      start: mark.start,
      detail: mark.detail,
      ...(mark.end !== undefined ? { end: mark.end } : {}),
      ...(mark.stream ? { gvr: mark.stream.gvr } : {}),
    }));
    // Only the live recording is bounded by retention; an imported file's span is all there is.
    const retention = source.live ? this.options.session().recording?.retention : undefined;
    return {
      source: source.describe(),
      ...(range ? { range } : {}),
      ...(retention && (retention.maxAgeMs !== undefined || retention.maxBytes !== undefined)
        ? { retention: { ...retention } }
        : {}),
      from,
      to,
      density,
      marks,
    };
  }

  private versions(object: HistoryObjectReference): ObjectVersion[] {
    return objectVersions(this.source().reader(), reference(object)).map((version) => ({
      id: version.id,
      time: version.time,
      type: version.type,
      uid: version.uid,
      resourceVersion: version.resourceVersion,
      finalStateUnknown: version.finalStateUnknown,
    }));
  }

  private export(message: HistoryExportMessage): HistoryExportReply {
    const source = this.source();
    const reader: RecordingReader = source.reader();
    const path =
      message.path ??
      join(
        dirname(dirname(source.file)),
        'exports',
        `${safeName(reader.metadata.context)}-${new Date(message.from).toISOString().replace(/[:.]/g, '-')}.kubetide`,
      );
    guardExportPath(path);
    mkdirSync(dirname(path), { recursive: true });
    const summary = exportRecording(reader, path, {
      from: message.from,
      to: message.to,
      ...(message.namespaces ? { namespaces: message.namespaces } : {}),
      ...(message.gvrs ? { gvrs: message.gvrs.map(gvrKey) } : {}),
    });
    const bytes = statSync(path).size;
    const download =
      message.download && bytes <= maxDownloadBytes ? readFileSync(path).toString('base64') : undefined;
    return { path, changes: summary.changes, bytes, ...(download !== undefined ? { download } : {}) };
  }

  private import(path: string): RecordingSource {
    const reader = openRecording(path);
    const context = reader.metadata.context;
    reader.close();
    this.imported?.close();
    this.stopReplays();
    this.imported = new HistorySource({ file: path, context, clock: this.options.clock });
    this.imported.reader();
    return this.imported.describe();
  }
}

function reference(object: HistoryObjectReference): ObjectReference {
  if ('uid' in object) return { uid: object.uid };
  return { gvr: gvrKey(object.gvr), namespace: object.namespace ?? '', name: object.name };
}

/**
 * The renderer is the less trusted side and an export replaces its destination: only a
 * ".kubetide" file may be written, and an existing one only if it is a recording, so no request can
 * overwrite anything else the user owns.
 */
function guardExportPath(path: string): void {
  if (!isAbsolute(path)) throw new Error(`export to an absolute path, not "${path}"`);
  if (!path.endsWith('.kubetide')) throw new Error(`an export file name ends in .kubetide: "${path}"`);
  if (!existsSync(path)) return;
  try {
    openRecording(path).close();
  } catch {
    throw new Error(`${path} exists and is not a Kubetide recording; it was left alone`);
  }
}

function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '-') || 'recording';
}
