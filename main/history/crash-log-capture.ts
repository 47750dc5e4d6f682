// Keeps the last logs of every recorded pod's container run that ends (see containerCrashes): the
// logs go away with the next restart or with the pod, and they are what a crash needs explained. On
// the informer's hot path this only compares statuses and stamps; the fetches run a few at a time in
// the Recorder's CrashLogFetches (through the session's RestClient: credentials stay in main) and
// their text joins the Recorder's queue as a crash-log record, stamped with the change's time.
import type { Deltas } from '../cache/delta';
import type { DeltaObserver } from '../cache/delta-observer';
import { DeletedFinalStateUnknown } from '../cache/keys';
import type { ReflectorState } from '../cache/reflector-options';
import { ShardedMap } from '../cache/sharded-map';
import type { KubeObject } from '../../shared/kube/object';
import type { PodRuns } from './container-crashes';
import { containerCrashes, podRunsOf } from './container-crashes';
import type { CrashLogFetcher, CrashLogFetches } from './crash-log-fetches';

export type { CrashLogFetcher, CrashLogRequest } from './crash-log-fetches';

export class CrashLogCapture implements DeltaObserver {
  /**
   * uid -> the pod's runs as last seen, to compare the next status with. Sharded: one entry per pod,
   * and one Map of 150,000 grew by rehashing them all in one pop (see ShardedMap).
   */
  private readonly runs = new ShardedMap<PodRuns>();

  constructor(
    private readonly fetch: CrashLogFetcher,
    private readonly fetches: CrashLogFetches,
    /** The Recorder's stamp: never behind the changes it recorded. */
    private readonly stamp: () => number,
  ) {}

  observeDeltas(deltas: Deltas<KubeObject>): void {
    for (const delta of deltas) {
      const pod =
        delta.object instanceof DeletedFinalStateUnknown
          ? (delta.object as DeletedFinalStateUnknown<KubeObject>).obj
          : (delta.object as KubeObject);
      const uid = pod?.metadata?.uid;
      if (!uid) continue;
      if (delta.type === 'Deleted') {
        this.runs.delete(uid);
        continue;
      }
      const before = this.runs.get(uid);
      const now = podRunsOf(pod);
      this.runs.set(uid, now);
      if (before === undefined || before === now) continue;
      const crashes = containerCrashes(before, pod, now);
      if (crashes.length === 0) continue;
      const time = this.stamp();
      const namespace = pod.metadata.namespace ?? '';
      const name = pod.metadata.name ?? '';
      for (const crash of crashes)
        this.fetches.enqueue({ time, uid, namespace, pod: name, crash, fetch: this.fetch });
    }
  }

  observePhase(_state: ReflectorState): void {}
}
