// The messages between a Recorder (on the thread that runs the informers) and the recording process
// that owns the file (a worker thread; in Electron it can become a utilityProcess unchanged). The
// capture side sends batches of entries as one JSON text in UTF-8: the informer's thread serializes
// each object once as it is captured, straight into the batch's buffer, and a batch crosses as that
// buffer, transferred (not copied) to a worker thread, never as thousands of cloned objects.
import type { RecordingProblem } from './recording-error';
import type { RetentionPolicy } from './retention';
import type { RowFrameOptions } from './row-frame-writer';

/** What the recording process needs to open and write a recording. */
export interface RecordingSettings {
  readonly file: string;
  readonly context: string;
  /** See RecorderOptions. */
  readonly keyframeIntervalMs?: number;
  readonly keyframeEveryChanges?: number;
  readonly fullVersionEvery?: number;
  /** The row frames' cadence (see RowFrameWriter); false: none (a bench's comparison). */
  readonly rowFrames?: RowFrameOptions | false;
  readonly retention?: RetentionPolicy;
  readonly retentionCheckIntervalMs?: number;
}

export type RecorderRequest =
  | { readonly type: 'open'; readonly settings: RecordingSettings; readonly now: number }
  /**
   * `entries` is a JSON array of BatchEntry in UTF-8, written in one transaction; `entryEnds` says
   * where each entry ends in it (see CaptureQueue's TakenBatch).
   */
  | {
      readonly type: 'batch';
      readonly sequence: number;
      readonly entries: Uint8Array;
      readonly entryEnds: Uint32Array;
      readonly now: number;
    }
  | { readonly type: 'retention'; readonly policy: RetentionPolicy; readonly now: number }
  /** One poll's metric samples: their own table, never a change of the capture queue. */
  | { readonly type: 'metric-samples'; readonly samples: MetricSamplesEntry; readonly now: number }
  | { readonly type: 'close'; readonly now: number };

export type RecordingReply =
  /** `lastWritten`: when the file was last written before (undefined for a new file). */
  | { readonly type: 'opened'; readonly lastWritten: number | undefined }
  | {
      readonly type: 'open-failed';
      readonly file: string;
      readonly problem: RecordingProblem | undefined;
      readonly message: string;
    }
  /** Batch `sequence` is on disk (or was lost, and a gap says so); totals since open. */
  | {
      readonly type: 'written';
      readonly sequence: number;
      readonly changesWritten: number;
      readonly bytes: number;
      /** Time the process has spent writing batches, in ms. */
      readonly writeMs: number;
      /** Of which its thread was on a CPU (undefined where the platform does not tell). */
      readonly writeCpuMs: number | undefined;
      /**
       * The batch's buffer, given back once read (transferred back from a worker): the Recorder fills
       * it again (see BatchBuffer). Nothing of the recording refers to it any more.
       */
      readonly entries?: Uint8Array;
    }
  /** Something failed that recording survives (a batch, retention); for the Recorder's reportError. */
  | { readonly type: 'error'; readonly context: string; readonly message: string }
  | { readonly type: 'closed'; readonly bytes: number };

/** A change: [time, stream, encodeDeltaType code, key, object (null: a deletion with no known state)]. */
export type ChangeEntry = [number, number, number, string, unknown];

/** Every mark names the Recorder's own stream number (the process maps it to the file's). */
export type MarkEntry =
  /** Opens (creating if new) the stream; its earlier content is unknown from here (an empty keyframe). */
  | {
      readonly mark: 'stream';
      readonly stream: number;
      readonly gvr: string;
      readonly scope: string;
      readonly time: number;
    }
  /** A gap opens; `gap` is the Recorder's number for it; stream undefined: the whole recording. */
  | {
      readonly mark: 'gap-open';
      readonly gap: number;
      readonly reason: GapReason;
      readonly stream: number | undefined;
      readonly start: number;
      readonly detail: string;
    }
  | { readonly mark: 'gap-close'; readonly gap: number; readonly end: number }
  /** A list began replacing the stream's cache: objects it does not name are retired when it is applied. */
  | { readonly mark: 'list-start'; readonly stream: number }
  /** The list is in the cache: untouched objects retire, a relist mark and a keyframe are written. */
  | {
      readonly mark: 'list-applied';
      readonly stream: number;
      readonly time: number;
      readonly reason: RelistReason;
      readonly detail: string;
    };

/**
 * The last logs of a container's run that ended (see CrashLogCapture), stamped with the time of the
 * change that showed the run ended, and tied to the pod's uid and the run's container id.
 */
export interface CrashLogEntry {
  readonly record: 'crash-log';
  readonly time: number;
  readonly uid: string;
  readonly namespace: string;
  readonly pod: string;
  readonly container: string;
  readonly containerId: string;
  readonly exitCode: number | undefined;
  readonly reason: string;
  readonly finishedAt: string | undefined;
  /** The log text ("" when it could not be read; `problem` says why). */
  readonly logs: string;
  /** True when the limits cut the text: it is the run's last limitBytes (or tail lines), not all of it. */
  readonly truncated: boolean;
  /** Why there are no logs ("the pod was gone before its logs were read"), if so. */
  readonly problem: string | undefined;
}

export type BatchEntry = ChangeEntry | MarkEntry | CrashLogEntry;

export type GapReason = 'not-recording' | 'watch-disconnected' | 'listing' | 'relisting' | 'queue-overflow';
export type RelistReason = 'initial-list' | 'relist' | 'attached' | 'resynchronized';

/**
 * A series the Recorder numbers for the first time: one pod container's, or one node's, usage. The
 * recording process maps the number to the file's series (as it maps stream numbers).
 */
export interface MetricSeriesDefinition {
  readonly series: number;
  readonly namespace: string;
  readonly name: string;
  /** The pod's uid when the recorded informer held it, else "". */
  readonly uid: string;
  /** "" for a node. */
  readonly container: string;
  /** The pod's workload ("Deployment/web", "StatefulSet/db", "DaemonSet/agent", "Job/x"), else "". */
  readonly workload: string;
}

/**
 * Every sample one poll of metrics.k8s.io returned for `resource`, as parallel arrays (one structured
 * clone of numbers, not 150,000 objects); series are defined once, in the first poll naming them.
 */
export interface MetricSamplesEntry {
  readonly resource: 'pods' | 'nodes';
  readonly definitions: readonly MetricSeriesDefinition[];
  // Arrays or typed arrays: a poll read in the metrics worker travels as typed arrays, which a
  // structured clone copies whole rather than element by element.
  readonly series: ArrayLike<number>;
  /** When metrics-server took each sample (epoch ms). */
  readonly timestamps: ArrayLike<number>;
  readonly windowsMs: ArrayLike<number>;
  readonly millicores: ArrayLike<number>;
  readonly bytes: ArrayLike<number>;
}
