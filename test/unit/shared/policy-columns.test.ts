// The columns of the policy, scaling and discovery kinds as kubectl's printers compute them
// (k8s.io/kubernetes/pkg/printers/internalversion/printers.go): each expectation is what kubectl
// prints for the object, worked out from the printer's Go code.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/kube/object';
import { columnHeader, formatRow, printerFor } from '../../../shared/kinds/columns';
import { findKind } from '../../../shared/kinds/registry';

const now = Date.parse('2026-11-30T12:00:00Z');
const created = new Date(now - 3 * 24 * 3600_000).toISOString();

function printed(resource: string, object: Record<string, unknown>): Record<string, string> {
  const kind = findKind(resource);
  if (!kind) throw new Error(`unknown kind ${resource}`);
  const { columns, cells } = printerFor(kind);
  const full = {
    ...object,
    metadata: { name: 'x', creationTimestamp: created, ...(object.metadata as object) },
  };
  const texts = formatRow(columns, cells(full as KubeObject, now), now);
  return Object.fromEntries(columns.map((column, index) => [columnHeader(column), texts[index]!]));
}

describe('HorizontalPodAutoscaler (printHorizontalPodAutoscaler, formatHPAMetrics)', () => {
  const autoscaler = (metrics: unknown[], currentMetrics: unknown[] = [], extra = {}) => ({
    metadata: { name: 'web' },
    spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 10, metrics, ...extra },
    status: { currentReplicas: 3, currentMetrics },
  });
  const cpu = (target: object) => ({ type: 'Resource', resource: { name: 'cpu', target } });

  it('prints REFERENCE, MINPODS unset, and each metric kind', () => {
    expect(printed('hpa', autoscaler([]))).toEqual({
      NAME: 'web',
      REFERENCE: 'Deployment/web',
      TARGETS: '<none>',
      MINPODS: '<unset>',
      MAXPODS: '10',
      REPLICAS: '3',
      AGE: '3d',
    });
    expect(
      printed('hpa', autoscaler([cpu({ averageUtilization: 80 })], [], { minReplicas: 2 })),
    ).toMatchObject({
      TARGETS: 'cpu: <unknown>/80%',
      MINPODS: '2',
    });
    expect(
      printed(
        'hpa',
        autoscaler(
          [cpu({ averageUtilization: 80 })],
          [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 45 } } }],
        ),
      ).TARGETS,
    ).toBe('cpu: 45%/80%');
    expect(printed('hpa', autoscaler([cpu({})])).TARGETS).toBe('cpu: <unknown>/<auto>');
    expect(
      printed(
        'hpa',
        autoscaler(
          [{ type: 'Resource', resource: { name: 'memory', target: { averageValue: '512Mi' } } }],
          [{ type: 'Resource', resource: { name: 'memory', current: { averageValue: '300Mi' } } }],
        ),
      ).TARGETS,
    ).toBe('memory: 300Mi/512Mi');
    expect(
      printed(
        'hpa',
        autoscaler([{ type: 'Pods', pods: { metric: { name: 'rps' }, target: { averageValue: '100' } } }]),
      ).TARGETS,
    ).toBe('<unknown>/100');
    expect(
      printed(
        'hpa',
        autoscaler(
          [{ type: 'Object', object: { target: { value: '10k' } } }],
          [{ type: 'Object', object: { current: { value: '2500' } } }],
        ),
      ).TARGETS,
    ).toBe('2500/10k');
    expect(
      printed('hpa', autoscaler([{ type: 'External', external: { target: { averageValue: '30' } } }]))
        .TARGETS,
    ).toBe('<unknown>/30 (avg)');
    expect(
      printed(
        'hpa',
        autoscaler([
          {
            type: 'ContainerResource',
            containerResource: { name: 'cpu', container: 'app', target: { averageUtilization: 60 } },
          },
        ]),
      ).TARGETS,
    ).toBe('cpu: <unknown>/60%');
    expect(printed('hpa', autoscaler([{ type: 'Mystery' }])).TARGETS).toBe('<unknown type>');
  });

  it('pairs statuses with specs by position, and shows two metrics then "+ N more..."', () => {
    const metrics = [
      cpu({ averageUtilization: 80 }),
      cpu({ averageUtilization: 70 }),
      cpu({ averageUtilization: 60 }),
      cpu({ averageUtilization: 50 }),
    ];
    // Only the second spec has a status at its index.
    const statuses = [
      { type: 'Pods', pods: {} },
      { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 33 } } },
    ];
    expect(printed('hpa', autoscaler(metrics, statuses)).TARGETS).toBe(
      'cpu: <unknown>/80%, cpu: 33%/70% + 2 more...',
    );
  });
});

