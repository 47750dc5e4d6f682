// History over the bridge: the timeline of a recording (with the retention bounding it), the cluster as
// it was at a moment (streamed as snapshot batches into a replay subscription, so the live table,
// filters and indexes show it, with cursors saying how far the moment is rebuilt and whether it was
// recorded), playback, the Events and per-kind counts at a moment, one object's versions and diffs,
// and export/import of recordings. Main answers them from the current context's recording, or from an
// imported file once the renderer has opened one.
import type { GroupVersionResource } from '../kube/object';
import type { InvolvedObject } from './client-messages';

/** One object: one incarnation by uid, or every incarnation under a kind and namespace/name. */
export type HistoryObjectReference =
  { uid: string } | { gvr: GroupVersionResource; namespace?: string; name: string };

/** The timeline strip: density per kind in `buckets` slices of [from, to), and gaps and relists. */
export interface HistoryTimelineMessage {
  type: 'historyTimeline';
  requestId: number;
  buckets: number;
  /** Default: the recording's start (ms since the epoch). */
  from?: number;
  /** Default: the recording's last write. */
  to?: number;
  /**
   * The live subscription the page may travel from next (the one a historyState would name as its
   * base): main has the history worker read its rows' versions meanwhile, so that the first travel
   * costs what a later one does.
   */
  base?: string;
}

/**
 * Replaces the rows of replay subscription `subscriptionId` with what the informer cache of (gvr,
 * namespace) held at `time`, as a snapshot run of batches. The first historyState opens the replay
 * subscription; unsubscribe closes it. Reply value: HistoryStateReply.
 */
export interface HistoryStateMessage {
  type: 'historyState';
  requestId: number;
  subscriptionId: string;
  gvr: GroupVersionResource;
  namespace?: string;
  time: number;
  /**
   * A live subscription of the same kind and namespace whose rows the renderer holds: main may then
   * send the moment as its difference from them (see DeltaBatch.base) rather than every row, since
   * a recent moment shares most of its rows with the present. Main ignores a base it cannot use.
   */
  base?: string;
}

/**
 * Plays the replay subscription forward from its current moment at `speed` times real time, as live
 * batches, pushing a historyCursor as its moment moves; it stops by itself at the recording's end.
 */
export interface HistoryPlayMessage {
  type: 'historyPlay';
  requestId: number;
  subscriptionId: string;
  speed: number;
}

export interface HistoryStopMessage {
  type: 'historyStop';
  requestId: number;
  subscriptionId: string;
}

/** Reply value: ObjectVersion[] (oldest first), deleted objects included. */
export interface HistoryVersionsMessage {
  type: 'historyVersions';
  requestId: number;
  object: HistoryObjectReference;
}

/** Reply value: HistoryDiffLine[] between two of the object's versions (by ObjectVersion.id). */
export interface HistoryDiffMessage {
  type: 'historyDiff';
  requestId: number;
  object: HistoryObjectReference;
  olderId: number;
  newerId: number;
}

/** Reply value: the object's version at `time` (a KubeObject), or null when it did not exist. */
export interface HistoryObjectMessage {
  type: 'historyObject';
  requestId: number;
  object: HistoryObjectReference;
  time: number;
}

/**
 * The Events tab at a past moment: the core/v1 Events about `involvedObject` that the recording held at
 * `time` (the live listEvents would show today's). Reply value: KubeObject[], oldest first.
 */
export interface HistoryEventsMessage {
  type: 'historyEvents';
  requestId: number;
  involvedObject: InvolvedObject;
  time: number;
}

/**
 * The sidebar at a past moment: how many objects each recorded kind held at `time`. Reply value:
 * Record<gvrKey, number>, kinds not recorded by then left out.
 */
export interface HistoryCountsMessage {
  type: 'historyCounts';
  requestId: number;
  time: number;
}

