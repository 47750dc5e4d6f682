// When a session starts the feeds of the kinds it records whether or not anyone looks. The first
// kind starts with the session (pods: what the app opens on), the others once every feed running
// then has synced and the renderers hold its rows. On a big cluster their LISTs, informers and recordings took the CPU the first
// view's sync needed (at 50,000 pods, deployments, replicasets and services are another 27 MB of
// JSON beside the pods' 114 MB, all decoded and recorded while the pods were listing). Their history
// loses nothing it could show: until a stream is recorded in this session it is inside a marked gap
// (RecordingSession's "not recorded in this session"), and from its attach it is in its listing gap.
// The recorder also holds back recording whole caches until then (Recorder.holdWholeCaches): the first
// kind's initial list, recorded from the cache once it is watched, cost the recording worker ~80 us
// of CPU per object and the main thread a serialization per object, both taken from the first view's
// sync on a 2-core machine. Held, the stream stays in its listing gap a little longer.
// Released, the first kind's cache is recorded before the later kinds' caches: recorded together,
// their records were queued beside it, slice for slice, and the recording worker wrote them in that
// order, so the first kind's listing gap (what a travel into the first minutes shows) stayed open
// until all of them were written: at 50,000 pods under the ui bench's churn, 40 s after the page's
// "synced" (7.2 s of the worker's CPU, 86,300 changes ahead of it). The later kinds' feeds still
// start at the release, their records held (holdLaterRecording) until the first kind's is written:
// started only then, the first switch to Deployments at 150,000 pods listed them on demand behind
// the pods' record (4.7 s, against 1.1-1.4 s).
import type { Clock, Timer } from '../cache/clock';
import type { SyncState } from '../../shared/protocol/sync-state';

/** How often the running feeds' sync states are looked at while the later kinds wait. */
export const recordedKindsPollMs = 250;

/**
 * How long the later kinds wait for running feeds none of which lists anything more: a viewed kind
 * that cannot sync (a server refusing its watch, a network down) must not keep the others unrecorded
 * for the whole session. A list still growing is waited for: on a loaded machine 150,000 pods took
 * minutes to list, and the later kinds started at a fixed 60 s (84,000 objects listed, decoded and
 * recorded: 8-10 s of the recording worker's CPU) slowed it further.
 */
export const recordedKindsStallMs = 60_000;

/** The longest the later kinds wait however the lists grow (one that relists over and over). */
export const recordedKindsMaxWaitMs = 600_000;

export interface RecordedKindsStartOptions {
  readonly clock: Clock;
  /** The sync state of every feed running now (the first recorded kind's, and those renderers view). */
  runningStates(): readonly SyncState[];
  /**
   * Whether a renderer still lacks the rows its feeds listed (their "synced" waits for them, see
   * BatchStream.awaitsDelivery), and the batches renderers have acknowledged so far (progress). At
   * 50,000 pods on a loaded machine the page was 34,000 rows behind when the pods feed synced, and
   * took them in while the later kinds listed and the pods' cache was recorded (10 s of the backend's
   * CPU on two cores): its "synced" came 27 s after the feed's.
   */
  delivery?(): { behind: boolean; acknowledged: number };
  /** Starts the later kinds' feeds; called once, unless stopped first. */
  startLaterKinds(): void;
  /**
   * Releases the recorder's hold on whole-cache records; called once, just before startLaterKinds.
   * Its promise settles once the released caches are written (see Recorder.holdWholeCaches): the
   * later kinds' records (holdLaterRecording) wait for it while the recording writes (see
   * recordingWritten), at most recordedKindsMaxWaitMs from the release.
   * (Not when stopped: the session releases what it still holds at its close, its feeds stopped.)
   */
  releaseRecording?(): Promise<void> | void;
  /**
   * Changes the recording has written so far: while it grows, the later kinds' records wait for the
   * released caches past recordedKindsStallMs (at 150,000 pods on a loaded machine the pods' record took the
   * worker minutes); when it stops (a first kind whose record cannot finish: its watch down, the
   * worker gone), they are recorded recordedKindsStallMs after its last growth, in their own gap
   * meanwhile.
   */
  recordingWritten?(): number;
  /**
   * Holds the whole-cache records of the feeds started from now on (the later kinds'); called just
   * after releaseRecording, its release once the caches that let go are written (or the limits above).
   */
  holdLaterRecording?(): () => void;
}

