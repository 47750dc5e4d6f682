// Records every change that reaches the caches of the informers it is attached to. On the informers'
// thread it only stamps each change as the cache takes it, serializes it once and queues it (see
// StreamTap); every flushIntervalMs the queue goes to the recording process as one batch, which
// encodes, compresses and writes it there (see RecordingSession). The queue is bounded: a recording
// process that falls behind costs a marked queue-overflow gap, never memory without end or a silent loss.
import type { Clock, Timer } from '../cache/clock';
import type { DeltaObserverRegistration } from '../cache/delta-observer';
import type { SharedIndexInformer } from '../cache/shared-informer';
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import { CaptureQueue } from './capture-queue';
import { CrashLogCapture } from './crash-log-capture';
import type { CrashLogFetcher } from './crash-log-fetches';
import type { CrashLogFetchesOptions } from './crash-log-fetches';
import { CrashLogFetches } from './crash-log-fetches';
import { RecordingError } from './recording-error';
import type { RecordingProcess, RecordingProcessFactory } from './recording-process';
import type { MarkEntry, MetricSamplesEntry, RecordingReply, RecordingSettings } from './recording-protocol';
import type { RetentionPolicy } from './retention';
import { metricSamplesParts } from './metric-samples-parts';
import { StreamTap } from './stream-tap';
import { workerRecordingProcess } from './worker-recording-process';

