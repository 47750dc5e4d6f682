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
   * (Not when stopped: the session's recorder closes with it.)
   */
  releaseRecording?(): void;
}

/**
 * Waits for every running feed to be synced (or refused: an "error" state is not retried, so it
 * will not sync) and its renderers to hold its rows, while some list grows or a renderer takes rows,
 * or for recordedKindsStallMs, at most recordedKindsMaxWaitMs, then releases the recording and starts
 * the later kinds.
 */
export class RecordedKindsStart {
  private timer: Timer | undefined;
  private readonly deadline: number;
  private lastProgress: number;
  /** Objects listed so far, summed over the running feeds that are listing (a relist starts again). */
  private listed = 0;
  /** Batches renderers had acknowledged at the last look (see delivery). */
  private acknowledged = 0;
  private done = false;

  constructor(private readonly options: RecordedKindsStartOptions) {
    this.lastProgress = options.clock.now();
    this.deadline = this.lastProgress + recordedKindsMaxWaitMs;
    this.check();
  }

  /** The session closed: the later kinds never start. */
  stop(): void {
    this.done = true;
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
      this.options.releaseRecording?.();
      this.options.startLaterKinds();
      return;
    }
    this.timer = this.options.clock.setTimeout(() => this.check(), recordedKindsPollMs);
  }
}
