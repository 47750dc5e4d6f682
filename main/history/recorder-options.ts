// What a Recorder is started with, what it reports, and its defaults: the queue's bound, a batch's
// size and a resync slice's, each sized by what it costs the informers' thread and the recording
// process (see the constants' comments).
import type { Clock } from '../cache/clock';
import type { CrashLogFetcher, CrashLogFetchesOptions } from './crash-log-fetches';
import type { RecordingProcessFactory } from './recording-process';
import type { RecordingSettings } from './recording-protocol';

export interface RecorderOptions extends RecordingSettings {
  clock: Clock;
  /** At most this long between batches sent to the recording process, in ms (default defaultFlushIntervalMs). */
  flushIntervalMs?: number;
  /**
   * Bytes of changes captured and not yet written before changes are dropped into a gap (default
   * 128 MiB; a cache recorded whole is queued outside it, see CaptureQueue).
   */
  queueLimitBytes?: number;
  /** About how much JSON recording a whole cache writes per turn of the event loop (default 512 KiB). */
  resyncSliceBytes?: number;
  /**
   * Bytes of whole caches' records queued or sent and not yet written past which a record's next
   * slice waits for the recording process (default 12 MiB, see WholeCachePace).
   */
  wholeCacheBacklogBytes?: number;
  /** Runs a resync's next slice in a later turn (default setImmediate; tests drive it by hand). */
  nextTurn?: (work: () => void) => void;
  /** Where the recording runs (default: a worker thread). */
  recordingProcess?: RecordingProcessFactory;
  /** Bounds of crash-log fetches (default: 3 at once, 100 waiting, 256 KiB and 5,000 lines each). */
  crashLogFetches?: Omit<CrashLogFetchesOptions, 'append'>;
  /** Told when a batch or retention fails (default console.error); recording goes on. */
  reportError?: (error: unknown, context: string) => void;
}

export interface AttachOptions {
  /**
   * For a pods informer: reads the last logs of each container run that ends while recorded (see
   * CrashLogCapture). Absent: crash logs are not kept.
   */
  readonly fetchCrashLogs?: CrashLogFetcher;
}

/** What attach returns: detach() stops recording the informer (what it captured is kept). */
export interface RecorderAttachment {
  readonly stream: number;
  detach(): void;
}

export interface RecorderStats {
  /** Changes written to the file so far in this session. */
  readonly changesWritten: number;
  /** Changes captured and not yet written. */
  readonly buffered: number;
  /** Changes dropped because the queue was full (each inside a queue-overflow gap). */
  readonly dropped: number;
  /** The file's size in bytes, WAL included, as of the last batch written. */
  readonly bytes: number;
  /** Time the recording process spent parsing and writing batches, in ms (not the informers' thread). */
  readonly writeMs: number;
  /**
   * Of writeMs, the time the recording process's thread was on a CPU: its own cost, without the time
   * a loaded machine gave others (undefined where the platform does not tell).
   */
  readonly writeCpuMs: number | undefined;
}

/**
 * How long captured changes wait for the next batch, at most: how far the file trails the cluster
 * (changes are stamped as they arrive, never at the batch). The recording process commits once per
 * batch, but longer batches were not found cheaper for it: under the ui bench's broad churn at 2,000
 * changes a second, 500 ms batches cost it 57-76 us of CPU a change against 59-64 at 100 ms
 * (recording-profile.ts --flush-ms, 50,000 listed, three rounds alternated, session 25).
 */
export const defaultFlushIntervalMs = 100;

/**
 * A batch goes at once when this much is queued, so a burst does not wait for the timer. Sending one
 * costs this thread the same whatever its size (its buffer is transferred, see CaptureQueue), while
 * the recording process pays a transaction and its bookkeeping per batch: at 256 KiB (about 110 of
 * the bench's pods) that was 10-20% more of its time per change than at 1 MiB.
 */
export const batchBytes = 1024 * 1024;

/**
 * While a batch holds a whole cache's records (a list, a resync: forced changes), it goes at this
 * much instead. The recording process commits once per batch, and a list's new objects land all
 * over the objects table's indexes (by uid, by name), so every commit writes back hundreds of their
 * pages whatever the batch's size: at 50,000 listed pods, 4 MiB batches cost the worker 55-56 us of
 * CPU per pod against 63 at 1 MiB (recording-profile, test/bench/README.md). Live changes queued
 * beside them wait no longer for it: the flush timer still sends every flushIntervalMs.
 */
export const wholeCacheBatchBytes = 4 * 1024 * 1024;

/**
 * How far a whole cache's record runs ahead of the recording process (see WholeCachePace): three
 * batches, one being written, the next sent behind it (posted, or waiting for the channel's post
 * window) and one being filled. Main fills a batch in ~30 ms of CPU (~1,800 pods) and the process
 * writes it in ~150, so the process always has the next batch at hand, and the buffers of the
 * batches it wrote come back to be filled again (the queue keeps four, see BatchBuffer) instead of
 * fresh ones taken per batch.
 */
export const defaultWholeCacheBacklogBytes = 3 * wholeCacheBatchBytes;

/**
 * The default bound on changes captured and not yet written. The recording process writes about
 * 15,000 changes/s (~65 us each), so a steady 2,000 changes/s never comes near it; what fills it is
 * the live changes arriving while that process writes a whole cache (150,000 pods: ~10 s), ~50 MB at
 * 2,000 changes/s of 2.5 KB pods. 128 MiB holds that with room, and is still a bound.
 */
export const defaultQueueLimitBytes = 128 * 1024 * 1024;

/**
 * A resync's slice: about 40 of the bench's 3.1 KB pods. 512 KiB took 2 ms at the median on a loaded
 * 2-core machine, but its longest slice, the first (cold code, run inside a pop's turn), 8-28 ms of
 * CPU at load 21, the history flood's longest recorder call; 128 KiB: at most 4-7 ms, the whole
 * cache in no more CPU (1,000 pods: 31-80 ms in all at 512 KiB, 21-62 ms at 128 KiB).
 */
export const defaultResyncSliceBytes = 128 * 1024;

/** What of `options` the recording process needs (messages carry data only, no clock or callbacks). */
export function settingsOf(options: RecorderOptions): RecordingSettings {
  const { file, context, keyframeIntervalMs, keyframeEveryChanges, fullVersionEvery, retention } = options;
  return {
    file,
    context,
    ...(keyframeIntervalMs !== undefined ? { keyframeIntervalMs } : {}),
    ...(keyframeEveryChanges !== undefined ? { keyframeEveryChanges } : {}),
    ...(fullVersionEvery !== undefined ? { fullVersionEvery } : {}),
    ...(options.rowFrames !== undefined ? { rowFrames: options.rowFrames } : {}),
    ...(retention !== undefined ? { retention } : {}),
    ...(options.retentionCheckIntervalMs !== undefined
      ? { retentionCheckIntervalMs: options.retentionCheckIntervalMs }
      : {}),
  };
}
