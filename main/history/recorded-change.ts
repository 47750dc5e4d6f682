// The vocabulary of a recording: what one recorded change, gap and relist look like to readers.
import type { DeltaType } from '../cache/delta';
import type { KubeObject } from '../../shared/kube/object';

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
 * What the timeline must not pretend to know:
 * - gap "not-recording": the app (or recorder) was not running, from its last flush to its restart;
 * - gap "watch-disconnected": an informer's list/watch failed, from the error until it relisted;
 * - relist: a list replaced the informer's cache (after a 410, an error, or at start).
 * A gap still open when the recording was last written has `end` undefined.
 */
export interface RecordingMark {
  readonly kind: 'gap' | 'relist';
  readonly reason: 'not-recording' | 'watch-disconnected' | 'initial-list' | 'relist' | 'attached';
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
