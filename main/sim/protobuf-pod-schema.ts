// core/v1 PodTemplateSpec and what it holds, as far as workloads commonly set it: containers with
// ports, env (values and references), envFrom, resources, volume mounts, probes and security
// context; volumes of the everyday sources (emptyDir, configMap, secret, persistentVolumeClaim,
// hostPath); pod security context, tolerations, image pull secrets. See protobuf-schema.ts.
import type { FieldSchema } from './protobuf-schema';
import { field, inline, map, message, objectMeta, pointer, repeated } from './protobuf-schema';

/** LocalObjectReference, embedded inline in the configMap and secret references. */
const localObjectReference = field(
  'localObjectReference',
  message('core/v1 LocalObjectReference', {
    1: field('name', 'string'),
  }),
  inline,
);

const optional = field('optional', 'boolean', pointer);

const keyToPath = message('core/v1 KeyToPath', {
  1: field('key', 'string'),
  2: field('path', 'string'),
  3: field('mode', 'integer', pointer),
});

const volume = message('core/v1 Volume', {
  1: field('name', 'string'),
  2: field(
    'volumeSource',
    message('core/v1 VolumeSource', {
      1: field(
        'hostPath',
        message('core/v1 HostPathVolumeSource', {
          1: field('path', 'string'),
          2: field('type', 'string', pointer),
        }),
      ),
      2: field(
        'emptyDir',
        message('core/v1 EmptyDirVolumeSource', {
          1: field('medium', 'string'),
          2: field('sizeLimit', 'quantity', pointer),
        }),
      ),
      6: field(
        'secret',
        message('core/v1 SecretVolumeSource', {
          1: field('secretName', 'string'),
          2: field('items', keyToPath, repeated),
          3: field('defaultMode', 'integer', pointer),
          4: optional,
        }),
      ),
      10: field(
        'persistentVolumeClaim',
        message('core/v1 PersistentVolumeClaimVolumeSource', {
          1: field('claimName', 'string'),
          2: field('readOnly', 'boolean'),
        }),
      ),
      19: field(
        'configMap',
        message('core/v1 ConfigMapVolumeSource', {
          1: localObjectReference,
          2: field('items', keyToPath, repeated),
          3: field('defaultMode', 'integer', pointer),
          4: optional,
        }),
      ),
    }),
    inline,
  ),
});

const keySelector = (kind: string) =>
  message(`core/v1 ${kind}KeySelector`, { 1: localObjectReference, 2: field('key', 'string'), 3: optional });

const envVar = message('core/v1 EnvVar', {
  1: field('name', 'string'),
  2: field('value', 'string'),
  3: field(
    'valueFrom',
    message('core/v1 EnvVarSource', {
      1: field(
        'fieldRef',
        message('core/v1 ObjectFieldSelector', {
          1: field('apiVersion', 'string'),
          2: field('fieldPath', 'string'),
        }),
      ),
      2: field(
        'resourceFieldRef',
        message('core/v1 ResourceFieldSelector', {
          1: field('containerName', 'string'),
          2: field('resource', 'string'),
          3: field('divisor', 'quantity'),
        }),
      ),
      3: field('configMapKeyRef', keySelector('ConfigMap')),
      4: field('secretKeyRef', keySelector('Secret')),
    }),
  ),
});

const envFromSource = message('core/v1 EnvFromSource', {
  1: field('prefix', 'string'),
  2: field('configMapRef', message('core/v1 ConfigMapEnvSource', { 1: localObjectReference, 2: optional })),
  3: field('secretRef', message('core/v1 SecretEnvSource', { 1: localObjectReference, 2: optional })),
});

