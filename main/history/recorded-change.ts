// The vocabulary of a recording: what one recorded change, gap and relist look like to readers.
import type { DeltaType } from '../cache/delta';
import type { KubeObject } from '../../shared/kube/object';
import type { GapReason, RelistReason } from './recording-protocol';

export type { GapReason, RelistReason };

/** One informer's stream of changes: a resource (gvrKey, e.g. "pods.v1") in a scope ("" for all namespaces). */
export interface StreamIdentity {
  readonly gvr: string;
  /** The informer's namespace; "" when it watches every namespace (and for cluster-scoped kinds). */
  readonly scope: string;
}

/**
 * One delta as it reached an informer's indexer. `object` is the object after the change with
 * metadata.managedFields stripped; for a Deleted it is the last state known, and when the deletion
 * was inferred by a relist (a DeletedFinalStateUnknown) `finalStateUnknown` is true and `object` is
 * the last state the cache held (undefined if even that was unknown).
 */
export interface RecordedChange {
  /** Increases with recording order; equal times keep their order by id. */
  readonly id: number;
  /** Wall time (ms since the epoch) when the delta reached the indexer; never decreases within a recording. */
  readonly time: number;
  readonly gvr: string;
  readonly scope: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly type: DeltaType;
  readonly finalStateUnknown: boolean;
  readonly resourceVersion: string;
  readonly object: KubeObject | undefined;
}

/**
 * What the timeline must not pretend to know. Every instant of a recording is either inside a gap or
 * covered by a live watch whose changes were all recorded. Gaps:
 * - "not-recording": the recorder was not running (from its last write to its restart), its write
 *   failed, or the stream was no longer recorded;
 * - "listing": from the start of recording a stream until its first list is in the cache;
 * - "watch-disconnected": the watch was down (the Reflector backing off after an error or a 410);
 * - "relisting": from the start of a relist until the list is in the cache;
 * - "queue-overflow": the recording process fell behind and captured changes were dropped, until the
 *   informers' caches were recorded again.
 * A relist mark (an instant) says a list replaced the informer's cache: "initial-list", "relist",
 * "attached" (recording started on a running informer) or "resynchronized" (after a queue overflow).
 * A gap still open when the recording was last written has `end` undefined.
 */
export interface RecordingMark {
  readonly kind: 'gap' | 'relist';
  readonly reason: GapReason | RelistReason;
  /** The stream concerned; undefined for the whole recording. */
  readonly stream: StreamIdentity | undefined;
  readonly start: number;
  readonly end: number | undefined;
  readonly detail: string;
}

const deltaTypeCodes: Record<DeltaType, number> = { Added: 1, Updated: 2, Deleted: 3, Replaced: 4, Sync: 5 };
const deltaTypesByCode = new Map<number, DeltaType>(
  Object.entries(deltaTypeCodes).map(([type, code]) => [code, type as DeltaType]),
);
/** Set on a Deleted's code when the deletion came from a DeletedFinalStateUnknown. */
const finalStateUnknownFlag = 8;

export function encodeDeltaType(type: DeltaType, finalStateUnknown: boolean): number {
  return deltaTypeCodes[type] | (finalStateUnknown ? finalStateUnknownFlag : 0);
}

export function decodeDeltaType(code: number): { type: DeltaType; finalStateUnknown: boolean } {
  const type = deltaTypesByCode.get(code & ~finalStateUnknownFlag);
  if (!type) throw new Error(`unknown delta type code ${code}`);
  return { type, finalStateUnknown: (code & finalStateUnknownFlag) !== 0 };
}

export function isDeletion(code: number): boolean {
  return (code & ~finalStateUnknownFlag) === deltaTypeCodes.Deleted;
}
