// Records every change that reaches the caches of the informers it is attached to. On the informers'
// thread it only stamps each change as the cache takes it, serializes it once and queues it (see
// StreamTap); every flushIntervalMs the queue goes to the recording process as one batch (see
// RecordingChannel), which encodes, compresses and writes it there (see RecordingSession). The queue
// is bounded: a recording process that falls behind costs a marked queue-overflow gap (see
// OverflowGap), never memory without end or a silent loss.
import type { Clock, Timer } from '../cache/clock';
import type { DeltaObserverRegistration } from '../cache/delta-observer';
import type { SharedIndexInformer } from '../cache/shared-informer';
import { keepObjectTexts, objectText } from '../cache/object-text';
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import type { EntryText } from './capture-queue';
import { CaptureQueue } from './capture-queue';
import { CrashLogCapture } from './crash-log-capture';
import type { CrashLogFetcher } from './crash-log-fetches';
import { CrashLogFetches } from './crash-log-fetches';
import { MetricSamplePosts } from './metric-sample-posts';
import { OverflowGap } from './overflow-gap';
import type { AttachOptions, RecorderAttachment, RecorderOptions, RecorderStats } from './recorder-options';
import {
  batchBytes,
  defaultFlushIntervalMs,
  defaultQueueLimitBytes,
  defaultResyncSliceBytes,
  defaultWholeCacheBacklogBytes,
  settingsOf,
  wholeCacheBatchBytes,
} from './recorder-options';
import { RecordingChannel, openRecordingProcess } from './recording-channel';
import type { RecordingProcess } from './recording-process';
import type { MarkEntry, MetricSamplesEntry } from './recording-protocol';
import type { RetentionPolicy } from './retention';
import { StreamTap } from './stream-tap';
import { WholeCachePace } from './whole-cache-pace';
import { workerRecordingProcess } from './worker-recording-process';

interface Attached {
  readonly tap: StreamTap;
  readonly informer: SharedIndexInformer<KubeObject>;
  readonly registration: DeltaObserverRegistration;
  readonly streamKey: string;
  /** Set when the informer's pods' crash logs are kept (see CrashLogCapture). */
  readonly crashLogs: DeltaObserverRegistration | undefined;
}

