// Controller columns as kubectl's printers compute them (printDeployment, printReplicaSet,
// printStatefulSet, printDaemonSet, printJob, printCronJob). Counts stay numbers; "2/3" stays text,
// as the API server's Table types them.

import type { KubeObject } from '../../kube/object';
import type { CellValue, KindPrinter } from './column-definition';
import {
  ageColumn,
  containerCells,
  containersColumn,
  count,
  createdAt,
  field,
  formatLabelSelector,
  formatLabels,
  imagesColumn,
  integerColumn,
  list,
  nameColumn,
  selectorColumn,
  stringColumn,
  text,
  timestamp,
} from './column-definition';

/** spec.replicas; the API server defaults it to 1, so an omitted value means 1. */
function desiredReplicas(object: KubeObject): number {
  return count(field(object, 'spec')['replicas'], 1);
}

function template(object: KubeObject): unknown {
  return field(field(object, 'spec'), 'template');
}

export const deploymentPrinter: KindPrinter = {
  columns: [
    nameColumn,
    stringColumn('Ready'),
    integerColumn('Up-to-date'),
    integerColumn('Available'),
    ageColumn,
    containersColumn,
    imagesColumn,
    selectorColumn,
  ],
  cells(deployment): CellValue[] {
    const status = field(deployment, 'status');
    return [
      deployment.metadata.name ?? '',
      `${count(status['readyReplicas'])}/${desiredReplicas(deployment)}`,
      count(status['updatedReplicas']),
      count(status['availableReplicas']),
      createdAt(deployment),
      ...containerCells(template(deployment)),
      formatLabelSelector(field(deployment, 'spec')['selector']),
    ];
  },
};

export const replicaSetPrinter: KindPrinter = {
  columns: [
    nameColumn,
    integerColumn('Desired'),
    integerColumn('Current'),
    integerColumn('Ready'),
    ageColumn,
    containersColumn,
    imagesColumn,
    selectorColumn,
  ],
  cells(replicaSet): CellValue[] {
    const status = field(replicaSet, 'status');
    return [
      replicaSet.metadata.name ?? '',
      desiredReplicas(replicaSet),
      count(status['replicas']),
      count(status['readyReplicas']),
      createdAt(replicaSet),
      ...containerCells(template(replicaSet)),
      formatLabelSelector(field(replicaSet, 'spec')['selector']),
    ];
  },
};

export const statefulSetPrinter: KindPrinter = {
  columns: [nameColumn, stringColumn('Ready'), ageColumn, containersColumn, imagesColumn],
  cells(statefulSet): CellValue[] {
    return [
      statefulSet.metadata.name ?? '',
      `${count(field(statefulSet, 'status')['readyReplicas'])}/${desiredReplicas(statefulSet)}`,
      createdAt(statefulSet),
      ...containerCells(template(statefulSet)),
    ];
  },
};

export const daemonSetPrinter: KindPrinter = {
  columns: [
    nameColumn,
    integerColumn('Desired'),
    integerColumn('Current'),
    integerColumn('Ready'),
    integerColumn('Up-to-date'),
    integerColumn('Available'),
    stringColumn('Node Selector'),
    ageColumn,
    containersColumn,
    imagesColumn,
    selectorColumn,
  ],
  cells(daemonSet): CellValue[] {
    const status = field(daemonSet, 'status');
    return [
      daemonSet.metadata.name ?? '',
      count(status['desiredNumberScheduled']),
      count(status['currentNumberScheduled']),
      count(status['numberReady']),
      count(status['updatedNumberScheduled']),
      count(status['numberAvailable']),
      formatLabels(field(field(template(daemonSet), 'spec'), 'nodeSelector')),
      createdAt(daemonSet),
      ...containerCells(template(daemonSet)),
      formatLabelSelector(field(daemonSet, 'spec')['selector']),
    ];
  },
};

/** A condition of this type with status True, as hasJobCondition checks. */
function hasCondition(object: KubeObject, type: string): boolean {
  return list(field(object, 'status'), 'conditions').some(
    (condition) => condition['type'] === type && condition['status'] === 'True',
  );
}

