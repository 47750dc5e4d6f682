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
import { containerCrashes, podRunsOf } from './container-crashes';
import type { CrashLogFetcher, CrashLogFetches } from './crash-log-fetches';

export type { CrashLogFetcher, CrashLogRequest } from './crash-log-fetches';

export class CrashLogCapture implements DeltaObserver {
  /**
   * uid -> the pod as last seen, to compare the next status with. The object, not its runs: it is the one
   * the informer's cache holds (the indexer stores each delta's object, and cached objects are never
   * mutated), so the map holds what it held with a runs string a pod (4.5-4.9 MB at 150,000 pods), and a
   * listed pod's runs are made only when it changes: making them for every pod of a first list was the
   * recorder's one cost on the path from the LIST to the page's synced (150,000 listed pods: 155-170 ->
   * 75-83 ms of CPU in-process, session 20). A name reused with a new uid across a relist (the informer,
   * keyed by name, never says the old uid was deleted) leaves the old uid's entry behind, as the runs
   * string it replaces did. Sharded: one entry per pod, and one Map of 150,000 grew by rehashing them all
   * in one pop (see ShardedMap).
   */
  private readonly seen = new ShardedMap<KubeObject>();

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
        this.seen.delete(uid);
        continue;
      }
      const before = this.seen.exchange(uid, pod);
      if (before === undefined || before === pod || before.status === pod.status) continue;
      const crashes = containerCrashes(podRunsOf(before), pod);
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