export interface RecorderOptions extends RecordingSettings {
  clock: Clock;
  /** At most this long between batches sent to the recording process, in ms (default 100). */
  flushIntervalMs?: number;
  /**
   * Bytes of changes captured and not yet written before changes are dropped into a gap (default
   * 128 MiB; a cache recorded whole is queued outside it, see CaptureQueue).
   */
  queueLimitBytes?: number;
  /** About how much JSON recording a whole cache writes per turn of the event loop (default 512 KiB). */
  resyncSliceBytes?: number;
  /** Runs a resync's next slice in a later turn (default setImmediate; tests drive it by hand). */
  nextTurn?: (work: () => void) => void;
  /** Where the recording runs (default: a worker thread). */
  recordingProcess?: RecordingProcessFactory;
  /** Bounds of crash-log fetches (default: 3 at once, 100 waiting, 256 KiB and 5,000 lines each). */
  crashLogFetches?: Omit<CrashLogFetchesOptions, 'append'>;
  /** Told when a batch or retention fails (default console.error); recording goes on. */
  reportError?: (error: unknown, context: string) => void;
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
 * A batch goes at once when this much is queued, so a burst does not wait for the timer. Sending one
 * costs this thread the same whatever its size (its buffer is transferred, see CaptureQueue), while
 * the recording process pays a transaction and its bookkeeping per batch: at 256 KiB (about 110 of
 * the bench's pods) that was 10-20% more of its time per change than at 1 MiB.
 */
const batchBytes = 1024 * 1024;

/**
 * The default bound on changes captured and not yet written. The recording process writes about
 * 15,000 changes/s (~65 us each), so a steady 2,000 changes/s never comes near it; what fills it is
 * the live changes arriving while that process writes a whole cache (150,000 pods: ~10 s), ~50 MB at
 * 2,000 changes/s of 2.5 KB pods. 128 MiB holds that with room, and is still a bound.
 */
const defaultQueueLimitBytes = 128 * 1024 * 1024;

/**
 * A resync's slice: 512 KiB of JSON (about 160 of the bench's 3.1 KB pods) took 2 ms at the median
 * on a loaded 2-core machine (1 MiB: 9 ms), so a whole cache never holds the thread past a frame.
 */
const defaultResyncSliceBytes = 512 * 1024;

interface Attached {
  readonly tap: StreamTap;
  readonly informer: SharedIndexInformer<KubeObject>;
  readonly registration: DeltaObserverRegistration;
  readonly streamKey: string;
  /** Set when the informer's pods' crash logs are kept (see CrashLogCapture). */
  readonly crashLogs: DeltaObserverRegistration | undefined;
}

export interface AttachOptions {
  /**
   * For a pods informer: reads the last logs of each container run that ends while recorded (see
   * CrashLogCapture). Absent: crash logs are not kept.
   */
  readonly fetchCrashLogs?: CrashLogFetcher;
}

export class Recorder {
  readonly file: string;
  readonly clock: Clock;
  private readonly queue: CaptureQueue;
  private readonly attachments = new Map<RecorderAttachment, Attached>();
  /** Streams detached in this session -> their open not-recording gap. */
  private readonly detachedGaps = new Map<string, number>();
  /** flushed() callers, each waiting for a batch sequence to be written. */
  private waiting: { readonly sequence: number; readonly resolve: () => void }[] = [];
  private writtenSequence = 0;
  private timer: Timer | undefined;
  private lastStamp: number;
  private sequence = 0;
  private streams = 0;
  private gaps = 0;
  private overflowGap: number | undefined;
  /** Open holds on whole-cache records (see holdWholeCaches). */
  private wholeCacheHolds = 0;
  /** The streams whose resync after the last overflow is not done yet (see recover). */
  private unsettled: Set<StreamTap> | undefined;
  private readonly resyncSliceBytes: number;
  private readonly nextTurn: (work: () => void) => void;
  /** Metric samples not posted yet, a part per turn, in order. */
  private metricParts: MetricSamplesEntry[] = [];
  private changesWritten = 0;
  private dropped = 0;
  private bytes = 0;
  private writeMs = 0;
  private writeCpuMs: number | undefined = 0;
  private closing: Promise<void> | undefined;
  private dead: Error | undefined;
  private readonly flushIntervalMs: number;
  /** One bound on crash-log fetches for every pods informer recorded. */
  private readonly crashLogFetches: CrashLogFetches;
  private readonly reportError: (error: unknown, context: string) => void;

  /**
   * Starts the recording process and opens (or creates) the recording there; the time since it was
   * last written becomes a "not-recording" gap. Rejects with a RecordingError when the file cannot be
   * recorded into (not a recording, a newer format, another context, unreadable).
   */
  static async open(options: RecorderOptions): Promise<Recorder> {
    const process = (options.recordingProcess ?? workerRecordingProcess)();
    const now = options.clock.now();
    const opened = new Promise<RecordingReply>((resolve) => {
      process.onReply((reply) => {
        if (reply.type === 'opened' || reply.type === 'open-failed') resolve(reply);
      });
      process.onExit((error) =>
        resolve({ type: 'open-failed', file: options.file, problem: undefined, message: error.message }),
      );
    });
    process.post({ type: 'open', settings: settingsOf(options), now });
    const reply = await opened;
    if (reply.type !== 'opened') {
      await process.terminate();
      const failed = reply as Extract<RecordingReply, { type: 'open-failed' }>;
      throw new RecordingError(
        failed.file,
        failed.problem ?? { kind: 'unreadable', where: 'open', message: failed.message },
      );
    }
    return new Recorder(options, process, Math.max(reply.lastWritten ?? 0, now));
  }

  private constructor(
    options: RecorderOptions,
    private readonly process: RecordingProcess,
    firstStamp: number,
  ) {
    this.file = options.file;
    this.clock = options.clock;
    this.lastStamp = firstStamp;
    this.flushIntervalMs = options.flushIntervalMs ?? 100;
    this.queue = new CaptureQueue(options.queueLimitBytes ?? defaultQueueLimitBytes);
    this.resyncSliceBytes = options.resyncSliceBytes ?? defaultResyncSliceBytes;
    this.nextTurn = options.nextTurn ?? ((work) => void setImmediate(work));
    this.reportError = options.reportError ?? ((error, context) => console.error(`${context}:`, error));
    this.crashLogFetches = new CrashLogFetches({
      ...options.crashLogFetches,
      // A crash's logs are as droppable as a change: past the queue's bound they fall in its overflow gap.
      append: (entry) => void this.appendChange(JSON.stringify(entry), false),
    });
    process.onReply((reply) => this.replied(reply));
    process.onExit((error) => {
      this.dead = error;
      this.reportError(error, `recording ${this.file}`);
      for (const waiter of this.waiting) waiter.resolve();
      this.waiting = [];
    });
    this.schedule();
  }

  /**
   * Records `informer`, the one informer of `gvr` in `namespace` ("" for all), through a DeltaObserver.
   * Attached before the informer runs, its cache is recorded once the initial list is in it; attached
   * later, the cache's content is recorded as a relist (reason "attached"). Either way the stream is
   * in a gap until the informer is watching and that record is queued (in slices, see CacheResync).
   */
  attach(
    informer: SharedIndexInformer<KubeObject>,
    gvr: GroupVersionResource,
    namespace = '',
    options: AttachOptions = {},
  ): RecorderAttachment {
    if (this.closing) throw new Error(`recorder for ${this.file} is closed`);
    const stream = ++this.streams;
    const streamKey = `${gvrKey(gvr)} ${namespace}`;
    const time = this.stamp();
    this.appendMark({ mark: 'stream', stream, gvr: gvrKey(gvr), scope: namespace, time });
    const detachedGap = this.detachedGaps.get(streamKey);
    if (detachedGap !== undefined) {
      this.detachedGaps.delete(streamKey);
      this.appendMark({ mark: 'gap-close', gap: detachedGap, end: time });
    }
    // Arrivals are read on the informer's clock: on another (a test's), they are ignored.
    const arrivals = informer.clock === this.clock;
    const tap = new StreamTap(
      stream,
      `${gvrKey(gvr)}${namespace ? ` in ${namespace}` : ''}`,
      {
        stamp: (arrivedAt) => this.stamp(arrivals ? arrivedAt : undefined),
        appendChange: (text, force) => this.appendChange(text, force),
        appendMark: (entry) => this.appendMark(entry),
        nextGap: () => ++this.gaps,
        nextTurn: this.nextTurn,
        resyncSliceBytes: this.resyncSliceBytes,
        wholeCachesHeld: () => this.wholeCacheHolds > 0,
      },
      () => informer.getIndexer().list(),
      time,
      informer.hasStarted() ? 'attached' : 'initial-list',
    );
    const registration = informer.addDeltaObserver(tap);
    const crashLogs =
      options.fetchCrashLogs && gvr.group === '' && gvr.resource === 'pods'
        ? this.captureCrashLogs(informer, options.fetchCrashLogs)
        : undefined;
    const attachment: RecorderAttachment = { stream, detach: () => this.detach(attachment) };
    this.attachments.set(attachment, { tap, informer, registration, streamKey, crashLogs });
    return attachment;
  }

  /**
   * Holds back recording whole caches (a first list, a relist or an attach recorded from the cache)
   * until the returned release is called: each such stream stays in its gap, its changes unrecorded,
   * and its cache is recorded whole once released. A first list costs the recording process ~80 us
   * of CPU per object (150,000 pods: ~12 s) and this thread a serialization per object; held while
   * the app's first views sync, that work no longer competes with them for the CPU. The recording
   * loses nothing it claims: the gap says the stream was not yet recorded.
   */
  holdWholeCaches(): () => void {
    this.wholeCacheHolds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.wholeCacheHolds > 0 || this.closing) return;
      for (const attached of this.attachments.values()) attached.tap.recordHeldCache();
    };
  }

