// The Recorder's one queue of crash-log fetches, shared by every pods informer it records (a user
// limited to some namespaces runs one per namespace): at most `concurrency` fetches run at once
// whatever the number of informers, and crashes past `queueLimit` waiting are only noted. Each fetch
// ends as a crash-log record, with the logs or with why there are none (a gone pod is just noted).
import { isNotFound } from '../../shared/kube/status';
import type { ContainerCrash } from './container-crashes';
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

/** A crash seen on the informer's path, stamped with the time of the change that showed it. */
export interface PendingCrash {
  readonly time: number;
  readonly uid: string;
  readonly namespace: string;
  readonly pod: string;
  readonly crash: ContainerCrash;
  readonly fetch: CrashLogFetcher;
}

export interface CrashLogFetchesOptions {
  readonly append: (entry: CrashLogEntry) => void;
  /** Fetches at once (default 3). */
  readonly concurrency?: number;
  /** Crashes waiting for a fetch beyond which new ones are only noted (default 100). */
  readonly queueLimit?: number;
  /** Default 256 KiB. */
  readonly limitBytes?: number;
  /** Default 5,000. */
  readonly tailLines?: number;
}

export const crashLogLimitBytes = 256 * 1024;
export const crashLogTailLines = 5000;

export class CrashLogFetches {
  private readonly waiting: PendingCrash[] = [];
  private running = 0;
  private stopped = false;
  private readonly concurrency: number;
  private readonly queueLimit: number;
  private readonly limitBytes: number;
  private readonly tailLines: number;

  constructor(private readonly options: CrashLogFetchesOptions) {
    this.concurrency = options.concurrency ?? 3;
    this.queueLimit = options.queueLimit ?? 100;
    this.limitBytes = options.limitBytes ?? crashLogLimitBytes;
    this.tailLines = options.tailLines ?? crashLogTailLines;
  }

  /** Crashes waiting for a fetch or being fetched. */
  get pending(): number {
    return this.waiting.length + this.running;
  }

  enqueue(pending: PendingCrash): void {
    if (this.stopped) return;
    if (this.waiting.length >= this.queueLimit) {
      this.record(pending, '', `not read: more than ${this.queueLimit} crashes were waiting for their logs`);
      return;
    }
    this.waiting.push(pending);
    this.next();
  }

  /** No more fetches start; those under way still record what they read. */
  stop(): void {
    this.stopped = true;
    this.waiting.length = 0;
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
      const logs = await pending.fetch({
        namespace: pending.namespace,
        pod: pending.pod,
        container: pending.crash.container,
        previous: pending.crash.previous,
        limitBytes: this.limitBytes,
        tailLines: this.tailLines,
      });
      this.record(pending, logs, undefined);
    } catch (error) {
      this.record(
        pending,
        '',
        isNotFound(error)
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
      // At either bound the run may have written more than was kept.
      truncated: Buffer.byteLength(logs) >= this.limitBytes || lineCount(logs) >= this.tailLines,
      problem,
    });
  }
}

function lineCount(text: string): number {
  let lines = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lines++;
  return lines;
}
