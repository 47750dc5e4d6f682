// The top-level kinds whose protobuf bodies the embedded cluster decodes, by `apiVersion/kind` as
// the runtime.Unknown envelope names them (see protobuf-schema.ts for how the tables read).
import type { MessageSchema } from './protobuf-schema';
import { field, labelSelector, map, message, objectMeta, pointer, repeated } from './protobuf-schema';
import { selfSubjectAccessReview, selfSubjectReview, selfSubjectRulesReview } from './protobuf-review-schema';
import { podTemplateSpec } from './protobuf-pod-schema';

const servicePort = message('core/v1 ServicePort', {
  1: field('name', 'string'),
  2: field('protocol', 'string'),
  3: field('port', 'integer'),
  4: field('targetPort', 'intOrString'),
  5: field('nodePort', 'integer'),
  6: field('appProtocol', 'string', pointer),
});

const serviceSpec = message('core/v1 ServiceSpec', {
  1: field('ports', servicePort, repeated),
  2: field('selector', 'string', map),
  3: field('clusterIP', 'string'),
  4: field('type', 'string'),
  5: field('externalIPs', 'string', repeated),
  7: field('sessionAffinity', 'string'),
  8: field('loadBalancerIP', 'string'),
  10: field('externalName', 'string'),
  11: field('externalTrafficPolicy', 'string'),
  12: field('healthCheckNodePort', 'integer'),
  13: field('publishNotReadyAddresses', 'boolean'),
  17: field('ipFamilyPolicy', 'string', pointer),
  18: field('clusterIPs', 'string', repeated),
  19: field('ipFamilies', 'string', repeated),
  20: field('allocateLoadBalancerNodePorts', 'boolean', pointer),
  21: field('loadBalancerClass', 'string', pointer),
  22: field('internalTrafficPolicy', 'string', pointer),
});

const jobSpec = message('batch/v1 JobSpec', {
  1: field('parallelism', 'integer', pointer),
  2: field('completions', 'integer', pointer),
  3: field('activeDeadlineSeconds', 'integer', pointer),
  4: field('selector', labelSelector),
  5: field('manualSelector', 'boolean', pointer),
  6: field('template', podTemplateSpec),
  7: field('backoffLimit', 'integer', pointer),
  8: field('ttlSecondsAfterFinished', 'integer', pointer),
  9: field('completionMode', 'string', pointer),
  10: field('suspend', 'boolean', pointer),
});

const intOrStringPair = {
  1: field('maxUnavailable', 'intOrString'),
  2: field('maxSurge', 'intOrString'),
};

/** The top-level kinds, by `apiVersion/kind` as the runtime.Unknown envelope names them. */
export const topLevelMessages: ReadonlyMap<string, MessageSchema> = new Map([
  [
    'v1/ConfigMap',
    message('core/v1 ConfigMap', {
      1: field('metadata', objectMeta),
      2: field('data', 'string', map),
      3: field('binaryData', 'bytes', map),
      4: field('immutable', 'boolean', pointer),
    }),
  ],
  [
    'v1/Secret',
    message('core/v1 Secret', {
      1: field('metadata', objectMeta),
      2: field('data', 'bytes', map),
      3: field('type', 'string'),
      4: field('stringData', 'string', map),
      5: field('immutable', 'boolean', pointer),
    }),
  ],
  [
    'v1/Namespace',
    message('core/v1 Namespace', {
      1: field('metadata', objectMeta),
      2: field('spec', message('core/v1 NamespaceSpec', { 1: field('finalizers', 'string', repeated) })),
      3: field('status', message('core/v1 NamespaceStatus', { 1: field('phase', 'string') })),
    }),
  ],
  [
    'v1/Service',
    message('core/v1 Service', {
      1: field('metadata', objectMeta),
      2: field('spec', serviceSpec),
      3: field(
        'status',
        message('core/v1 ServiceStatus', {
          1: field('loadBalancer', message('core/v1 LoadBalancerStatus', {})),
        }),
      ),
    }),
  ],
  [
    'apps/v1/Deployment',
    message('apps/v1 Deployment', {
      1: field('metadata', objectMeta),
      2: field(
        'spec',
        message('apps/v1 DeploymentSpec', {
          1: field('replicas', 'integer', pointer),
          2: field('selector', labelSelector),
          3: field('template', podTemplateSpec),
          4: field(
            'strategy',
            message('apps/v1 DeploymentStrategy', {
              1: field('type', 'string'),
              2: field('rollingUpdate', message('apps/v1 RollingUpdateDeployment', intOrStringPair)),
            }),
          ),
          5: field('minReadySeconds', 'integer'),
          6: field('revisionHistoryLimit', 'integer', pointer),
          7: field('paused', 'boolean'),
          9: field('progressDeadlineSeconds', 'integer', pointer),
        }),
      ),
      3: field('status', message('apps/v1 DeploymentStatus', {})),
    }),
  ],
  [
    'batch/v1/Job',
    message('batch/v1 Job', {
      1: field('metadata', objectMeta),
      2: field('spec', jobSpec),
      3: field('status', message('batch/v1 JobStatus', {})),
    }),
  ],
  [
    'batch/v1/CronJob',
    message('batch/v1 CronJob', {
      1: field('metadata', objectMeta),
      2: field(
        'spec',
        message('batch/v1 CronJobSpec', {
          1: field('schedule', 'string'),
          2: field('startingDeadlineSeconds', 'integer', pointer),
          3: field('concurrencyPolicy', 'string'),
          4: field('suspend', 'boolean', pointer),
          5: field(
            'jobTemplate',
            message('batch/v1 JobTemplateSpec', {
              1: field('metadata', objectMeta),
              2: field('spec', jobSpec),
            }),
          ),
          6: field('successfulJobsHistoryLimit', 'integer', pointer),
          7: field('failedJobsHistoryLimit', 'integer', pointer),
          8: field('timeZone', 'string', pointer),
        }),
      ),
      3: field('status', message('batch/v1 CronJobStatus', {})),
    }),
  ],
  ['authorization.k8s.io/v1/SelfSubjectAccessReview', selfSubjectAccessReview],
  ['authorization.k8s.io/v1/SelfSubjectRulesReview', selfSubjectRulesReview],
  ['authentication.k8s.io/v1/SelfSubjectReview', selfSubjectReview],
]);

const deleteOptions = message('meta/v1 DeleteOptions', {
  1: field('gracePeriodSeconds', 'integer', pointer),
  2: field(
    'preconditions',
    message('meta/v1 Preconditions', {
      1: field('uid', 'string', pointer),
      2: field('resourceVersion', 'string', pointer),
    }),
  ),
  3: field('orphanDependents', 'boolean', pointer),
  4: field('propagationPolicy', 'string', pointer),
  5: field('dryRun', 'string', repeated),
  6: field('ignoreStoreReadErrorWithClusterBreakingPotential', 'boolean', pointer),
});

/** DeleteOptions, which a client may send as any group's version of it (the core group's, meta's). */
export const deleteOptionsMessages: ReadonlyMap<string, MessageSchema> = new Map([
  ['v1/DeleteOptions', deleteOptions],
  ['meta.k8s.io/v1/DeleteOptions', deleteOptions],
]);
