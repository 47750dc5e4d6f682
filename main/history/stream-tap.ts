// One attached informer's side of the Recorder: turns its deltas into buffered writes, notices relists
// and watch failures, and decides when the stream is due a keyframe. Runs on the informer's hot path,
// so it only stamps and appends; everything costly happens at flush.
import type { Delta } from '../cache/delta';
import { DeletedFinalStateUnknown } from '../cache/keys';
import type { KubeObject } from '../../shared/kube/object';
import type { RecordingWriter } from './recording-writer';
import type { BufferedWrite } from './recorder';

export interface StreamTapOptions {
  readonly stream: number;
  /** "pods.v1 in payments", for mark details. */
  readonly description: string;
  readonly stamp: () => number;
  readonly append: (write: BufferedWrite) => void;
  readonly keyframeIntervalMs: number;
  readonly keyframeEveryChanges: number;
}

type RelistReason = 'initial-list' | 'relist' | 'attached';

/** A gap whose row id is known once the flush that inserts it has run. */
interface OpenGap {
  id: number | undefined;
}

export class StreamTap {
  readonly stream: number;
  /** Between the first Replaced of a list and the keyframe taken once its deltas stop coming. */
  private relisting = false;
  private relistSeenInWindow = false;
  private keyframePending = false;
  private openGap: OpenGap | undefined;
  private changesSinceKeyframe = 0;
  private lastKeyframe: number;

  constructor(private readonly options: StreamTapOptions) {
    this.stream = options.stream;
    this.lastKeyframe = options.stamp();
  }

  /**
   * Buffers `deltas` as they reached the indexer. A Replaced (a list replacing the cache) or a
   * DeletedFinalStateUnknown (a deletion a list inferred) starts a relist: a relist mark, the end of
   * any watch-disconnected gap, and a keyframe once the list's deltas have all arrived.
   */
  capture(deltas: readonly Delta<KubeObject>[], reason: RelistReason): void {
    for (const delta of deltas) {
      const time = this.options.stamp();
      const unknownFinalState = delta.object instanceof DeletedFinalStateUnknown;
      const object = unknownFinalState
        ? (delta.object as DeletedFinalStateUnknown<KubeObject>).obj
        : (delta.object as KubeObject);
      const key = unknownFinalState
        ? (delta.object as DeletedFinalStateUnknown<KubeObject>).key
        : keyOf(object as KubeObject);
      if (delta.type === 'Replaced' || unknownFinalState) this.relistSeen(time, reason);
      this.options.append({
        time,
        stream: this.stream,
        type: delta.type,
        finalStateUnknown: unknownFinalState,
        object,
        key,
      });
      this.changesSinceKeyframe++;
    }
  }

  /** The informer's list/watch failed: a watch-disconnected gap opens until the next relist. */
  watchFailed(message: string): void {
    if (this.openGap) return;
    const gap: OpenGap = { id: undefined };
    this.openGap = gap;
    const start = this.options.stamp();
    const detail = `${this.options.description}: ${message}`;
    this.options.append({
      mark: (writer) => {
        gap.id = writer.writeMark({
          kind: 'gap',
          reason: 'watch-disconnected',
          stream: this.stream,
          start,
          end: undefined,
          detail,
        });
      },
    });
  }

  /** The recorder is closing: an open gap ends now (the not-recording gap of the next start follows). */
  closing(now: number): void {
    this.closeGap(now);
  }

  /**
   * Asked at each flush, after the buffered changes are written: true when a keyframe is due, i.e. a
   * relist's deltas stopped arriving during the last flush interval, or the stream changed
   * keyframeEveryChanges times or changed at all in keyframeIntervalMs since the last keyframe.
   */
  keyframeDue(now: number): boolean {
    let due = false;
    if (this.keyframePending && !this.relistSeenInWindow) {
      due = true;
      this.keyframePending = false;
      this.relisting = false;
    } else if (
      this.changesSinceKeyframe >= this.options.keyframeEveryChanges ||
      (this.changesSinceKeyframe > 0 && now - this.lastKeyframe >= this.options.keyframeIntervalMs)
    ) {
      due = true;
    }
    this.relistSeenInWindow = false;
    if (due) {
      this.changesSinceKeyframe = 0;
      this.lastKeyframe = now;
    }
    return due;
  }

  private relistSeen(time: number, reason: RelistReason): void {
    this.relistSeenInWindow = true;
    this.keyframePending = true;
    if (this.relisting) return;
    this.relisting = true;
    this.closeGap(time);
    const detail = `${this.options.description}: ${describeRelist(reason)}`;
    this.options.append({
      mark: (writer: RecordingWriter) => {
        writer.writeMark({ kind: 'relist', reason, stream: this.stream, start: time, end: time, detail });
      },
    });
  }

  private closeGap(end: number): void {
    const gap = this.openGap;
    if (!gap) return;
    this.openGap = undefined;
    this.options.append({
      mark: (writer) => {
        if (gap.id !== undefined) writer.closeMark(gap.id, end);
      },
    });
  }
}

function keyOf(object: KubeObject): string {
  const { namespace, name } = object.metadata;
  return namespace ? `${namespace}/${name ?? ''}` : (name ?? '');
}

function describeRelist(reason: RelistReason): string {
  if (reason === 'initial-list') return 'initial list';
  if (reason === 'attached') return 'recording started on a running informer';
  return 'relisted; changes between the last watch event and this list are unknown';
}
