// Field numbers of the Kubernetes protobuf messages kubectl's typed clients send to this cluster:
// what `kubectl create configmap|secret|namespace|service|deployment|job|cronjob` build (and what
// those objects may carry). Numbers and JSON names are k8s.io/api's and apimachinery's generated.proto.
//
// Deliberately partial: a field missing here decodes only while it holds its zero value (Go's
// generated marshalers write every non-pointer field, set or not); a set one is refused by the
// decoder, never dropped in silence. Add a message or field here when a client needs it.

/** Scalars plus the apimachinery wrapper messages that have their own JSON form. */
export type ScalarType = 'string' | 'integer' | 'boolean' | 'bytes' | 'time' | 'intOrString' | 'quantity';

export interface FieldSchema {
  /** The JSON field name. */
  name: string;
  type: ScalarType | MessageSchema;
  repeated?: true;
  /** map<string, type>: the wire carries entry messages {1: key, 2: value}. */
  map?: true;
  /**
   * A Go pointer (`*int32`, `*bool`, ...): marshalled only when set, so a zero on the wire was meant
   * (replicas: 0). Non-pointer zeros are dropped, as `omitempty` drops them from JSON.
   */
  pointer?: true;
}

export interface MessageSchema {
  /** Qualified like `core/v1 PodSpec`, for error messages. */
  name: string;
  fields: Record<number, FieldSchema>;
}

type Options = Pick<FieldSchema, 'repeated' | 'map' | 'pointer'>;
const field = (name: string, type: FieldSchema['type'], options: Options = {}): FieldSchema => ({
  name,
  type,
  ...options,
});
const pointer = { pointer: true } as const;
const repeated = { repeated: true } as const;
const map = { map: true } as const;
const message = (name: string, fields: Record<number, FieldSchema>): MessageSchema => ({ name, fields });

const ownerReference = message('meta/v1 OwnerReference', {
  5: field('apiVersion', 'string'),
  1: field('kind', 'string'),
  3: field('name', 'string'),
  4: field('uid', 'string'),
  6: field('controller', 'boolean', pointer),
  7: field('blockOwnerDeletion', 'boolean', pointer),
});

const objectMeta = message('meta/v1 ObjectMeta', {
  1: field('name', 'string'),
  2: field('generateName', 'string'),
  3: field('namespace', 'string'),
  4: field('selfLink', 'string'),
  5: field('uid', 'string'),
  6: field('resourceVersion', 'string'),
  7: field('generation', 'integer'),
  8: field('creationTimestamp', 'time'),
  9: field('deletionTimestamp', 'time'),
  10: field('deletionGracePeriodSeconds', 'integer', pointer),
  11: field('labels', 'string', map),
  12: field('annotations', 'string', map),
  13: field('ownerReferences', ownerReference, repeated),
  14: field('finalizers', 'string', repeated),
});

const labelSelector = message('meta/v1 LabelSelector', {
  1: field('matchLabels', 'string', map),
  2: field(
    'matchExpressions',
    message('meta/v1 LabelSelectorRequirement', {
      1: field('key', 'string'),
      2: field('operator', 'string'),
      3: field('values', 'string', repeated),
    }),
    repeated,
  ),
});

const container = message('core/v1 Container', {
  1: field('name', 'string'),
  2: field('image', 'string'),
  3: field('command', 'string', repeated),
  4: field('args', 'string', repeated),
  5: field('workingDir', 'string'),
  6: field(
    'ports',
    message('core/v1 ContainerPort', {
      1: field('name', 'string'),
      2: field('hostPort', 'integer'),
      3: field('containerPort', 'integer'),
      4: field('protocol', 'string'),
      5: field('hostIP', 'string'),
    }),
    repeated,
  ),
  7: field(
    'env',
    message('core/v1 EnvVar', { 1: field('name', 'string'), 2: field('value', 'string') }),
    repeated,
  ),
  8: field(
    'resources',
    message('core/v1 ResourceRequirements', {
      1: field('limits', 'quantity', map),
      2: field('requests', 'quantity', map),
    }),
  ),
  13: field('terminationMessagePath', 'string'),
  14: field('imagePullPolicy', 'string'),
  16: field('stdin', 'boolean'),
  17: field('stdinOnce', 'boolean'),
  18: field('tty', 'boolean'),
  20: field('terminationMessagePolicy', 'string'),
});

const podTemplateSpec = message('core/v1 PodTemplateSpec', {
  1: field('metadata', objectMeta),
  2: field(
    'spec',
    message('core/v1 PodSpec', {
      2: field('containers', container, repeated),
      3: field('restartPolicy', 'string'),
      4: field('terminationGracePeriodSeconds', 'integer', pointer),
      5: field('activeDeadlineSeconds', 'integer', pointer),
      6: field('dnsPolicy', 'string'),
      7: field('nodeSelector', 'string', map),
      8: field('serviceAccountName', 'string'),
      9: field('serviceAccount', 'string'),
      10: field('nodeName', 'string'),
      11: field('hostNetwork', 'boolean'),
      16: field('hostname', 'string'),
      17: field('subdomain', 'string'),
      19: field('schedulerName', 'string'),
      20: field('initContainers', container, repeated),
      21: field('automountServiceAccountToken', 'boolean', pointer),
      24: field('priorityClassName', 'string'),
      30: field('enableServiceLinks', 'boolean', pointer),
    }),
  ),
});

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
]);
