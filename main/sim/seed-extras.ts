// The rest of a seeded cluster beyond Deployments: a StatefulSet per namespace (pods db-0, db-1, ...),
// a CronJob per namespace with its last, completed Job and that Job's Succeeded pod, and a
// node-exporter DaemonSet in kube-system with one pod per node. Built directly like seed.ts, with
// the names and ownership their controllers would have produced.
import type { KubeObject } from '../../shared/kube/object';
import { formatTime } from './clock';
import { setPodStage } from './pod-lifecycle';
import type { SeededRandom } from './random';
import { buildPod, controllerReference, podTemplate, seededMeta } from './workload-objects';

type Put = (resource: string, object: KubeObject) => void;

function runningPod(
  owner: KubeObject,
  name: string,
  nodeName: string,
  random: SeededRandom,
  now: number,
): KubeObject {
  const pod = buildPod(owner, name, seededMeta(random, now, {}), true);
  pod.spec = { ...(pod.spec as object), nodeName };
  setPodStage(pod, 'Running', now);
  return pod;
}

/** A StatefulSet of `replicas` ordinal pods; returns the pods created. */
export function seedStatefulSet(
  put: Put,
  namespace: string,
  replicas: number,
  nodeNames: string[],
  random: SeededRandom,
  now: number,
): number {
  const statefulSet: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: seededMeta(random, now, { name: 'db', namespace, labels: { app: 'db' }, generation: 1 }),
    spec: {
      replicas,
      serviceName: 'db',
      selector: { matchLabels: { app: 'db' } },
      template: podTemplate('db', random),
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
    },
    status: {
      replicas,
      readyReplicas: replicas,
      currentReplicas: replicas,
      updatedReplicas: replicas,
      availableReplicas: replicas,
      observedGeneration: 1,
    },
  };
  put('statefulsets.apps', statefulSet);
  for (let ordinal = 0; ordinal < replicas; ordinal++)
    put('pods', runningPod(statefulSet, `db-${ordinal}`, random.pick(nodeNames), random, now));
  return replicas;
}

/** A CronJob with one completed Job and its Succeeded pod; returns the pods created (1). */
export function seedCronJob(
  put: Put,
  namespace: string,
  nodeNames: string[],
  random: SeededRandom,
  now: number,
): number {
  const template = {
    metadata: { labels: { job: 'nightly-report' } },
    spec: {
      restartPolicy: 'Never',
      containers: [{ name: 'report', image: 'busybox:1.36', command: ['sh', '-c', 'echo report'] }],
    },
  };
  const lastRun = now - 3_600_000;
  const cronJob: KubeObject = {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: seededMeta(random, lastRun - 86_400_000, { name: 'nightly-report', namespace }),
    spec: {
      schedule: '0 2 * * *',
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
      jobTemplate: { spec: { template } },
    },
    status: { lastScheduleTime: formatTime(lastRun), lastSuccessfulTime: formatTime(lastRun + 60_000) },
  };
  put('cronjobs.batch', cronJob);
  const jobName = `nightly-report-${Math.floor(lastRun / 60_000)}`;
  const finished = formatTime(lastRun + 60_000);
  const job: KubeObject = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      ...seededMeta(random, lastRun, { name: jobName, namespace, labels: { job: 'nightly-report' } }),
      ownerReferences: [controllerReference(cronJob)],
    },
    spec: { completions: 1, parallelism: 1, backoffLimit: 6, template },
    status: {
      startTime: formatTime(lastRun),
      completionTime: finished,
      succeeded: 1,
      conditions: [
        {
          type: 'SuccessCriteriaMet',
          status: 'True',
          reason: 'CompletionsReached',
          lastProbeTime: finished,
          lastTransitionTime: finished,
        },
        {
          type: 'Complete',
          status: 'True',
          reason: 'CompletionsReached',
          lastProbeTime: finished,
          lastTransitionTime: finished,
        },
      ],
    },
  };
  put('jobs.batch', job);
  const pod = buildPod(job, `${jobName}-${random.suffix(5)}`, seededMeta(random, lastRun, {}));
  pod.spec = { ...(pod.spec as object), nodeName: random.pick(nodeNames) };
  setPodStage(pod, 'Succeeded', lastRun + 60_000);
  put('pods', pod);
  return 1;
}

/** A DaemonSet in kube-system with a Running pod on every node; returns the pods created. */
export function seedDaemonSet(put: Put, nodeNames: string[], random: SeededRandom, now: number): number {
  const count = nodeNames.length;
  const daemonSet: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: seededMeta(random, now, {
      name: 'node-exporter',
      namespace: 'kube-system',
      labels: { app: 'node-exporter' },
      generation: 1,
    }),
    spec: {
      selector: { matchLabels: { app: 'node-exporter' } },
      template: podTemplate('node-exporter', random),
      updateStrategy: { type: 'RollingUpdate' },
    },
    status: {
      desiredNumberScheduled: count,
      currentNumberScheduled: count,
      numberReady: count,
      numberAvailable: count,
      updatedNumberScheduled: count,
      numberMisscheduled: 0,
      observedGeneration: 1,
    },
  };
  put('daemonsets.apps', daemonSet);
  for (const nodeName of nodeNames)
    put('pods', runningPod(daemonSet, `node-exporter-${random.suffix(5)}`, nodeName, random, now));
  return count;
}
