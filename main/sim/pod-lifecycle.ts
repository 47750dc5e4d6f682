// The stages a simulated pod goes through and the status the kubelet would report in each: conditions,
// container statuses (waiting ContainerCreating, running, CrashLoopBackOff with restarts, terminated
// Completed), IPs and start time. Pure: the caller chooses the stage and supplies the time.
import type { KubeObject } from '../../shared/kube/object';
import { formatTime } from './clock';

/** Pending: created, not yet looked at by the scheduler. */
export type PodStage =
  'Pending' | 'Unschedulable' | 'ContainerCreating' | 'Running' | 'CrashLoopBackOff' | 'Succeeded' | 'Failed';

type Json = Record<string, unknown>;

function condition(type: string, status: boolean, time: string, reason?: string, message?: string): Json {
  return {
    type,
    status: status ? 'True' : 'False',
    lastProbeTime: null,
    lastTransitionTime: time,
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  };
}

function containersOf(pod: KubeObject): Json[] {
  return ((pod.spec as Json | undefined)?.containers as Json[] | undefined) ?? [];
}

function initContainersOf(pod: KubeObject): Json[] {
  return ((pod.spec as Json | undefined)?.initContainers as Json[] | undefined) ?? [];
}

/**
 * The runtime's id of one run of a container: distinct per restart, as containerd's are, so the
 * kubelet (and main/sim/pod-logs.ts) can tell the current run's log from the previous one's.
 */
export function containerIdOf(pod: KubeObject, index: number, restartCount: number, init = false): string {
  const uid = (pod.metadata.uid ?? '').replace(/-/g, '');
  return `containerd://${uid}${init ? 'i' : ''}${index}${restartCount > 0 ? `-${restartCount}` : ''}`;
}

/** How long a crash-looping container ran before it failed, when no earlier start is known. */
const crashRunMs = 20_000;

/** A pod IP inside the node's pod CIDR (10.244.<node>.0/24), derived from the pod's uid. */
function podAddress(pod: KubeObject, nodeIndex: number): string {
  let hash = 0;
  for (const character of pod.metadata.uid ?? pod.metadata.name ?? '')
    hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  return `10.${244 + ((nodeIndex >> 8) & 3)}.${nodeIndex & 255}.${2 + (hash % 250)}`;
}

const zeroDigest = '0'.repeat(64);

const conditionCache = new Map<string, Json[]>();

/**
 * Pods in the same stage at the same second have identical conditions; seeding 150,000 pods shares
 * one array per variant (safe: stored objects are never mutated in place).
 */
function sharedConditions(key: string, build: () => Json[]): Json[] {
  let conditions = conditionCache.get(key);
  if (!conditions) {
    if (conditionCache.size > 1000) conditionCache.clear();
    conditions = build();
    conditionCache.set(key, conditions);
  }
  return conditions;
}

/** "node-0042" -> 42, for addresses; 0 for other names. */
function nodeIndexOf(nodeName: string): number {
  const match = /(\d+)$/.exec(nodeName);
  return match ? Number(match[1]) : 0;
}

/**
 * Writes the status a pod has in `stage` at time `now`. `restartCount` applies to the first
 * container (crash loops); the start time is kept once set.
 */
