// Where a metrics poll's lists are read, summed and numbered for the recording. A poll of 150,000 pods
// is a 57 MB LIST: decoding it, summing each pod's containers and numbering its samples cost the
// thread that does it 1.1-1.3 s of CPU every 15 s (2.2 s at a session's first poll;
// test/bench/metrics-poll-main.ts), and in the app that thread was main's, where the informers and the
// bridge run. The app does it in a worker (metrics-worker-work.ts); tests and scratch drivers do it on
// their own thread (InlineMetricsPollWork). The poller sees only this interface.
import type { Clock } from '../cache/clock';
import { TurnBudget } from '../cache/turn-budget';
import type { MetricSampleCapture } from '../history/metric-sample-capture';
import { MetricsKeys } from '../kube/metrics-keys';
import type { MetricsUsage } from '../kube/metrics-usage';
import type { MetricsMessage, MetricsResource } from '../../shared/protocol/metrics-messages';

/** One LIST read where the work runs, as the poller holds it until the poll's end. */
export interface MetricsListRead {
  /** The objects it listed. */
  readonly objects: number;
}

export interface MetricsPollWork {
  /** A poll of `resource` begins: the keys its lists make are kept past its end. */
  begin(resource: MetricsResource): void;
  /**
   * GETs /apis/metrics.k8s.io/v1beta1/[namespaces/{namespace}/]{resource} ("" for all namespaces) and
   * reads it. Rejects as the request does (a 403 is a StatusError).
   */
  list(resource: MetricsResource, namespace: string, signal: AbortSignal): Promise<MetricsListRead>;
  /**
   * The poll begun last read `lists` (every one it listed): its message of per-object totals, and,
   * where the session records, its samples numbered and handed to the recording.
   */
  finish(
    resource: MetricsResource,
    lists: readonly MetricsListRead[],
    polledAt: number,
  ): Promise<MetricsMessage>;
  /** Ends the work for good (the session closed). */
  close(): void;
}

/**
 * GETs /apis/metrics.k8s.io/v1beta1/[namespaces/{namespace}/]{resource} ("" for all namespaces), read
 * into columns with the resource's `keys` (main/kube's listMetrics).
 */
export type MetricsFetch = (
  resource: MetricsResource,
  namespace: string,
  signal: AbortSignal,
  keys: MetricsKeys,
) => Promise<MetricsUsage>;

/**
 * Items summed in one turn at most: a 150,000-pod poll summed at once held the thread about 220 ms; in
 * slices no turn passes a few ms (TurnBudget also ends a turn at turnBudgetMs).
 */
export const metricsItemsPerTurn = 5_000;

export interface InlineMetricsPollWorkOptions {
  readonly clock: Clock;
  readonly fetch: MetricsFetch;
  /** Numbers each poll's samples for the recording; absent when the session does not record. */
  readonly capture?: MetricSampleCapture;
  /** Yields between slices of a big poll's summing (default: TurnBudget's next turn). */
  readonly nextTurn?: () => Promise<void>;
}

class UsageRead implements MetricsListRead {
  constructor(readonly usage: MetricsUsage) {}

  get objects(): number {
    return this.usage.keys.length;
  }
}

/** Reads, sums and numbers on the calling thread, in turns. */
export class InlineMetricsPollWork implements MetricsPollWork {
  private readonly keys: Record<MetricsResource, MetricsKeys> = {
    pods: new MetricsKeys(),
    nodes: new MetricsKeys(),
  };

  constructor(private readonly options: InlineMetricsPollWorkOptions) {}

  begin(resource: MetricsResource): void {
    this.keys[resource].begin();
  }

  async list(resource: MetricsResource, namespace: string, signal: AbortSignal): Promise<MetricsListRead> {
    return new UsageRead(await this.options.fetch(resource, namespace, signal, this.keys[resource]));
  }

  async finish(
    resource: MetricsResource,
    lists: readonly MetricsListRead[],
    polledAt: number,
  ): Promise<MetricsMessage> {
    this.keys[resource].sweep();
    const usages = (lists as readonly UsageRead[]).map((list) => list.usage);
    const budget = new TurnBudget(this.options.clock, metricsItemsPerTurn);
    const message = await metricsMessageOf(
      resource,
      usages,
      budget,
      this.options.nextTurn ?? (() => budget.nextTurn()),
    );
    void this.options.capture?.capture(resource, usages, polledAt);
    return message;
  }

  close(): void {}
}

/**
 * One message of per-object totals (a pod's containers summed), keyed as the rows are; summed in turns
 * bounded by `budget`, yielding with `yieldTurn` between them, so a big poll never holds the thread.
 */
export async function metricsMessageOf(
  resource: MetricsResource,
  lists: readonly MetricsUsage[],
  budget: { spend(): boolean },
  yieldTurn: () => Promise<void>,
): Promise<MetricsMessage> {
  // Made at their size: grown by push, a 150,000-pod poll's arrays were copied ~18 times each.
  const keys = ([] as string[]).concat(...lists.map((list) => list.keys));
  const cpu = new Array<number>(keys.length);
  const memory = new Array<number>(keys.length);
  const message: MetricsMessage = { type: 'metrics', resource, availability: 'served', keys, cpu, memory };
  // Items per window, to the second: the typical one is the API's resolution (see MetricsMessage).
  const windows = new Map<number, number>();
  let at = 0;
  for (const list of lists)
    for (let item = 0; item < list.keys.length; item++, at++) {
      if (budget.spend()) await yieldTurn();
      let cores = 0;
      let bytes = 0;
      for (let row = list.containerStarts[item]!; row < list.containerStarts[item + 1]!; row++) {
        cores += list.cpu[row]!;
        bytes += list.memory[row]!;
      }
      cpu[at] = cores;
      memory[at] = bytes;
      const timestamp = list.timestamps[item]!;
      if (timestamp > (message.timestamp ?? 0)) message.timestamp = timestamp;
      const window = Math.round(list.windowsMs[item]! / 1000);
      if (window > 0) windows.set(window, (windows.get(window) ?? 0) + 1);
    }
  const typical = medianWindowMs(windows);
  if (typical !== undefined) message.windowMs = typical;
  return message;
}

/** The median of the windows counted per whole second, in ms; undefined when no item had one. */
function medianWindowMs(windows: ReadonlyMap<number, number>): number | undefined {
  let count = 0;
  for (const items of windows.values()) count += items;
  let seen = 0;
  for (const window of [...windows.keys()].sort((a, b) => a - b)) {
    seen += windows.get(window)!;
    if (seen * 2 >= count) return window * 1000;
  }
  return undefined;
}
