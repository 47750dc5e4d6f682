// The colour family of a pod's STATUS text, for badges and row tints.

export type PodStatusCategory = 'ok' | 'pending' | 'error' | 'done';

/** Statuses of pods on their way to running (or away from it) without anything having failed. */
const pendingStatuses = new Set([
  'Pending',
  'ContainerCreating',
  'PodInitializing',
  'Terminating',
  'SchedulingGated',
  'NotReady',
]);

/**
 * Running is 'ok'; Completed and Succeeded are 'done'; Pending, ContainerCreating, Terminating,
 * SchedulingGated, NotReady and init progress such as "Init:1/3" are 'pending'. Every other status is a
 * reason something went wrong (CrashLoopBackOff, ImagePullBackOff, Error, OOMKilled, ExitCode:1,
 * Evicted, Unknown, NodeLost, Init:Error...), so it is 'error'.
 */
export function podStatusCategory(status: string): PodStatusCategory {
  if (status === 'Running') return 'ok';
  if (status === 'Completed' || status === 'Succeeded') return 'done';
  if (pendingStatuses.has(status)) return 'pending';
  if (status.startsWith('Init:')) {
    const initStatus = status.slice('Init:'.length);
    if (/^\d+\/\d+$/.test(initStatus) || pendingStatuses.has(initStatus)) return 'pending';
  }
  return 'error';
}