/**
 * Waits for every running feed to be synced (or refused: an "error" state is not retried, so it
 * will not sync) and its renderers to hold its rows, while some list grows or a renderer takes rows,
 * or for recordedKindsStallMs, at most recordedKindsMaxWaitMs, then releases the recording and starts
 * the later kinds, whose records wait until what the release let go is written (while the recording
 * writes, see recordingWritten).
 */
export class RecordedKindsStart {
  private timer: Timer | undefined;
  private readonly deadline: number;
  private lastProgress: number;
  /** Objects listed so far, summed over the running feeds that are listing (a relist starts again). */
  private listed = 0;
  /** Batches renderers had acknowledged at the last look (see delivery). */
  private acknowledged = 0;
  /** The recording's changes written at the last look, once released (see recordingWritten). */
  private written = 0;
  /** The feeds settled (or the wait ended): no more looks. */
  private done = false;
  /** Releases the later kinds' records (see holdLaterRecording) while they wait; then undefined. */
  private releaseLater: (() => void) | undefined;

  constructor(private readonly options: RecordedKindsStartOptions) {
    this.lastProgress = options.clock.now();
    this.deadline = this.lastProgress + recordedKindsMaxWaitMs;
    this.check();
  }

  /** The session closed: the later kinds never start. */
  stop(): void {
    this.done = true;
    this.releaseLater = undefined;
    this.timer?.stop();
    this.timer = undefined;
  }

  private check(): void {
    if (this.done) return;
    const states = this.options.runningStates();
    const delivery = this.options.delivery?.() ?? { behind: false, acknowledged: 0 };
    const settled =
      states.every((state) => state.phase === 'synced' || state.phase === 'error') && !delivery.behind;
    const now = this.options.clock.now();
    let listed = 0;
    for (const state of states) if (state.phase === 'listing') listed += state.listed ?? 0;
    if (listed !== this.listed || delivery.acknowledged !== this.acknowledged) this.lastProgress = now;
    this.listed = listed;
    this.acknowledged = delivery.acknowledged;
    if (settled || now - this.lastProgress >= recordedKindsStallMs || now >= this.deadline) {
      this.done = true;
      const written = this.options.releaseRecording?.();
      // Taken after the release (the first kind's records began) and before the later feeds start.
      if (written) this.releaseLater = this.options.holdLaterRecording?.();
      this.options.startLaterKinds();
      if (!written || !this.releaseLater) return;
      const letGo = () => this.letLaterRecordingGo();
      written.then(letGo, letGo);
      this.lastProgress = now;
      this.written = this.options.recordingWritten?.() ?? 0;
      this.timer = this.options.clock.setTimeout(() => this.checkRecording(now), recordedKindsPollMs);
      return;
    }
    this.timer = this.options.clock.setTimeout(() => this.check(), recordedKindsPollMs);
  }

  /** Released at `releasedAt`: waits for the recording while it writes (see recordingWritten). */
  private checkRecording(releasedAt: number): void {
    if (!this.releaseLater) return;
    const now = this.options.clock.now();
    const written = this.options.recordingWritten?.() ?? 0;
    if (written !== this.written) this.lastProgress = now;
    this.written = written;
    if (now - this.lastProgress >= recordedKindsStallMs || now - releasedAt >= recordedKindsMaxWaitMs) {
      this.letLaterRecordingGo();
      return;
    }
    this.timer = this.options.clock.setTimeout(() => this.checkRecording(releasedAt), recordedKindsPollMs);
  }

  private letLaterRecordingGo(): void {
    const release = this.releaseLater;
    if (!release) return;
    this.releaseLater = undefined;
    this.timer?.stop();
    this.timer = undefined;
    release();
  }
}