/** Reply value: the time of the object's previous/next change from `time`, or null. */
export interface HistoryAdjacentMessage {
  type: 'historyAdjacent';
  requestId: number;
  object: HistoryObjectReference;
  time: number;
  direction: 'previous' | 'next';
}

/**
 * The pod `uid`'s crash logs recorded at or before `time` (the last logs of its container runs that
 * ended, newest first). Reply value: RecordedCrashLog[].
 */
export interface HistoryCrashLogsMessage {
  type: 'historyCrashLogs';
  requestId: number;
  uid: string;
  time: number;
}

/** The last logs of one container run that ended, kept in the recording at the change that showed it. */
export interface RecordedCrashLog {
  /** When the change that showed the run had ended was recorded. */
  readonly time: number;
  readonly uid: string;
  readonly namespace: string;
  readonly pod: string;
  readonly container: string;
  /** The ended run's container id ("" when the kubelet did not say). */
  readonly containerId: string;
  readonly exitCode?: number | undefined;
  /** The kubelet's reason for the end ("Error", "OOMKilled", "Completed"...). */
  readonly reason: string;
  /** When the run ended, as the kubelet reported it (RFC 3339). */
  readonly finishedAt?: string | undefined;
  readonly logs: string;
  /** True when only the run's last bytes or lines were kept. */
  readonly truncated: boolean;
  /** (Absent fields were not reported; JSON drops them.) Why there are no logs ("the pod was gone before its logs were read"), if so. */
  readonly problem?: string | undefined;
}

/**
 * The CPU and memory of every pod (or node) at `time` as the recording kept them: each object's
 * latest sample taken at or before `time`, no older than two of its windows. Reply value:
 * RecordedMetrics (no keys, not laid out by keys held, not unchanged: no sample of that moment).
 */
export interface HistoryMetricsMessage {
  type: 'historyMetrics';
  requestId: number;
  resource: 'pods' | 'nodes';
  time: number;
  /**
   * The keysDigest and answerDigest of the answer the renderer holds (absent: none): when this
   * moment's answer is that one, it says so (unchanged); else it is laid out against that one's keys
   * (keysFrom), sending only the keys they lack. At 150,000 pods an answer is 7 MB, two thirds of it
   * keys, and a playback's answers for nearby moments share most of them, or all of it.
   */
  heldKeys?: string | undefined;
  heldAnswer?: string | undefined;
}

/**
 * Withdraws this connection's request `withdrawnRequestId` while it is unanswered: a historyMetrics
 * question whose moment the renderer has left (its answer, 8 MB at 150,000 pods, is then neither
 * relayed by main nor parsed by the page, ahead of a playback's rows on the same connection), or a
 * historyExport the user cancelled (no file is left of it: none offered, none at the destination).
 * The withdrawn request's reply is then an error saying so. Reply value: true when the request was
 * still unanswered, false when it had been answered already (or was never withdrawable).
 */
export interface HistoryWithdrawMessage {
  type: 'historyWithdraw';
  requestId: number;
  withdrawnRequestId: number;
}

/**
 * Recorded samples of one moment, in MetricsMessage's shape (row keys, cores, bytes): cpu[i] and
 * memory[i] are keys[i]'s; or, laid out against the keys of the answer held (keysFrom), those keys
 * followed by addedKeys, a null where a key has no sample at this moment.
 */
export interface RecordedMetrics {
  /** The newest sample's timestamp, if any sample was found. */
  readonly timestamp?: number | undefined;
  readonly windowMs?: number | undefined;
  /** Empty when laid out against the keys held (keysFrom) or unchanged. */
  readonly keys: string[];
  readonly cpu: (number | null)[];
  readonly memory: (number | null)[];
  /** The keysDigest of the answer held whose keys, then addedKeys, these values are laid out by. */
  readonly keysFrom?: string | undefined;
  readonly addedKeys?: string[] | undefined;
  /** A digest of the keys as laid out (absent when there are none), for the next question's heldKeys. */
  readonly keysDigest?: string | undefined;
  /** A digest of the whole answer (absent when there are no keys), for the next question's heldAnswer. */
  readonly answerDigest?: string | undefined;
  /** The answer is the held one (heldAnswer): keys, cpu and memory left out. */
  readonly unchanged?: true | undefined;
}