const probe = message('core/v1 Probe', {
  1: field(
    'handler',
    message('core/v1 ProbeHandler', {
      1: field('exec', message('core/v1 ExecAction', { 1: field('command', 'string', repeated) })),
      2: field(
        'httpGet',
        message('core/v1 HTTPGetAction', {
          1: field('path', 'string'),
          2: field('port', 'intOrString'),
          3: field('host', 'string'),
          4: field('scheme', 'string'),
          5: field(
            'httpHeaders',
            message('core/v1 HTTPHeader', {
              1: field('name', 'string'),
              2: field('value', 'string'),
            }),
            repeated,
          ),
        }),
      ),
      3: field(
        'tcpSocket',
        message('core/v1 TCPSocketAction', {
          1: field('port', 'intOrString'),
          2: field('host', 'string'),
        }),
      ),
      4: field(
        'grpc',
        message('core/v1 GRPCAction', {
          1: field('port', 'integer'),
          2: field('service', 'string', pointer),
        }),
      ),
    }),
    inline,
  ),
  2: field('initialDelaySeconds', 'integer'),
  3: field('timeoutSeconds', 'integer'),
  4: field('periodSeconds', 'integer'),
  5: field('successThreshold', 'integer'),
  6: field('failureThreshold', 'integer'),
  7: field('terminationGracePeriodSeconds', 'integer', pointer),
});

const securityContext = message('core/v1 SecurityContext', {
  1: field(
    'capabilities',
    message('core/v1 Capabilities', {
      1: field('add', 'string', repeated),
      2: field('drop', 'string', repeated),
    }),
  ),
  2: field('privileged', 'boolean', pointer),
  4: field('runAsUser', 'integer', pointer),
  5: field('runAsNonRoot', 'boolean', pointer),
  6: field('readOnlyRootFilesystem', 'boolean', pointer),
  7: field('allowPrivilegeEscalation', 'boolean', pointer),
  8: field('runAsGroup', 'integer', pointer),
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
  7: field('env', envVar, repeated),
  8: field(
    'resources',
    message('core/v1 ResourceRequirements', {
      1: field('limits', 'quantity', map),
      2: field('requests', 'quantity', map),
    }),
  ),
  9: field(
    'volumeMounts',
    message('core/v1 VolumeMount', {
      1: field('name', 'string'),
      2: field('readOnly', 'boolean'),
      3: field('mountPath', 'string'),
      4: field('subPath', 'string'),
      5: field('mountPropagation', 'string', pointer),
      6: field('subPathExpr', 'string'),
    }),
    repeated,
  ),
  10: field('livenessProbe', probe),
  11: field('readinessProbe', probe),
  13: field('terminationMessagePath', 'string'),
  14: field('imagePullPolicy', 'string'),
  15: field('securityContext', securityContext),
  16: field('stdin', 'boolean'),
  17: field('stdinOnce', 'boolean'),
  18: field('tty', 'boolean'),
  19: field('envFrom', envFromSource, repeated),
  20: field('terminationMessagePolicy', 'string'),
  22: field('startupProbe', probe),
});

const podSpecFields: Record<number, FieldSchema> = {
  1: field('volumes', volume, repeated),
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
  14: field(
    'securityContext',
    message('core/v1 PodSecurityContext', {
      2: field('runAsUser', 'integer', pointer),
      3: field('runAsNonRoot', 'boolean', pointer),
      5: field('fsGroup', 'integer', pointer),
      6: field('runAsGroup', 'integer', pointer),
    }),
  ),
  15: field(
    'imagePullSecrets',
    message('core/v1 LocalObjectReference', { 1: field('name', 'string') }),
    repeated,
  ),
  16: field('hostname', 'string'),
  17: field('subdomain', 'string'),
  19: field('schedulerName', 'string'),
  20: field('initContainers', container, repeated),
  21: field('automountServiceAccountToken', 'boolean', pointer),
  22: field(
    'tolerations',
    message('core/v1 Toleration', {
      1: field('key', 'string'),
      2: field('operator', 'string'),
      3: field('value', 'string'),
      4: field('effect', 'string'),
      5: field('tolerationSeconds', 'integer', pointer),
    }),
    repeated,
  ),
  24: field('priorityClassName', 'string'),
  30: field('enableServiceLinks', 'boolean', pointer),
};

export const podTemplateSpec = message('core/v1 PodTemplateSpec', {
  1: field('metadata', objectMeta),
  2: field('spec', message('core/v1 PodSpec', podSpecFields)),
});
