// The Job controller (one pod run to completion, then status Complete) and the TTL-after-finished
// controller (a finished Job with ttlSecondsAfterFinished is deleted, its pods with it).
import { formatTime } from './clock';
import type { ControllerContext, Json } from './controller-context';
import { owned, reconcilePods, specOf, splitKey } from './controller-context';
import { podStageOf } from './pod-lifecycle';

export function reconcileJob(context: ControllerContext, key: string): void {
  const [namespace, name] = splitKey(key);
  const job = context.storage.find(context.types.jobs, namespace, name)?.object;
  if (!job) return;
  const status = (job.status as Json | undefined) ?? {};
  const complete = typeof status.completionTime === 'string';
  const pods = owned(context, job, 'pods');
  if (!complete && pods.length === 0) {
    reconcilePods(context, job, context.types.jobs, () => ({
      create: [`${name}-${context.random.suffix(5)}`],
      remove: [],
    }));
    return;
  }
  const succeeded = pods.filter((pod) => podStageOf(pod) === 'Succeeded').length;
  const active = pods.filter((pod) => !['Succeeded', 'Failed'].includes(podStageOf(pod))).length;
  const time = formatTime(context.clock.now());
  const finished = !complete && succeeded >= Number(specOf(job).completions ?? 1);
  context.storage.mutate(context.types.jobs, namespace, name, (copy) => {
    const next: Json = {
      ...(copy.status as Json | undefined),
      startTime: status.startTime ?? time,
      active: active || undefined,
      succeeded: succeeded || undefined,
      ready: 0,
      terminating: 0,
    };
    if (!next.active) delete next.active;
    if (!next.succeeded) delete next.succeeded;
    if (finished) {
      next.completionTime = time;
      next.conditions = [
        {
          type: 'SuccessCriteriaMet',
          status: 'True',
          reason: 'CompletionsReached',
          message: 'Reached expected number of succeeded pods',
          lastProbeTime: time,
          lastTransitionTime: time,
        },
        {
          type: 'Complete',
          status: 'True',
          reason: 'CompletionsReached',
          message: 'Reached expected number of succeeded pods',
          lastProbeTime: time,
          lastTransitionTime: time,
        },
      ];
    }
    copy.status = next;
  });
  if (!finished) return;
  context.events.record(job, 'Normal', 'Completed', 'Job completed', 'job-controller');
  const ttlSeconds = specOf(job).ttlSecondsAfterFinished;
  if (typeof ttlSeconds !== 'number') return;
  // The TTL-after-finished controller: the job (and, through the garbage collector, its pods) goes.
  context.after(ttlSeconds * 1000, () => {
    if (context.storage.find(context.types.jobs, namespace, name))
      context.storage.delete(context.types.jobs, namespace, name);
  });
}
