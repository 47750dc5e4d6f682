// The log messages of the bridge protocol. A renderer opens a log stream (one view: a pod's container,
// or every pod of a workload or label selector, each container a source), main follows it with
// PodLogStreams and sends the lines in batches, at most one per stream per frame, merged by time
// within the batch; the renderer's buffer merges batches. Notes say what the lines cannot: a source
// reconnecting, lines possibly missing after a rotation, a run that ended.
import type { GroupVersionResource } from '../kube/object';

/**
 * What a log stream reads. Without `container`, a workload or selector reads every container of its
 * pods; a selector without `namespace` matches pods in every namespace.
 */
export type LogTarget =
  | { kind: 'pod'; namespace: string; name: string; container: string }
  | { kind: 'workload'; gvr: GroupVersionResource; namespace: string; name: string; container?: string }
  | { kind: 'selector'; namespace?: string; labelSelector: string; container?: string };

export interface LogOptions {
  follow: boolean;
  /** The previous (terminated) run of each container. */
  previous: boolean;
  tailLines?: number;
  sinceSeconds?: number;
  limitBytes?: number;
}

export interface OpenLogsMessage {
  type: 'openLogs';
  requestId: number;
  /** Chosen by the renderer; unique among its open log streams. */
  streamId: string;
  target: LogTarget;
  options: LogOptions;
}

export interface CloseLogsMessage {
  type: 'closeLogs';
  streamId: string;
}

export type LogClientMessage = OpenLogsMessage | CloseLogsMessage;

/** One container of one pod, numbered within its stream. */
export interface LogSource {
  id: number;
  namespace: string;
  pod: string;
  container: string;
}

export interface LogLine {
  source: number;
  /** Epoch milliseconds (ordering); `timestamp` keeps the kubelet's nanoseconds for display. */
  time: number;
  timestamp: string;
  text: string;
}

/** Lines of one stream, ordered by time within the batch. */
export interface LogLinesMessage {
  type: 'logLines';
  streamId: string;
  lines: LogLine[];
}

/** Sources that joined (a new pod matched) or left (its pod was deleted) a stream. */
export interface LogSourcesMessage {
  type: 'logSources';
  streamId: string;
  added: LogSource[];
  removed: number[];
}

export type LogNoteKind = 'reconnecting' | 'resumed' | 'rotated' | 'ended' | 'failed' | 'limited';

/** Something about a stream or one of its sources the user should know. */
export interface LogNoteMessage {
  type: 'logNote';
  streamId: string;
  source?: number;
  kind: LogNoteKind;
  message: string;
  /** Epoch ms. */
  time: number;
}

export type LogServerMessage = LogLinesMessage | LogSourcesMessage | LogNoteMessage;