  /** Crashes whose logs are being read or wait to be (see CrashLogCapture). */
  pendingCrashLogs(): number {
    return this.crashLogFetches.pending;
  }

  /**
   * Records one poll's metric samples (see MetricSampleCapture). They go as their own message, not
   * through the change queue: its bound, overflow gaps and relists speak of changes only.
   */
  recordMetricSamples(samples: MetricSamplesEntry): void {
    if (this.dead || this.closing) return;
    const posting = this.metricParts.length > 0;
    this.metricParts.push(...metricSamplesParts(samples));
    if (!posting) this.postMetricPart();
  }

  /** Posts the next part of the metric samples, and the one after in a later turn (see metricSamplesParts). */
  private postMetricPart(): void {
    const part = this.metricParts.shift();
    if (!part || this.dead) return;
    this.process.post({ type: 'metric-samples', samples: part, now: this.stamp() });
    if (this.metricParts.length > 0) this.nextTurn(() => this.postMetricPart());
  }

  /** Sends what is queued and resolves once the recording process has written it (or has died). */
  flushed(): Promise<void> {
    this.send();
    const target = this.sequence;
    if (this.writtenSequence >= target || this.dead) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ sequence: target, resolve }));
  }

  /** Applies `policy` now, in the recording process (it also runs there on its own schedule). */
  enforceRetention(policy: RetentionPolicy): void {
    this.send();
    this.process.post({ type: 'retention', policy, now: this.stamp() });
  }

  stats(): RecorderStats {
    return {
      changesWritten: this.changesWritten,
      buffered: this.queue.bufferedChanges,
      dropped: this.dropped,
      bytes: this.bytes,
      writeMs: this.writeMs,
      writeCpuMs: this.writeCpuMs,
    };
  }

  /**
   * Detaches every informer (they keep running, unrecorded), writes what was captured, closes the
   * recording (checkpointing its WAL into the file) and ends the recording process.
   */
  close(): Promise<void> {
    this.closing ??= this.closeNow();
    return this.closing;
  }

  private async closeNow(): Promise<void> {
    this.timer?.stop();
    this.crashLogFetches.stop();
    for (const attached of this.attachments.values()) this.stopObserving(attached);
    this.attachments.clear();
    this.send();
    // A poll whose parts are still going out is recorded whole before the recording closes.
    while (this.metricParts.length > 0) this.postMetricPart();
    if (!this.dead) {
      const closed = new Promise<void>((resolve) => {
        this.process.onReply((reply) => {
          if (reply.type !== 'closed') return;
          this.bytes = reply.bytes;
          resolve();
        });
        this.process.onExit(() => resolve());
      });
      this.process.post({ type: 'close', now: this.stamp() });
      await closed;
    }
    await this.process.terminate();
  }

  private detach(attachment: RecorderAttachment): void {
    const attached = this.attachments.get(attachment);
    if (!attached || this.closing) return;
    this.attachments.delete(attachment);
    this.stopObserving(attached);
    this.detachedGaps.set(attached.streamKey, attached.tap.detached());
  }

  private captureCrashLogs(
    informer: SharedIndexInformer<KubeObject>,
    fetch: CrashLogFetcher,
  ): DeltaObserverRegistration {
    // After the tap: the crash is stamped no earlier than the change that shows it.
    return informer.addDeltaObserver(new CrashLogCapture(fetch, this.crashLogFetches, () => this.stamp()));
  }

  private stopObserving(attached: Attached): void {
    attached.tap.stop();
    attached.registration.remove();
    attached.crashLogs?.remove();
  }

  private appendChange(text: string, force: boolean): boolean {
    if (this.dead || this.closing) return false;
    if (!this.queue.appendChange(text, force)) {
      this.dropped++;
      if (this.overflowGap === undefined) {
        this.overflowGap = ++this.gaps;
        this.appendMark({
          mark: 'gap-open',
          gap: this.overflowGap,
          reason: 'queue-overflow',
          stream: undefined,
          start: this.stamp(),
          detail:
            'the recording process fell behind; changes were dropped until the caches were recorded again',
        });
      }
      return false;
    }
    if (this.queue.pendingBytes >= batchBytes) this.send();
    return true;
  }

  private appendMark(entry: MarkEntry): void {
    if (this.dead) return;
    this.queue.appendMark(JSON.stringify(entry));
  }

  /** Sends what is queued as the next batch; returns its sequence (undefined when nothing was queued). */
  private send(): number | undefined {
    if (this.dead) return undefined;
    const sequence = this.sequence + 1;
    const entries = this.queue.take(sequence);
    if (entries === undefined) return undefined;
    this.sequence = sequence;
    // At its last entry's time, not the clock's: every entry after it is stamped no earlier than a
    // batch (keyframes and row frames are written at its time), and a change that arrived before now
    // but is popped after this send keeps its arrival.
    this.process.post({ type: 'batch', sequence, entries, now: this.lastStamp });
    return sequence;
  }

  private replied(reply: RecordingReply): void {
    if (reply.type === 'written') {
      this.queue.written(reply.sequence);
      this.changesWritten = reply.changesWritten;
      this.bytes = reply.bytes;
      this.writeMs = reply.writeMs;
      this.writeCpuMs = reply.writeCpuMs;
      this.writtenSequence = reply.sequence;
      const done = this.waiting.filter((waiter) => waiter.sequence <= reply.sequence);
      this.waiting = this.waiting.filter((waiter) => waiter.sequence > reply.sequence);
      for (const waiter of done) waiter.resolve();
      if (this.queue.canRecover()) this.recover();
    } else if (reply.type === 'error') {
      this.reportError(new Error(reply.message), reply.context);
    }
  }

  /**
   * The process caught up after an overflow: each stream's cache is recorded again as a relist (its
   * untouched objects retire), in slices; the overflow gap closes once every stream's is queued. The
   * caches' content is queued whatever the bound: it is what ends the gap. Should the queue overflow
   * again meanwhile, the gap stays open and this runs again once the process catches up.
   */
  private recover(): void {
    this.queue.recovered();
    const unsettled = new Set([...this.attachments.values()].map((attached) => attached.tap));
    this.unsettled = unsettled;
    const settled = (tap: StreamTap) => {
      unsettled.delete(tap);
      if (this.unsettled === unsettled && unsettled.size === 0) this.recovered();
    };
    for (const tap of [...unsettled]) tap.resynchronize(() => settled(tap));
    if (unsettled.size === 0 && this.unsettled === unsettled) this.recovered();
  }

  private recovered(): void {
    this.unsettled = undefined;
    if (this.overflowGap === undefined || this.queue.isOverflowing) return;
    this.appendMark({ mark: 'gap-close', gap: this.overflowGap, end: this.stamp() });
    this.overflowGap = undefined;
  }

  private schedule(): void {
    this.timer = this.clock.setTimeout(() => {
      if (this.closing) return;
      this.send();
      this.schedule();
    }, this.flushIntervalMs);
  }

  /**
   * Wall time that never goes backwards within the recording, so order by time is order of change:
   * `at` (when a change arrived) or now, unless an earlier entry was stamped later.
   */
  private stamp(at = this.clock.now()): number {
    this.lastStamp = Math.max(at, this.lastStamp);
    return this.lastStamp;
  }
}

/** What of `options` the recording process needs (messages carry data only, no clock or callbacks). */
function settingsOf(options: RecorderOptions): RecordingSettings {
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
