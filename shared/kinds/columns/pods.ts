// Pod columns as kubectl's printPod computes them (k8s.io/kubernetes/pkg/printers/internalversion/printers.go).
// STATUS is not status.phase: it is the most telling reason among init containers, containers,
// deletion and the node's reachability, which is what people read a pod list for.

import type { KubeObject } from '../../kube/object';
import type { CellValue, ColumnDefinition, KindPrinter } from './column-definition';
import { ageColumn, count, createdAt, field, list, nameColumn, text, timestamp } from './column-definition';
import { parseQuantity } from '../../kube/quantity';

type Json = Record<string, unknown>;

/** What printPod reports for one pod, before formatting. */
export interface PodSummary {
  readyContainers: number;
  totalContainers: number;
  /** The STATUS column: Running, Init:1/3, Init:CrashLoopBackOff, CrashLoopBackOff, Terminating, ... */
  status: string;
  restarts: number;
  /** Epoch ms of the latest container termination that counts toward `restarts`; null if none. */
  lastRestart: number | null;
}

/** Set on a pod by the node lifecycle controller when its node stops reporting. */
const nodeUnreachablePodReason = 'NodeLost';

function isRestartableInitContainer(container: Json | undefined): boolean {
  return container?.['restartPolicy'] === 'Always';
}

function conditionIs(status: Json, type: string): boolean | undefined {
  const condition = list(status, 'conditions').find((candidate) => candidate['type'] === type);
  return condition === undefined ? undefined : condition['status'] === 'True';
}

function lastTerminationTime(containerStatus: Json): number | null {
  return timestamp(field(field(containerStatus, 'lastState'), 'terminated')['finishedAt']);
}

function later(left: number | null, right: number | null): number | null {
  if (left === null) return right;
  if (right === null) return left;
  return Math.max(left, right);
}

function terminationReason(terminated: Json, prefix: string): string {
  const reason = text(terminated['reason']);
  if (reason) return prefix + reason;
  const signal = count(terminated['signal']);
  return signal !== 0 ? `${prefix}Signal:${signal}` : `${prefix}ExitCode:${count(terminated['exitCode'])}`;
}

/** printPod's READY, STATUS and RESTARTS, rule for rule. */
export function summarizePod(pod: KubeObject): PodSummary {
  const spec = field(pod, 'spec');
  const status = field(pod, 'status');
  const phase = text(status['phase']) ?? '';
  const initContainers = list(spec, 'initContainers');
  const initContainersByName = new Map(
    initContainers.map((container) => [text(container['name']) ?? '', container]),
  );
  let reason = text(status['reason']) || phase;
  if (
    list(status, 'conditions').some(
      (condition) => condition['type'] === 'PodScheduled' && condition['reason'] === 'SchedulingGated',
    )
  ) {
    reason = 'SchedulingGated';
  }
  let totalContainers = list(spec, 'containers').length;
  totalContainers += initContainers.filter(isRestartableInitContainer).length;
  let readyContainers = 0;
  let restarts = 0;
  let lastRestart: number | null = null;
  let sidecarRestarts = 0;
  let lastSidecarRestart: number | null = null;

  let initializing = false;
  const initStatuses = list(status, 'initContainerStatuses');
  for (let index = 0; index < initStatuses.length; index++) {
    const containerStatus = initStatuses[index]!;
    const state = field(containerStatus, 'state');
    const restartable = isRestartableInitContainer(
      initContainersByName.get(text(containerStatus['name']) ?? ''),
    );
    restarts += count(containerStatus['restartCount']);
    lastRestart = later(lastRestart, lastTerminationTime(containerStatus));
    if (restartable) {
      sidecarRestarts += count(containerStatus['restartCount']);
      lastSidecarRestart = later(lastSidecarRestart, lastTerminationTime(containerStatus));
    }
    const terminated = state['terminated'] != null ? field(state, 'terminated') : undefined;
    const waitingReason = text(field(state, 'waiting')['reason']);
    if (terminated !== undefined && count(terminated['exitCode']) === 0) continue;
    if (restartable && containerStatus['started'] === true) {
      if (containerStatus['ready'] === true) readyContainers++;
      continue;
    }
    if (terminated !== undefined) {
      reason = terminationReason(terminated, 'Init:');
    } else if (waitingReason && waitingReason !== 'PodInitializing') {
      reason = `Init:${waitingReason}`;
    } else {
      reason = `Init:${index}/${initContainers.length}`;
    }
    initializing = true;
    break;
  }

  if (!initializing || conditionIs(status, 'Initialized') === true) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const containerStatuses = list(status, 'containerStatuses');
    for (let index = containerStatuses.length - 1; index >= 0; index--) {
      const containerStatus = containerStatuses[index]!;
      const state = field(containerStatus, 'state');
      restarts += count(containerStatus['restartCount']);
      lastRestart = later(lastRestart, lastTerminationTime(containerStatus));
      const waitingReason = text(field(state, 'waiting')['reason']);
      if (waitingReason) {
        reason = waitingReason;
      } else if (state['terminated'] != null) {
        reason = terminationReason(field(state, 'terminated'), '');
      } else if (containerStatus['ready'] === true && state['running'] != null) {
        hasRunning = true;
        readyContainers++;
      }
    }
    // A pod whose last-listed container completed but another still runs is not "Completed".
    if (reason === 'Completed' && hasRunning) {
      reason = conditionIs(status, 'Ready') === true ? 'Running' : 'NotReady';
    }
  }

  const deleting = typeof pod.metadata.deletionTimestamp === 'string';
  if (deleting && text(status['reason']) === nodeUnreachablePodReason) {
    reason = 'Unknown';
  } else if (deleting && phase !== 'Succeeded' && phase !== 'Failed') {
    reason = 'Terminating';
  }
  return { readyContainers, totalContainers, status: reason, restarts, lastRestart };
}