export function setPodStage(pod: KubeObject, stage: PodStage, now: number, restartCount = 0): void {
  const time = formatTime(now);
  const previous = (pod.status as Json | undefined) ?? {};
  const nodeName = (pod.spec as Json | undefined)?.nodeName as string | undefined;
  const containers = containersOf(pod);
  const status: Json = { qosClass: previous.qosClass ?? 'Burstable' };
  if (stage === 'Pending') {
    pod.status = { phase: 'Pending', qosClass: status.qosClass };
    return;
  }
  if (stage === 'Unschedulable') {
    status.phase = 'Pending';
    status.conditions = [
      condition(
        'PodScheduled',
        false,
        time,
        'Unschedulable',
        '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
      ),
    ];
    pod.status = status;
    return;
  }
  const nodeIndex = nodeIndexOf(nodeName ?? '');
  const address = podAddress(pod, nodeIndex);
  status.hostIP = `192.168.${(nodeIndex >> 8) & 255}.${nodeIndex & 255}`;
  status.hostIPs = [{ ip: status.hostIP }];
  status.startTime = previous.startTime ?? time;
  const running = stage === 'Running';
  const ready = running;
  status.phase = stage === 'ContainerCreating' ? 'Pending' : stage === 'CrashLoopBackOff' ? 'Running' : stage;
  if (stage !== 'ContainerCreating') {
    status.podIP = address;
    status.podIPs = [{ ip: address }];
  }
  const names = containers.map((container) => container.name).join(' ');
  status.conditions = sharedConditions(`${stage}|${time}|${String(status.startTime)}|${names}`, () => [
    condition('PodReadyToStartContainers', stage !== 'ContainerCreating', time),
    condition('Initialized', true, time),
    condition(
      'Ready',
      ready,
      time,
      ready ? undefined : stage === 'Succeeded' ? 'PodCompleted' : 'ContainersNotReady',
      ready || stage === 'Succeeded' ? undefined : `containers with unready status: [${names}]`,
    ),
    condition(
      'ContainersReady',
      ready,
      time,
      ready ? undefined : stage === 'Succeeded' ? 'PodCompleted' : 'ContainersNotReady',
    ),
    condition('PodScheduled', true, String(status.startTime)),
  ]);
  const previousStatuses = (previous.containerStatuses as Json[] | undefined) ?? [];
  if (initContainersOf(pod).length > 0 && stage !== 'ContainerCreating')
    status.initContainerStatuses = initContainersOf(pod).map((container, index) => {
      const containerID = containerIdOf(pod, index, 0, true);
      return {
        name: container.name,
        image: container.image,
        imageID: `docker.io/library/${String(container.image)}@sha256:${zeroDigest}`,
        ready: true,
        restartCount: 0,
        started: false,
        containerID,
        state: {
          terminated: {
            exitCode: 0,
            reason: 'Completed',
            startedAt: status.startTime,
            finishedAt: status.startTime,
            containerID,
          },
        },
      };
    });
  status.containerStatuses = containers.map((container, index) => {
    const crashing = stage === 'CrashLoopBackOff' && index === 0;
    const restarts = index === 0 ? restartCount : 0;
    const previousStatus = previousStatuses.find((candidate) => candidate.name === container.name);
    const previousState = (previousStatus?.state as Json | undefined) ?? {};
    const base: Json = {
      name: container.name,
      image: container.image,
      imageID:
        stage === 'ContainerCreating'
          ? ''
          : `docker.io/library/${String(container.image)}@sha256:${zeroDigest}`,
      ready: ready && !crashing,
      restartCount: restarts,
      started: running || (stage === 'CrashLoopBackOff' && !crashing),
    };
    // A crash-looping container waits with no run of its own; its runtime id is the failed run's.
    if (stage !== 'ContainerCreating')
      base.containerID = containerIdOf(pod, index, crashing ? Math.max(0, restarts - 1) : restarts);
    if (stage === 'ContainerCreating') base.state = { waiting: { reason: 'ContainerCreating' } };
    else if (crashing) {
      // The failed run started when the running container did (or, for a pod seeded mid crash loop,
      // shortly before), so its log has lines for `kubectl logs --previous` to show.
      const running = previousState.running as Json | undefined;
      const startedAt =
        typeof running?.startedAt === 'string' && previousStatus?.containerID === base.containerID
          ? running.startedAt
          : formatTime(now - crashRunMs);
      base.state = {
        waiting: {
          reason: 'CrashLoopBackOff',
          message: `back-off 5m0s restarting failed container=${String(container.name)} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`,
        },
      };
      base.lastState = {
        terminated: {
          exitCode: 1,
          reason: 'Error',
          startedAt,
          finishedAt: time,
          containerID: base.containerID,
        },
      };
    } else if (stage === 'Succeeded' || stage === 'Failed') {
      const failed = stage === 'Failed';
      base.state = {
        terminated: {
          exitCode: failed ? 1 : 0,
          reason: failed ? 'Error' : 'Completed',
          startedAt: status.startTime,
          finishedAt: time,
          containerID: base.containerID,
        },
      };
    } else {
      base.state = { running: { startedAt: time } };
      // A container restarted after a crash keeps the failed run as its last state, as the kubelet does.
      if (restarts > 0 && previousStatus?.lastState) base.lastState = previousStatus.lastState;
    }
    return base;
  });
  pod.status = status;
}

/** The stage a pod's status shows, as the simulator wrote it. */
export function podStageOf(pod: KubeObject): PodStage {
  const status = (pod.status as Json | undefined) ?? {};
  const phase = status.phase as string | undefined;
  if (phase === 'Succeeded' || phase === 'Failed') return phase;
  const first = (status.containerStatuses as Json[] | undefined)?.[0];
  const waiting = (first?.state as Json | undefined)?.waiting as Json | undefined;
  if (waiting?.reason === 'CrashLoopBackOff') return 'CrashLoopBackOff';
  if (phase === 'Running') return 'Running';
  if (!(pod.spec as Json | undefined)?.nodeName) {
    const conditions = (status.conditions as Json[] | undefined) ?? [];
    return conditions.some((condition) => condition.type === 'PodScheduled' && condition.status === 'False')
      ? 'Unschedulable'
      : 'Pending';
  }
  return 'ContainerCreating';
}

export function restartCountOf(pod: KubeObject): number {
  const first = ((pod.status as Json | undefined)?.containerStatuses as Json[] | undefined)?.[0];
  return typeof first?.restartCount === 'number' ? first.restartCount : 0;
}
