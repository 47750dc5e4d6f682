// Which containers of a pod just ended a run whose logs are worth keeping: the kubelet restarted one
// (its restartCount rose, or the lastState.terminated it reports is a different run), or the pod
// failed with containers terminated in place (restartPolicy Never/OnFailure: no restart follows, so
// the run's logs are the current ones, not previous=true).
import type { KubeObject } from '../../shared/kube/object';

interface TerminatedState {
  readonly containerID?: string;
  readonly exitCode?: number;
  readonly reason?: string;
  readonly finishedAt?: string;
}

interface ContainerStatus {
  readonly name: string;
  readonly restartCount?: number;
  readonly containerID?: string;
  readonly state?: { readonly terminated?: TerminatedState };
  readonly lastState?: { readonly terminated?: TerminatedState };
}

interface PodStatus {
  readonly phase?: string;
  readonly initContainerStatuses?: readonly ContainerStatus[];
  readonly containerStatuses?: readonly ContainerStatus[];
}

/** One container's run that ended, and whether its logs are the previous instance's. */
export interface ContainerCrash {
  readonly container: string;
  /** The runtime's id of the run that ended ("containerd://..."); "" when the kubelet did not say. */
  readonly containerId: string;
  /** True: the container was restarted, its ended run's logs are `previous=true`. */
  readonly previous: boolean;
  readonly exitCode: number | undefined;
  readonly reason: string;
  readonly finishedAt: string | undefined;
}

/**
 * What a later status is compared with: whether the pod failed, then per container its name, restarts
 * and the last run that ended, as one string. Every pod of a cluster keeps one, so it is a string
 * rather than a map of objects (150,000 maps were most of this observer's time and garbage while a
 * list was delivered), and a status whose runs did not change, nearly every update, is told by one
 * comparison. Container names are DNS labels; a runtime's id or time holding a tab or a line break
 * could only blur its own container's comparison.
 */
export type PodRuns = string;

interface ContainerRuns {
  readonly restarts: number;
  readonly ended: string;
}

function statusesOf(pod: KubeObject): readonly ContainerStatus[] {
  const status = (pod as { status?: PodStatus }).status;
  return [...(status?.initContainerStatuses ?? []), ...(status?.containerStatuses ?? [])];
}

/** A run's identity: its container id, else when it finished (a kubelet may omit either). */
function runOf(terminated: TerminatedState | undefined): string {
  return terminated ? (terminated.containerID ?? '') + '@' + (terminated.finishedAt ?? '') : '';
}

function appendRuns(runs: string, statuses: readonly ContainerStatus[] | undefined): string {
  if (statuses)
    for (const status of statuses)
      runs += `\n${status.name}\t${status.restartCount ?? 0}\t${runOf(status.lastState?.terminated)}`;
  return runs;
}

export function podRunsOf(pod: KubeObject): PodRuns {
  const status = (pod as { status?: PodStatus }).status;
  const runs = appendRuns(status?.phase === 'Failed' ? 'failed' : 'running', status?.initContainerStatuses);
  return appendRuns(runs, status?.containerStatuses);
}

function containersOf(runs: PodRuns): Map<string, ContainerRuns> {
  const containers = new Map<string, ContainerRuns>();
  for (const line of runs.split('\n').slice(1)) {
    const nameEnd = line.indexOf('\t');
    const restartsEnd = line.indexOf('\t', nameEnd + 1);
    containers.set(line.slice(0, nameEnd), {
      restarts: Number(line.slice(nameEnd + 1, restartsEnd)),
      ended: line.slice(restartsEnd + 1),
    });
  }
  return containers;
}

/**
 * The runs of `pod` that ended since `before` (the same pod's earlier status). A container first seen
 * now has nothing to compare with and is not a crash: recording starts after it, not at it. `now` is
 * podRunsOf(pod), when the caller has it.
 */
export function containerCrashes(before: PodRuns, pod: KubeObject, now = podRunsOf(pod)): ContainerCrash[] {
  if (now === before) return [];
  const crashes: ContainerCrash[] = [];
  const failedNow = !before.startsWith('failed') && now.startsWith('failed');
  const containers = containersOf(before);
  for (const status of statusesOf(pod)) {
    const earlier = containers.get(status.name);
    const last = status.lastState?.terminated;
    if (earlier && last && ((status.restartCount ?? 0) > earlier.restarts || runOf(last) !== earlier.ended)) {
      crashes.push(crashOf(status.name, last, true));
    } else if (failedNow && status.state?.terminated) {
      crashes.push(crashOf(status.name, status.state.terminated, false));
    }
  }
  return crashes;
}

function crashOf(container: string, terminated: TerminatedState, previous: boolean): ContainerCrash {
  return {
    container,
    containerId: terminated.containerID ?? '',
    previous,
    exitCode: terminated.exitCode,
    reason: terminated.reason ?? '',
    finishedAt: terminated.finishedAt,
  };
}