/** Whose usage over time: one pod or node, or every pod a workload ran. */
export interface UsageSubject {
  readonly kind: 'Pod' | 'Node' | 'Deployment' | 'StatefulSet' | 'DaemonSet';
  /** "" for a node. */
  readonly namespace: string;
  readonly name: string;
}

/**
 * The recorded CPU and memory of `subject` over [from, to] (default: the whole recording): one point
 * per poll at the API's resolution, or, over a longer span, `points` evenly spread polls. Reply
 * value: RecordedUsage.
 */
export interface HistoryUsageMessage {
  type: 'historyUsage';
  requestId: number;
  subject: UsageSubject;
  points: number;
  from?: number;
  to?: number;
}

/** One poll's total for the subject: cores and bytes summed over its pods' containers. */
export interface UsagePoint {
  readonly time: number;
  readonly cpu: number;
  readonly memory: number;
  /** Pods (or nodes) sampled. */
  readonly objects: number;
}

export interface RecordedUsage {
  readonly points: UsagePoint[];
}

/**
 * Writes [from, to] of the recording (optionally only some namespaces and kinds) to a file only the
 * user chose; a renderer never names a path. Reply value: HistoryExportReply, or null when the user
 * cancelled the dialog.
 */
export interface HistoryExportMessage {
  type: 'historyExport';
  requestId: number;
  from: number;
  to: number;
  namespaces?: string[];
  gvrs?: GroupVersionResource[];
  /**
   * "dialog": main's own save dialog picks a new file (Electron). "download": main offers the export
   * once, for a few minutes, at HistoryExportReply.downloadUrl, to the browser holding the session
   * cookie (browser mode).
   */
  destination: 'dialog' | 'download';
}

/**
 * Opens a recording read-only as this renderer's history source: one the user picks in main's open
 * dialog (Electron), or one the browser uploaded to historyUploadPath (browser mode), by the token the
 * upload answered with. Reply value: RecordingSource, or null when the dialog was cancelled.
 */
export interface HistoryImportMessage {
  type: 'historyImport';
  requestId: number;
  source: 'dialog' | { upload: string };
}

/**
 * Browser mode: POST a recording's bytes here (same origin, session cookie; `?name=` its file name) to
 * import it. The answer is JSON { upload: token } for historyImport, or a status with the reason.
 */
export const historyUploadPath = '/history/upload';
/** Browser mode: where exports are offered for download, followed by a one-time token. */
export const historyDownloadPath = '/history/download/';

/** Closes an imported recording: history is the current context's recording again. Reply: RecordingSource. */
export interface HistoryLiveMessage {
  type: 'historyLive';
  requestId: number;
}

export type HistoryClientMessage =
  | HistoryTimelineMessage
  | HistoryStateMessage
  | HistoryPlayMessage
  | HistoryStopMessage
  | HistoryVersionsMessage
  | HistoryDiffMessage
  | HistoryObjectMessage
  | HistoryAdjacentMessage
  | HistoryCrashLogsMessage
  | HistoryMetricsMessage
  | HistoryUsageMessage
  | HistoryEventsMessage
  | HistoryCountsMessage
  | HistoryExportMessage
  | HistoryWithdrawMessage
  | HistoryImportMessage
  | HistoryLiveMessage;

/** Where history answers come from. */
export interface RecordingSource {
  /** "live": the current context's recording, still being written; "imported": a file opened read-only. */
  kind: 'live' | 'imported' | 'none';
  context: string;
  /** The file's name (not its directory). */
  name?: string;
  /** Problems met reading it (damage): answers hold what could be read. */
  problems: string[];
}