export class Recorder {
  readonly file: string;
  readonly clock: Clock;
  private readonly queue: CaptureQueue;
  private readonly channel: RecordingChannel;
  private readonly overflow: OverflowGap;
  /** Whole caches' records at the recording process's pace. */
  private readonly pace: WholeCachePace;
  private readonly metricSamples: MetricSamplePosts;
  private readonly attachments = new Map<RecorderAttachment, Attached>();
  /** Streams detached in this session -> their open not-recording gap. */
  private readonly detachedGaps = new Map<string, number>();
  private timer: Timer | undefined;
  /** While recording, watch streams keep the text each object was parsed from (object-text.ts). */
  private readonly releaseObjectTexts = keepObjectTexts();
  private lastStamp: number;
  private streams = 0;
  private gaps = 0;
  /** Open holds on whole-cache records (see holdWholeCaches). */
  private wholeCacheHolds = 0;
  private readonly resyncSliceBytes: number;
  private readonly nextTurn: (work: () => void) => void;
  private closing: Promise<void> | undefined;
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
    const now = options.clock.now();
    const { process, lastWritten } = await openRecordingProcess(
      options.recordingProcess ?? workerRecordingProcess,
      settingsOf(options),
      now,
    );
    return new Recorder(options, process, Math.max(lastWritten ?? 0, now));
  }

  private constructor(options: RecorderOptions, process: RecordingProcess, firstStamp: number) {
    this.file = options.file;
    this.clock = options.clock;
    this.lastStamp = firstStamp;
    this.flushIntervalMs = options.flushIntervalMs ?? defaultFlushIntervalMs;
    this.queue = new CaptureQueue(options.queueLimitBytes ?? defaultQueueLimitBytes);
    this.resyncSliceBytes = options.resyncSliceBytes ?? defaultResyncSliceBytes;
    this.nextTurn = options.nextTurn ?? ((work) => void setImmediate(work));
    this.reportError = options.reportError ?? ((error, context) => console.error(`${context}:`, error));
    this.crashLogFetches = new CrashLogFetches({
      ...options.crashLogFetches,
      // A crash's logs are as droppable as a change: past the queue's bound they fall in its overflow gap.
      append: (entry) => void this.appendChange(JSON.stringify(entry), false),
    });
    this.overflow = new OverflowGap(this.queue, {
      nextGap: () => ++this.gaps,
      stamp: () => this.stamp(),
      appendMark: (entry) => this.appendMark(entry),
      taps: () => [...this.attachments.values()].map((attached) => attached.tap),
    });
    this.pace = new WholeCachePace(
      this.queue,
      options.wholeCacheBacklogBytes ?? defaultWholeCacheBacklogBytes,
      { send: () => this.send(), nextTurn: this.nextTurn },
    );
    this.channel = new RecordingChannel(process, this.queue, {
      written: () => {
        this.overflow.written();
        this.pace.written();
      },
      died: (error) => {
        this.reportError(error, `recording ${this.file}`);
        this.pace.unpace();
      },
      failed: (error, context) => this.reportError(error, context),
    });
    this.metricSamples = new MetricSamplePosts((part) => {
      if (this.channel.dead) return false;
      this.channel.process.post({ type: 'metric-samples', samples: part, now: this.stamp() });
      return true;
    }, this.nextTurn);
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
        lastStamp: () => this.lastStamp,
        appendChange: (time, stream, code, key, object, force) => {
          if (this.channel.dead || this.closing) return 0;
          const text = object === undefined ? undefined : objectText(object);
          const bytes = this.queue.appendObjectChange(time, stream, code, key, object, force, text);
          this.appended(bytes > 0);
          return bytes;
        },
        appendMark: (entry) => this.appendMark(entry),
        nextGap: () => ++this.gaps,
        nextTurn: (work) => this.pace.nextTurn(work),
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
   *
   * The last release's promise settles once the caches it let go are written (each stream's record
   * queued to the last slice, then the batches holding it written), so that work the caller starts
   * after it (the later kinds' lists and records) is not queued ahead of them: at 50,000 pods under
   * churn, the pods' record, queued beside seven other kinds' lists, was written 40 s after the
   * release. Settles at once for a release that lets nothing go (another hold remains, a repeat).
   */
  holdWholeCaches(): () => Promise<void> {
    this.wholeCacheHolds++;
    let released = false;
    return () => {
      if (released) return Promise.resolve();
      released = true;
      if (--this.wholeCacheHolds > 0 || this.closing) return Promise.resolve();
      const taps = [...this.attachments.values()].map((attached) => attached.tap);
      for (const tap of taps) tap.recordHeldCache();
      return this.cachesWritten(taps);
    };
  }

  /**
   * Keeps what is captured from the recording process until `work` settles (holds nest): a travel's
   * moment rebuilt meanwhile has the CPU the recording would take. Every change is stamped and queued
   * as it comes, under the queue's bound as ever, and written after (see RecordingChannel.hold).
   */
  holdWhile(work: Promise<unknown>): void {
    const release = this.channel.hold();
    const done = () => {
      release();
      // A closing recorder sent everything already (and its process may be gone).
      if (!this.closing) this.send();
    };
    work.then(done, done);
  }

  /** Settles once every tap of `taps` has queued its whole cache and what was queued then is written. */
  private async cachesWritten(taps: readonly StreamTap[]): Promise<void> {
    await Promise.all(taps.map((tap) => new Promise<void>((done) => tap.whenCacheRecorded(done))));
    if (!this.closing) await this.flushed();
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
    if (this.channel.dead || this.closing) return;
    this.metricSamples.add(samples);
  }

  /** Sends what is queued and resolves once the recording process has written it (or has died). */
  flushed(): Promise<void> {
    this.send();
    return this.channel.flushed();
  }

  /** Applies `policy` now, in the recording process (it also runs there on its own schedule). */
  enforceRetention(policy: RetentionPolicy): void {
    this.send();
    this.channel.process.post({ type: 'retention', policy, now: this.stamp() });
  }

  /**
   * How far the recording's end trails the clock: the time since the changes captured and not yet
   * written began (0 when every batch sent is written). The recording process falls behind while it
   * writes a whole cache of 150,000 pods under churn: about a minute on 2 cores, which the timeline
   * says rather than ending in the past unexplained.
   */
  writingBehindMs(): number {
    const since = this.channel.unwrittenSince();
    return since === undefined ? 0 : Math.max(0, this.clock.now() - since);
  }

  stats(): RecorderStats {
    return {
      ...this.channel.writtenSoFar,
      buffered: this.queue.bufferedChanges,
      dropped: this.overflow.dropped,
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
    this.releaseObjectTexts();
    this.crashLogFetches.stop();
    for (const attached of this.attachments.values()) this.stopObserving(attached);
    this.attachments.clear();
    // Every record was cancelled with its tap: none waits for the process any more.
    this.pace.stop();
    this.send();
    this.metricSamples.postAll();
    await this.channel.close(this.stamp());
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

  private appendChange(entry: EntryText, force: boolean): boolean {
    if (this.channel.dead || this.closing) return false;
    return this.appended(this.queue.appendChange(entry, force));
  }

  /** A change was queued (or refused: the queue overflows); returns `queued`. */
  private appended(queued: boolean): boolean {
    if (!queued) {
      this.overflow.refused();
      return false;
    }
    // A whole cache's records go in larger batches: fewer commits for the recording process.
    const limit = this.queue.pendingForcedBytes > 0 ? wholeCacheBatchBytes : batchBytes;
    if (this.queue.pendingBytes >= limit) this.send();
    return true;
  }

  private appendMark(entry: MarkEntry): void {
    if (this.channel.dead) return;
    this.queue.appendMark(JSON.stringify(entry));
  }

  /**
   * Sends what is queued as the next batch, at its last entry's time, not the clock's: every entry
   * after it is stamped no earlier than a batch (keyframes and row frames are written at its time),
   * and a change that arrived before now but is popped after this send keeps its arrival.
   */
  private send(): void {
    this.channel.send(this.lastStamp);
  }

  private schedule(): void {
    this.timer = this.clock.setTimeout(() => {
      if (this.closing) return;
      if (!this.pace.tailWaits()) this.send();
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
