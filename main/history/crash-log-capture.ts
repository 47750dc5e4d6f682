// Keeps the last logs of every recorded pod's container run that ends (see containerCrashes): the
// logs go away with the next restart or with the pod, and they are what a crash needs explained. On
// the informer's hot path this only compares statuses and stamps; the fetches run a few at a time
// through the session's RestClient (credentials stay in main) and their text joins the Recorder's
// queue as a crash-log record, stamped with the change's time.
import type { Deltas } from '../cache/delta';
import type { DeltaObserver } from '../cache/delta-observer';
import { DeletedFinalStateUnknown } from '../cache/keys';
import type { ReflectorState } from '../cache/reflector-options';
import type { KubeObject } from '../../shared/kube/object';
import { isNotFound } from '../../shared/kube/status';
import type { ContainerCrash, PodRuns } from './container-crashes';
import { containerCrashes, podRunsOf } from './container-crashes';
import type { CrashLogEntry } from './recording-protocol';

/** What one fetch asks for: a container's logs, the previous instance's when it was restarted. */
export interface CrashLogRequest {
  readonly namespace: string;
  readonly pod: string;
  readonly container: string;
  readonly previous: boolean;
  /** Bounds (sent as limitBytes and tailLines): a run's end is what explains its crash. */
  readonly limitBytes: number;
  readonly tailLines: number;
}

/** Reads the logs; rejects with the API's StatusError (404: the pod or the run is gone). */
export type CrashLogFetcher = (request: CrashLogRequest) => Promise<string>;

export interface CrashLogCaptureOptions {
  readonly fetch: CrashLogFetcher;
  /** The Recorder's stamp: never behind the changes it recorded. */
  readonly stamp: () => number;
  readonly append: (entry: CrashLogEntry) => void;
  /** Fetches at once (default 3). */
  readonly concurrency?: number;
  /** Crashes waiting for a fetch beyond which new ones are only noted (default 100). */
  readonly queueLimit?: number;
  readonly limitBytes?: number;
  readonly tailLines?: number;
}

interface PendingCrash {
  readonly time: number;
  readonly uid: string;
  readonly namespace: string;
  readonly pod: string;
  readonly crash: ContainerCrash;
}

export const crashLogLimitBytes = 256 * 1024;
export const crashLogTailLines = 5000;

export class CrashLogCapture implements DeltaObserver {
  /** uid -> the pod's runs as last seen, to compare the next status with. */
  private readonly runs = new Map<string, PodRuns>();
  private readonly waiting: PendingCrash[] = [];
  private running = 0;
  private stopped = false;
  private readonly concurrency: number;
  private readonly queueLimit: number;

  constructor(private readonly options: CrashLogCaptureOptions) {
    this.concurrency = options.concurrency ?? 3;
    this.queueLimit = options.queueLimit ?? 100;
  }

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
      this.runs.set(uid, podRunsOf(pod));
      if (!before) continue;
      const crashes = containerCrashes(before, pod);
      if (crashes.length === 0) continue;
      const time = this.options.stamp();
      for (const crash of crashes)
        this.enqueue({
          time,
          uid,
          namespace: pod.metadata.namespace ?? '',
          pod: pod.metadata.name ?? '',
          crash,
        });
    }
  }

  observePhase(_state: ReflectorState): void {}

  /** Crashes waiting for a fetch or being fetched. */
  get pending(): number {
    return this.waiting.length + this.running;
  }

  /** No more fetches start; those under way still record what they read. */
  stop(): void {
    this.stopped = true;
    this.waiting.length = 0;
  }

  private enqueue(pending: PendingCrash): void {
    if (this.stopped) return;
    if (this.waiting.length >= this.queueLimit) {
      this.record(pending, '', `not read: more than ${this.queueLimit} crashes were waiting for their logs`);
      return;
    }
    this.waiting.push(pending);
    this.next();
  }

  private next(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      const pending = this.waiting.shift()!;
      this.running++;
      void this.fetch(pending).finally(() => {
        this.running--;
        this.next();
      });
    }
  }

  private async fetch(pending: PendingCrash): Promise<void> {
    try {
      const logs = await this.options.fetch({
        namespace: pending.namespace,
        pod: pending.pod,
        container: pending.crash.container,
        previous: pending.crash.previous,
        limitBytes: this.options.limitBytes ?? crashLogLimitBytes,
        tailLines: this.options.tailLines ?? crashLogTailLines,
      });
      this.record(pending, logs, undefined);
    } catch (error) {
      const gone = isNotFound(error);
      this.record(
        pending,
        '',
        gone
          ? 'the pod was gone before its logs were read'
          : `not read: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private record(pending: PendingCrash, logs: string, problem: string | undefined): void {
    const { crash } = pending;
    this.options.append({
      record: 'crash-log',
      time: pending.time,
      uid: pending.uid,
      namespace: pending.namespace,
      pod: pending.pod,
      container: crash.container,
      containerId: crash.containerId,
      exitCode: crash.exitCode,
      reason: crash.reason,
      finishedAt: crash.finishedAt,
      logs,
      truncated: Buffer.byteLength(logs) >= (this.options.limitBytes ?? crashLogLimitBytes),
      problem,
    });
  }
}
