// One recorded informer's side of the Recorder: a DeltaObserver that stamps each change as the
// informer's cache takes it and turns the Reflector's phases into gaps. Runs on the informer's hot
// path, so it only stamps, serializes the object once, and appends to the Recorder's queue.
import type { Deltas } from '../cache/delta';
import type { DeltaObserver } from '../cache/delta-observer';
import { DeletedFinalStateUnknown } from '../cache/keys';
import type { ReflectorState } from '../cache/reflector-options';
import type { KubeObject } from '../../shared/kube/object';
import { encodeDeltaType } from './recorded-change';
import type { GapReason, MarkEntry, RelistReason } from './recording-protocol';
import { messageOf } from './recording-error';
import { isResourceExpired } from '../../shared/kube/status';

/** What a tap needs from its Recorder. */
export interface TapHost {
  /** Wall time that never goes backwards within the recording. */
  stamp(): number;
  /**
   * Queues a serialized change; false when the queue is full (a queue-overflow gap is open). Forced,
   * it is queued whatever the bound (a resynchronization, which is what ends such a gap).
   */
  appendChange(text: string, force: boolean): boolean;
  /** Queues a mark; marks are never dropped. */
  appendMark(entry: MarkEntry): void;
  /** A number for a new gap, unique within the Recorder. */
  nextGap(): number;
}

/**
 * The stream's invariant: from the moment the tap is created, each instant is either inside the gap
 * it holds open (the cache was not known to follow the server: listing, relisting, watch down) or
 * every change the cache took then is queued. A gap opens on attach (until the first list is in the
 * cache), and whenever the Reflector leaves "watching"; it closes when "watching" is observed, which
 * after a list means the whole list is in the cache.
 */
export class StreamTap implements DeltaObserver<KubeObject> {
  private openGap: number | undefined;
  private openReason: GapReason | undefined;
  private listing = false;
  private watchedBefore = false;

  constructor(
    readonly stream: number,
    /** "pods.v1 in payments", for mark details. */
    private readonly description: string,
    private readonly host: TapHost,
    /** When the stream was attached: its listing gap starts there, where the stream's record does. */
    attachedAt: number,
  ) {
    this.open('listing', 'waiting for the first list', attachedAt);
  }

  observeDeltas(deltas: Deltas<KubeObject>): void {
    for (const delta of deltas) {
      const time = this.host.stamp();
      const unknownFinalState = delta.object instanceof DeletedFinalStateUnknown;
      const object = unknownFinalState
        ? (delta.object as DeletedFinalStateUnknown<KubeObject>).obj
        : (delta.object as KubeObject);
      const key = unknownFinalState
        ? (delta.object as DeletedFinalStateUnknown<KubeObject>).key
        : keyOf(delta.object as KubeObject);
      const code = encodeDeltaType(delta.type, unknownFinalState);
      // The object's JSON is written straight into the entry: the batch is parsed once, in the
      // recording process, and its objects are never cloned one by one.
      this.host.appendChange(
        `[${time},${this.stream},${code},${JSON.stringify(key)},${object === undefined ? 'null' : JSON.stringify(object)}]`,
        false,
      );
    }
  }

  observePhase(state: ReflectorState): void {
    const time = this.host.stamp();
    if (state.phase === 'watching') {
      if (this.listing) {
        this.listing = false;
        const reason: RelistReason = this.watchedBefore ? 'relist' : 'initial-list';
        this.listApplied(time, reason);
      }
      this.watchedBefore = true;
      this.close(time);
      return;
    }
    if (state.phase === 'listing') {
      this.open(
        this.watchedBefore ? 'relisting' : 'listing',
        this.watchedBefore ? 'relisting' : 'listing',
        time,
      );
      if (!this.listing) {
        this.listing = true;
        this.host.appendMark({ mark: 'list-start', stream: this.stream });
      }
      return;
    }
    if (isResourceExpired(state.error)) {
      this.open('relisting', `the watch's resourceVersion expired (410); relisting`, time);
      return;
    }
    const cause = state.error === undefined ? 'waiting to retry' : messageOf(state.error);
    this.open('watch-disconnected', `watch down: ${cause}`, time);
  }

  /**
   * Records `objects` (the informer's cache now) as a list replacing what the stream held: for a
   * recorder attached to a running informer, and after a queue overflow dropped changes. The
   * stream's own gap still closes only when "watching" is observed.
   */
  resynchronize(objects: readonly KubeObject[], reason: RelistReason): void {
    this.host.appendMark({ mark: 'list-start', stream: this.stream });
    const replaced = encodeDeltaType('Replaced', false);
    for (const object of objects) {
      const time = this.host.stamp();
      this.host.appendChange(
        `[${time},${this.stream},${replaced},${JSON.stringify(keyOf(object))},${JSON.stringify(object)}]`,
        true,
      );
    }
    this.listApplied(this.host.stamp(), reason);
  }

  /**
   * The recorder stops recording this informer: from now the stream is in a "not-recording" gap,
   * whose number is returned (a later attach of the same stream closes it).
   */
  detached(): number {
    this.open('not-recording', 'no longer recorded', this.host.stamp());
    const gap = this.openGap!;
    this.openGap = undefined;
    this.openReason = undefined;
    return gap;
  }

  private listApplied(time: number, reason: RelistReason): void {
    this.host.appendMark({
      mark: 'list-applied',
      stream: this.stream,
      time,
      reason,
      detail: `${this.description}: ${describe(reason)}`,
    });
  }

  /**
   * Opens a gap for `reason`. A gap for another reason open already ends at the same instant: gaps
   * follow one another, each with its own cause (a 410, then a failing list, then the relist).
   */
  private open(reason: GapReason, detail: string, time: number): void {
    if (this.openReason === reason) return;
    this.close(time);
    this.openGap = this.host.nextGap();
    this.openReason = reason;
    this.host.appendMark({
      mark: 'gap-open',
      gap: this.openGap,
      reason,
      stream: this.stream,
      start: time,
      detail: `${this.description}: ${detail}`,
    });
  }

  private close(end: number): void {
    if (this.openGap === undefined) return;
    this.host.appendMark({ mark: 'gap-close', gap: this.openGap, end });
    this.openGap = undefined;
    this.openReason = undefined;
  }
}

function keyOf(object: KubeObject): string {
  const { namespace, name } = object.metadata;
  return namespace ? `${namespace}/${name ?? ''}` : (name ?? '');
}

function describe(reason: RelistReason): string {
  if (reason === 'initial-list') return 'initial list';
  if (reason === 'attached') return 'recording started on a running informer';
  if (reason === 'resynchronized') return 'the cache recorded again after the recording queue overflowed';
  return 'relisted; changes between the last watch event and this list are unknown';
}