/** READINESS GATES: how many of the spec's readiness gates have a True condition, "<none>" if none. */
function readinessGates(pod: KubeObject): string {
  const gates = list(field(pod, 'spec'), 'readinessGates');
  if (gates.length === 0) return '<none>';
  const status = field(pod, 'status');
  const passed = gates.filter(
    (gate) => conditionIs(status, text(gate['conditionType']) ?? '') === true,
  ).length;
  return `${passed}/${gates.length}`;
}

const podColumns: readonly ColumnDefinition[] = [
  nameColumn,
  { name: 'Ready', type: 'string', priority: 0 },
  { name: 'Status', type: 'string', priority: 0 },
  { name: 'Restarts', type: 'integer', priority: 0, format: 'restarts' },
  ageColumn,
  { name: 'IP', type: 'string', priority: 1 },
  { name: 'Node', type: 'string', priority: 1 },
  { name: 'Nominated Node', type: 'string', priority: 1 },
  { name: 'Readiness Gates', type: 'string', priority: 1 },
  { name: 'Last Restart', type: 'date', priority: 1, format: 'lastRestart', hidden: true },
  // What the metrics columns' percentages are of (k9s's %CPU/R, %MEM/L): cores and bytes.
  { name: 'CPU Requests', type: 'number', priority: 1, hidden: true },
  { name: 'CPU Limits', type: 'number', priority: 1, hidden: true },
  { name: 'Memory Requests', type: 'number', priority: 1, hidden: true },
  { name: 'Memory Limits', type: 'number', priority: 1, hidden: true },
];

/**
 * The sum of the containers' `requests` or `limits` of one resource, or null when no container sets
 * it; a container without a limit makes the pod's limit unbounded, so null too (k9s's "n/a").
 */
export function podResourceTotal(
  pod: KubeObject,
  kind: 'requests' | 'limits',
  resource: string,
): number | null {
  let total = 0;
  let missing = false;
  for (const container of list(field(pod, 'spec'), 'containers')) {
    const quantity = text(field(field(container, 'resources'), kind)[resource]);
    const value = quantity === undefined ? undefined : parseQuantity(quantity);
    if (value === undefined) missing = true;
    else total += value;
  }
  return total > 0 && !(kind === 'limits' && missing) ? total : null;
}

/** A pod's CPU requests, CPU limits, memory requests and memory limits (podResourceTotal's). */
type ResourceTotals = readonly [number | null, number | null, number | null, number | null];

/**
 * Totals by the containers array they were summed from. Cached objects are never mutated, and a
 * ReplicaSet's pods share one containers array in the informers' caches (sibling-sharing.ts keeps one
 * copy of what siblings hold equal): a listing of 150,000 pods parsed the same few quantities in four
 * walks per pod, about a third of the pods' cells.
 */
const totalsByContainers = new WeakMap<object, ResourceTotals>();

function resourceTotals(pod: KubeObject): ResourceTotals {
  const containers = field(pod, 'spec')['containers'];
  const known = Array.isArray(containers) ? totalsByContainers.get(containers) : undefined;
  if (known !== undefined) return known;
  const totals: ResourceTotals = [
    podResourceTotal(pod, 'requests', 'cpu'),
    podResourceTotal(pod, 'limits', 'cpu'),
    podResourceTotal(pod, 'requests', 'memory'),
    podResourceTotal(pod, 'limits', 'memory'),
  ];
  if (Array.isArray(containers)) totalsByContainers.set(containers, totals);
  return totals;
}

export const podPrinter: KindPrinter = {
  columns: podColumns,
  cells(pod): CellValue[] {
    const summary = summarizePod(pod);
    const spec = field(pod, 'spec');
    const status = field(pod, 'status');
    const podIP = text(list(status, 'podIPs')[0]?.['ip']) || text(status['podIP']);
    const [cpuRequests, cpuLimits, memoryRequests, memoryLimits] = resourceTotals(pod);
    return [
      pod.metadata.name ?? '',
      `${summary.readyContainers}/${summary.totalContainers}`,
      summary.status,
      summary.restarts,
      createdAt(pod),
      podIP || '<none>',
      text(spec['nodeName']) || '<none>',
      text(status['nominatedNodeName']) || '<none>',
      readinessGates(pod),
      summary.lastRestart,
      cpuRequests,
      cpuLimits,
      memoryRequests,
      memoryLimits,
    ];
  },
};
