// The colour a status word gets, as people read kubectl output: Running/Ready/Completed green or grey,
// Pending/ContainerCreating amber, CrashLoopBackOff/Error/Failed red. Pods use shared/kinds'
// podStatusCategory (every unexplained pod status is an error); other kinds' words are read here.
import { podStatusCategory } from '../../shared/kinds/columns/pod-status-category';

const podClasses = {
  ok: 'status-ok',
  pending: 'status-progressing',
  error: 'status-failed',
  done: 'status-done',
} as const;

/** The CSS class of a pod's STATUS column. */
export function podStatusClass(status: string): string {
  return podClasses[podStatusCategory(status)];
}
const ok = new Set([
  'Running',
  'Ready',
  'Active',
  'Bound',
  'Available',
  'Complete',
  'True',
  'Healthy',
  'Synced',
]);
const done = new Set(['Completed', 'Succeeded', 'Terminated']);
const progressing = new Set([
  'Pending',
  'ContainerCreating',
  'PodInitializing',
  'Terminating',
  'Running (not ready)',
  'NotReady',
  'Unknown',
  'Suspended',
  'SchedulingDisabled',
  'Released',
]);

/** The CSS class of a status word: status-ok, status-progressing, status-failed, status-done or status-unknown. */
export function statusClass(status: string): string {
  if (ok.has(status)) return 'status-ok';
  if (done.has(status)) return 'status-done';
  if (progressing.has(status) || (status.startsWith('Init:') && !/Err|BackOff|Crash/.test(status)))
    return 'status-progressing';
  if (
    /BackOff|Err|Fail|Crash|OOM|Evicted|Invalid|Lost|Unavailable|ExitCode|Signal|Terminated:|NotFound|Denied/i.test(
      status,
    )
  ) {
    return 'status-failed';
  }
  if (status.startsWith('Running')) return 'status-ok';
  return 'status-unknown';
}