describe('PodDisruptionBudget, ResourceQuota, LimitRange, PriorityClass, RuntimeClass', () => {
  it('prints a budget as kubectl does', () => {
    expect(printed('pdb', { spec: { minAvailable: 2 }, status: { disruptionsAllowed: 1 } })).toEqual({
      NAME: 'x',
      'MIN AVAILABLE': '2',
      'MAX UNAVAILABLE': 'N/A',
      'ALLOWED DISRUPTIONS': '1',
      AGE: '3d',
    });
    expect(printed('pdb', { spec: { maxUnavailable: '25%' } })).toMatchObject({
      'MIN AVAILABLE': 'N/A',
      'MAX UNAVAILABLE': '25%',
      'ALLOWED DISRUPTIONS': '0',
    });
  });

  it('splits a quota into REQUEST and LIMIT, sorted, with "0" for what is not counted yet', () => {
    const quota = {
      status: {
        hard: {
          'limits.memory': '2Gi',
          pods: '10',
          'requests.cpu': '1',
          'limits.cpu': '2',
          'count/jobs.batch': '5',
        },
        used: { pods: '3', 'requests.cpu': '500m', 'limits.cpu': '1' },
      },
    };
    expect(printed('quota', quota)).toEqual({
      NAME: 'x',
      AGE: '3d',
      REQUEST: 'count/jobs.batch: 0/5, pods: 3/10, requests.cpu: 500m/1',
      LIMIT: 'limits.cpu: 1/2, limits.memory: 0/2Gi',
    });
    expect(printed('quota', {})).toMatchObject({ REQUEST: '', LIMIT: '' });
  });

  it('prints a LimitRange as the API server does for a kind without a printer: NAME, CREATED AT', () => {
    expect(printed('limits', {})).toEqual({ NAME: 'x', 'CREATED AT': created.replace('.000Z', 'Z') });
  });

  it('prints priority and runtime classes', () => {
    expect(printed('pc', { value: 1000, globalDefault: true, preemptionPolicy: 'Never' })).toEqual({
      NAME: 'x',
      VALUE: '1000',
      'GLOBAL-DEFAULT': 'true',
      AGE: '3d',
      PREEMPTIONPOLICY: 'Never',
    });
    expect(printed('runtimeclasses', { handler: 'runsc' })).toEqual({
      NAME: 'x',
      HANDLER: 'runsc',
      AGE: '3d',
    });
  });
});

describe('EndpointSlice, IngressClass, ControllerRevision', () => {
  it('lists three ports and addresses at most, then "+ N more...", "<unset>" for none', () => {
    const slice = {
      addressType: 'IPv4',
      ports: [{ port: 80 }, { name: 'https' }, {}, { port: 9090 }],
      endpoints: [
        { addresses: ['10.0.0.1', '10.0.0.2'] },
        { addresses: ['10.0.0.3'] },
        { addresses: ['10.0.0.4', '10.0.0.5'] },
      ],
    };
    expect(printed('endpointslices', slice)).toEqual({
      NAME: 'x',
      ADDRESSTYPE: 'IPv4',
      PORTS: '80,https,* + 1 more...',
      ENDPOINTS: '10.0.0.1,10.0.0.2,10.0.0.3 + 2 more...',
      AGE: '3d',
    });
    expect(printed('endpointslices', { addressType: 'IPv6' })).toMatchObject({
      PORTS: '<unset>',
      ENDPOINTS: '<unset>',
    });
  });

  it('names an IngressClass parameters as Kind.group/name', () => {
    expect(printed('ingressclasses', { spec: { controller: 'example.com/lb' } })).toMatchObject({
      CONTROLLER: 'example.com/lb',
      PARAMETERS: '<none>',
    });
    expect(
      printed('ingressclasses', {
        spec: {
          controller: 'c',
          parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'external' },
        },
      }).PARAMETERS,
    ).toBe('IngressParameters.k8s.example.com/external');
    expect(
      printed('ingressclasses', { spec: { parameters: { kind: 'ConfigMap', name: 'lb' } } }).PARAMETERS,
    ).toBe('ConfigMap/lb');
  });

  it("names a revision's controller by its lower-cased group kind", () => {
    const owner = (apiVersion: string, kind: string) => ({
      metadata: { ownerReferences: [{ apiVersion, kind, name: 'db', uid: 'u', controller: true }] },
      revision: 4,
    });
    expect(printed('controllerrevisions', owner('apps/v1', 'StatefulSet'))).toEqual({
      NAME: 'x',
      CONTROLLER: 'statefulset.apps/db',
      REVISION: '4',
      AGE: '3d',
    });
    expect(printed('controllerrevisions', owner('v1', 'Pod')).CONTROLLER).toBe('pod/db');
    expect(printed('controllerrevisions', { revision: 1 }).CONTROLLER).toBe('<none>');
  });
});