export interface TimelineMark {
  kind: 'gap' | 'relist';
  reason: string;
  /** The kind concerned (gvrKey); absent for the whole recording. */
  gvr?: string;
  start: number;
  /** Absent while the gap is still open. */
  end?: number;
  detail: string;
}

/** What bounds how far back a recording reaches (main's --keep-days and --keep-size). */
export interface RecordingRetention {
  /** Changes older than this many ms are deleted. */
  maxAgeMs?: number;
  /** The oldest changes go once the file holds more than this many bytes. */
  maxBytes?: number;
}

export interface HistoryTimeline {
  source: RecordingSource;
  /** The span the recording covers; absent when it holds nothing yet. */
  range?: { start: number; end: number };
  /**
   * The live recording's retention; absent for an imported file, whose span is all there is, and
   * when nothing is ever deleted.
   */
  retention?: RecordingRetention;
  /**
   * The live recording's end trails now by this many ms: changes were captured since and wait to be
   * written (its recording process is behind, as while it writes a big cluster's first list). Absent
   * when it is not behind, and for an imported file.
   */
  writingBehindMs?: number;
  from: number;
  to: number;
  /** Changes per kind (gvrKey) in each of the equal slices of [from, to). */
  density: Record<string, number[]>;
  marks: TimelineMark[];
}

export interface HistoryStateReply {
  time: number;
  count: number;
  /** False when damage hid part of the state. */
  complete: boolean;
  /** The gap covering `time` for the kind: the rows are then the last state recorded before it. */
  gap?: ReplayGap;
}

export interface ObjectVersion {
  /** Identifies the version in historyDiff. */
  id: number;
  time: number;
  /** The delta type: Added, Updated, Deleted, Replaced, Sync. */
  type: string;
  uid: string;
  resourceVersion: string;
  /** A deletion a relist inferred (DeletedFinalStateUnknown). */
  finalStateUnknown: boolean;
}

export interface HistoryDiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
  oldLine?: number;
  newLine?: number;
}

export interface HistoryExportReply {
  /** The file's name (not its folder). */
  name: string;
  changes: number;
  bytes: number;
  /** destination "download": the one-time address to fetch the file from (same origin). */
  downloadUrl?: string;
}

/**
 * Pushed while export request `requestId` runs (before its reply): how many changes it has written so
 * far, every few thousand.
 */
export interface HistoryExportProgressMessage {
  type: 'historyExportProgress';
  requestId: number;
  changes: number;
}

/** A moment the recording did not see: why, and the gap's bounds. */
export interface ReplayGap {
  reason: string;
  detail: string;
  start: number;
  /** Absent while the gap is still open. */
  end?: number;
}

/**
 * Pushed whenever what a replay subscription shows changes: its moment, playback, how much of the
 * moment's rows have been sent, and whether the moment was recorded. It follows the batches it
 * describes on the same ordered link, so a renderer that applies messages in order never takes a
 * half-sent snapshot for the whole moment.
 */
export interface HistoryCursorMessage {
  type: 'historyCursor';
  subscriptionId: string;
  time: number;
  playing: boolean;
  /**
   * Rows of `time` sent so far, of `total`. The replay holds the moment only once they are equal;
   * until then the rows are a moment being rebuilt, never to be shown as complete.
   */
  rebuilt: number;
  /**
   * Absent while main is still reading the moment from the recording; `rebuilt` then counts the rows
   * read so far (0 when the reading is one step).
   */
  total?: number;
  /** The gap covering `time` for the kind (or the whole recording); absent when it was recorded. */
  gap?: ReplayGap;
  /**
   * Set while playing when the view clock has passed changes not yet applied (still being read, or
   * more than a frame can apply): `time` then waits at the last change applied, and the UI says the
   * playback is catching up rather than show a moment whose rows it does not hold.
   */
  catchingUp?: true;
}
