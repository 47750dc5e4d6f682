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

/** What a later status is compared with: per container, its restarts and the last run that ended. */
export interface PodRuns {
  readonly failed: boolean;
  readonly containers: ReadonlyMap<string, { readonly restarts: number; readonly ended: string }>;
}

function statusesOf(pod: KubeObject): readonly ContainerStatus[] {
  const status = (pod as { status?: PodStatus }).status;
  return [...(status?.initContainerStatuses ?? []), ...(status?.containerStatuses ?? [])];
}

/** A run's identity: its container id, else when it finished (a kubelet may omit either). */
function runOf(terminated: TerminatedState | undefined): string {
  return terminated ? (terminated.containerID ?? '') + '@' + (terminated.finishedAt ?? '') : '';
}

export function podRunsOf(pod: KubeObject): PodRuns {
  const containers = new Map<string, { restarts: number; ended: string }>();
  for (const status of statusesOf(pod))
    containers.set(status.name, {
      restarts: status.restartCount ?? 0,
      ended: runOf(status.lastState?.terminated),
    });
  return { failed: (pod as { status?: PodStatus }).status?.phase === 'Failed', containers };
}

/**
 * The runs of `pod` that ended since `before` (the same pod's earlier status). A container first seen
 * now has nothing to compare with and is not a crash: recording starts after it, not at it.
 */
export function containerCrashes(before: PodRuns, pod: KubeObject): ContainerCrash[] {
  const crashes: ContainerCrash[] = [];
  const failedNow = !before.failed && (pod as { status?: PodStatus }).status?.phase === 'Failed';
  for (const status of statusesOf(pod)) {
    const earlier = before.containers.get(status.name);
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
