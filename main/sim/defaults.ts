// Defaulting on create, the subset of the apiserver's SetDefaults_* that viewers and kubectl look at:
// a new Pod is Pending, a Deployment has replicas and a strategy, a Service gets a cluster IP.
import type { KubeObject } from '../../shared/kube/object';
import type { SeededRandom } from './random';

type Json = Record<string, unknown>;

function record(parent: Json, field: string): Json {
  const value = parent[field];
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Json;
  const created: Json = {};
  parent[field] = created;
  return created;
}

function defaultPodSpec(spec: Json): void {
  spec.restartPolicy ??= 'Always';
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  spec.terminationGracePeriodSeconds ??= 30;
  for (const container of (spec.containers as Json[] | undefined) ?? []) {
    container.imagePullPolicy ??= String(container.image ?? '').endsWith(':latest')
      ? 'Always'
      : 'IfNotPresent';
    container.terminationMessagePath ??= '/dev/termination-log';
    container.terminationMessagePolicy ??= 'File';
    container.resources ??= {};
  }
}

function defaultWorkload(object: KubeObject): void {
  const spec = record(object, 'spec');
  const template = record(spec, 'template');
  defaultPodSpec(record(template, 'spec'));
}

/** Applies creation defaults in place for the kinds the simulator knows. */
export function applyDefaults(kind: string, object: KubeObject, random: SeededRandom): void {
  switch (kind) {
    case 'Pod': {
      defaultPodSpec(record(object, 'spec'));
      const status = record(object, 'status');
      status.phase ??= 'Pending';
      status.qosClass ??= 'BestEffort';
      break;
    }
    case 'Deployment': {
      defaultWorkload(object);
      const spec = record(object, 'spec');
      spec.replicas ??= 1;
      spec.revisionHistoryLimit ??= 10;
      spec.progressDeadlineSeconds ??= 600;
      spec.strategy ??= { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } };
      break;
    }
    case 'ReplicaSet':
    case 'StatefulSet': {
      defaultWorkload(object);
      record(object, 'spec').replicas ??= 1;
      break;
    }
    case 'DaemonSet':
      defaultWorkload(object);
      break;
    case 'Job': {
      defaultWorkload(object);
      const spec = record(object, 'spec');
      spec.completions ??= 1;
      spec.parallelism ??= 1;
      spec.backoffLimit ??= 6;
      break;
    }
    case 'CronJob': {
      const spec = record(object, 'spec');
      spec.concurrencyPolicy ??= 'Allow';
      spec.suspend ??= false;
      break;
    }
    case 'Service': {
      const spec = record(object, 'spec');
      spec.type ??= 'ClusterIP';
      spec.sessionAffinity ??= 'None';
      if (spec.clusterIP === undefined && spec.type !== 'ExternalName') {
        spec.clusterIP = `10.96.${random.int(256)}.${1 + random.int(254)}`;
        spec.clusterIPs = [spec.clusterIP];
      }
      break;
    }
    case 'Namespace': {
      const status = record(object, 'status');
      status.phase ??= 'Active';
      break;
    }
    case 'Secret':
      object.type ??= 'Opaque';
      break;
  }
}

/** Kinds whose spec changes bump metadata.generation. */
export function hasGeneration(object: KubeObject): boolean {
  return object.spec !== undefined;
}