/** printJob's STATUS: terminal conditions first, then deletion, then the transitional conditions. */
export function jobStatus(job: KubeObject): string {
  if (hasCondition(job, 'Complete')) return 'Complete';
  if (hasCondition(job, 'Failed')) return 'Failed';
  if (typeof job.metadata.deletionTimestamp === 'string') return 'Terminating';
  if (hasCondition(job, 'Suspended')) return 'Suspended';
  if (hasCondition(job, 'FailureTarget')) return 'FailureTarget';
  if (hasCondition(job, 'SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  return 'Running';
}

/** COMPLETIONS: succeeded/completions, or for work-queue jobs "n/1", with "of <parallelism>" above 1. */
function completions(job: KubeObject): string {
  const spec = field(job, 'spec');
  const succeeded = count(field(job, 'status')['succeeded']);
  if (typeof spec['completions'] === 'number') return `${succeeded}/${spec['completions']}`;
  const parallelism = count(spec['parallelism']);
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/** DURATION in ms: start to completion, or start to now while running; null before the job starts. */
function jobDuration(job: KubeObject, now: number): number | null {
  const status = field(job, 'status');
  const start = timestamp(status['startTime']);
  if (start === null) return null;
  return (timestamp(status['completionTime']) ?? now) - start;
}

export const jobPrinter: KindPrinter = {
  columns: [
    nameColumn,
    stringColumn('Status'),
    stringColumn('Completions'),
    { name: 'Duration', type: 'number', priority: 0, format: 'duration', missing: '' },
    ageColumn,
    containersColumn,
    imagesColumn,
    selectorColumn,
  ],
  cells(job, now): CellValue[] {
    return [
      job.metadata.name ?? '',
      jobStatus(job),
      completions(job),
      jobDuration(job, now),
      createdAt(job),
      ...containerCells(template(job)),
      formatLabelSelector(field(job, 'spec')['selector']),
    ];
  },
};

/** printBoolPtr: "<unset>" for an omitted boolean. */
function optionalBoolean(value: unknown): string {
  return typeof value === 'boolean' ? String(value) : '<unset>';
}

export const cronJobPrinter: KindPrinter = {
  columns: [
    nameColumn,
    stringColumn('Schedule'),
    stringColumn('Timezone'),
    stringColumn('Suspend'),
    integerColumn('Active'),
    { name: 'Last Schedule', type: 'date', priority: 0, format: 'age' },
    ageColumn,
    containersColumn,
    imagesColumn,
    selectorColumn,
  ],
  cells(cronJob): CellValue[] {
    const spec = field(cronJob, 'spec');
    const status = field(cronJob, 'status');
    const jobSpec = field(field(spec, 'jobTemplate'), 'spec');
    return [
      cronJob.metadata.name ?? '',
      text(spec['schedule']) ?? '',
      text(spec['timeZone']) ?? '<none>',
      optionalBoolean(spec['suspend']),
      list(status, 'active').length,
      timestamp(status['lastScheduleTime']),
      createdAt(cronJob),
      ...containerCells(field(jobSpec, 'template')),
      jobSpec['selector'] === undefined ? '<none>' : formatLabelSelector(jobSpec['selector']) || '<none>',
    ];
  },
};

/**
 * CONTROLLER of a ControllerRevision: its controlling owner as formatResourceName prints it, the
 * group kind lower-cased ("daemonset.apps/fluentd"); "<none>" without one.
 */
function revisionController(revision: KubeObject): string {
  const owner = revision.metadata.ownerReferences?.find((reference) => reference.controller === true);
  if (!owner) return '<none>';
  const slash = owner.apiVersion.indexOf('/');
  const group = slash === -1 ? '' : owner.apiVersion.slice(0, slash);
  const groupKind = group === '' ? owner.kind : `${owner.kind}.${group}`;
  return groupKind === '' ? owner.name : `${groupKind.toLowerCase()}/${owner.name}`;
}

export const controllerRevisionPrinter: KindPrinter = {
  columns: [nameColumn, stringColumn('Controller'), integerColumn('Revision'), ageColumn],
  cells(revision): CellValue[] {
    return [
      revision.metadata.name ?? '',
      revisionController(revision),
      count(revision['revision']),
      createdAt(revision),
    ];
  },
};
