import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/kube/object';
import {
  columnHeader,
  formatCell,
  formatRow,
  humanDuration,
  podStatusCategory,
  printerFor,
  summarizePod,
  tableColumnsAndRows,
  visibleColumns,
} from '../../../shared/kinds/columns';
import type { KindPrinter } from '../../../shared/kinds/columns';
import { findKind } from '../../../shared/kinds/registry';

const now = Date.parse('2026-11-30T12:00:00Z');
const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;
const day = 24 * hour;
const ago = (milliseconds: number): string => new Date(now - milliseconds).toISOString();

function printer(resource: string): KindPrinter {
  const kind = findKind(resource);
  if (kind === undefined) throw new Error(`unknown kind ${resource}`);
  return printerFor(kind);
}

/** The row kubectl prints with -o wide, as "HEADER=text" pairs, for readable expectations. */
function printed(resource: string, object: KubeObject): Record<string, string> {
  const { columns } = printer(resource);
  const texts = formatRow(columns, printer(resource).cells(object, now), now);
  return Object.fromEntries(
    columns.flatMap((column, index) => (column.hidden ? [] : [[columnHeader(column), texts[index]!]])),
  );
}

function pod(spec: Record<string, unknown>, status: Record<string, unknown>, metadata = {}): KubeObject {
  return {
    metadata: { name: 'web-1', namespace: 'shop', creationTimestamp: ago(3 * day), ...metadata },
    spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
    status,
  };
}

const running = { running: { startedAt: ago(hour) } };
const readyContainer = (name = 'app') => ({ name, ready: true, restartCount: 0, state: running });

describe('humanDuration', () => {
  const cases: [number, string][] = [
    [-3 * second, '<invalid>'],
    [-1500, '0s'],
    [0, '0s'],
    [45 * second, '45s'],
    [119 * second, '119s'],
    [5 * minute, '5m'],
    [5 * minute + 2 * second, '5m2s'],
    [42 * minute, '42m'],
    [5 * hour + 2 * minute, '5h2m'],
    [7 * hour, '7h'],
    [30 * hour, '30h'],
    [3 * day, '3d'],
    [3 * day + 4 * hour, '3d4h'],
    [40 * day, '40d'],
    [(2 * 365 + 30) * day, '2y30d'],
    [9 * 365 * day, '9y'],
  ];
  for (const [milliseconds, text] of cases) {
    it(`prints ${milliseconds}ms as ${text}`, () => expect(humanDuration(milliseconds)).toBe(text));
  }
});

describe('pod STATUS, READY and RESTARTS', () => {
  it('shows Running with ready/total containers', () => {
    const summary = summarizePod(
      pod(
        { containers: [{ name: 'app' }, { name: 'proxy' }] },
        {
          phase: 'Running',
          containerStatuses: [readyContainer('app'), { name: 'proxy', ready: false, state: running }],
        },
      ),
    );
    expect(summary).toMatchObject({ status: 'Running', readyContainers: 1, totalContainers: 2, restarts: 0 });
  });

  it('shows Pending for an unscheduled pod', () => {
    expect(summarizePod(pod({}, { phase: 'Pending' })).status).toBe('Pending');
  });

  it("shows a waiting container's reason: ContainerCreating, CrashLoopBackOff, ImagePullBackOff", () => {
    for (const reason of ['ContainerCreating', 'CrashLoopBackOff', 'ImagePullBackOff']) {
      const status = {
        phase: 'Pending',
        containerStatuses: [{ name: 'app', state: { waiting: { reason } } }],
      };
      expect(summarizePod(pod({}, status)).status).toBe(reason);
    }
  });

  it('counts restarts and says when the last one was', () => {
    const restarted = pod(
      {},
      {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'app',
            restartCount: 5,
            state: { waiting: { reason: 'CrashLoopBackOff' } },
            lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: ago(5 * minute) } },
          },
        ],
      },
    );
    expect(printed('pods', restarted)).toMatchObject({
      STATUS: 'CrashLoopBackOff',
      RESTARTS: '5 (5m ago)',
      READY: '0/1',
    });
  });

  it('shows a terminated reason, or the exit code or signal when there is none', () => {
    const terminated = (state: Record<string, unknown>) =>
      summarizePod(
        pod({}, { phase: 'Running', containerStatuses: [{ name: 'app', state: { terminated: state } }] }),
      ).status;
    expect(terminated({ exitCode: 137, reason: 'OOMKilled' })).toBe('OOMKilled');
    expect(terminated({ exitCode: 2 })).toBe('ExitCode:2');
    expect(terminated({ exitCode: 0, signal: 9 })).toBe('Signal:9');
  });

  it('shows Init:n/m while init containers run', () => {
    const initializing = pod(
      { initContainers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] },
      {
        phase: 'Pending',
        initContainerStatuses: [
          { name: 'a', state: { terminated: { exitCode: 0, reason: 'Completed' } } },
          { name: 'b', state: running },
          { name: 'c', state: { waiting: { reason: 'PodInitializing' } } },
        ],
        containerStatuses: [{ name: 'app', state: { waiting: { reason: 'PodInitializing' } } }],
      },
    );
    expect(summarizePod(initializing).status).toBe('Init:1/3');
  });

  it("shows a failing init container's reason as Init:<reason>", () => {
    const initStatus = (state: Record<string, unknown>) =>
      summarizePod(
        pod(
          { initContainers: [{ name: 'migrate' }] },
          { phase: 'Pending', initContainerStatuses: [{ name: 'migrate', restartCount: 3, state }] },
        ),
      ).status;
    expect(initStatus({ waiting: { reason: 'CrashLoopBackOff' } })).toBe('Init:CrashLoopBackOff');
    expect(initStatus({ terminated: { exitCode: 1, reason: 'Error' } })).toBe('Init:Error');
    expect(initStatus({ terminated: { exitCode: 3 } })).toBe('Init:ExitCode:3');
    expect(initStatus({ terminated: { exitCode: 1, signal: 15 } })).toBe('Init:Signal:15');
  });

  it('counts a started sidecar init container as a container and lets the pod run', () => {
    const summary = summarizePod(
      pod(
        { initContainers: [{ name: 'mesh', restartPolicy: 'Always' }] },
        {
          phase: 'Running',
          conditions: [{ type: 'Initialized', status: 'True' }],
          initContainerStatuses: [
            { name: 'mesh', started: true, ready: true, restartCount: 2, state: running },
          ],
          containerStatuses: [readyContainer()],
        },
      ),
    );
    expect(summary).toMatchObject({ status: 'Running', readyContainers: 2, totalContainers: 2, restarts: 2 });
  });

  it('shows Completed for a succeeded pod, even while being deleted', () => {
    const completed = { terminated: { exitCode: 0, reason: 'Completed' } };
    const status = { phase: 'Succeeded', containerStatuses: [{ name: 'app', state: completed }] };
    expect(summarizePod(pod({}, status)).status).toBe('Completed');
    expect(summarizePod(pod({}, status, { deletionTimestamp: ago(0) })).status).toBe('Completed');
  });

  it('shows Running or NotReady, not Completed, while another container still runs', () => {
    const containers = [
      readyContainer('app'),
      { name: 'job', state: { terminated: { exitCode: 0, reason: 'Completed' } } },
    ];
    const spec = { containers: [{ name: 'app' }, { name: 'job' }] };
    expect(summarizePod(pod(spec, { phase: 'Running', containerStatuses: containers })).status).toBe(
      'NotReady',
    );
    const ready = {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: containers,
    };
    expect(summarizePod(pod(spec, ready)).status).toBe('Running');
  });

  it('shows Terminating for a running pod with a deletionTimestamp', () => {
    const status = { phase: 'Running', containerStatuses: [readyContainer()] };
    expect(summarizePod(pod({}, status, { deletionTimestamp: ago(0) })).status).toBe('Terminating');
  });

  it('shows NodeLost, and Unknown once such a pod is being deleted', () => {
    const status = { phase: 'Running', reason: 'NodeLost', containerStatuses: [] };
    expect(summarizePod(pod({}, status)).status).toBe('NodeLost');
    expect(summarizePod(pod({}, status, { deletionTimestamp: ago(0) })).status).toBe('Unknown');
  });

  it('shows the pod reason (Evicted) and SchedulingGated', () => {
    expect(summarizePod(pod({}, { phase: 'Failed', reason: 'Evicted' })).status).toBe('Evicted');
    const gated = {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }],
    };
    expect(summarizePod(pod({}, gated)).status).toBe('SchedulingGated');
  });
});

describe('pod columns', () => {
  it('prints every kubectl column from a realistic pod, wide ones included', () => {
    const object = pod(
      { nodeName: 'node-a', readinessGates: [{ conditionType: 'example.com/lb' }] },
      {
        phase: 'Running',
        podIPs: [{ ip: '10.0.0.5' }],
        conditions: [{ type: 'example.com/lb', status: 'True' }],
        containerStatuses: [readyContainer()],
      },
    );
    expect(printed('pods', object)).toEqual({
      NAME: 'web-1',
      READY: '1/1',
      STATUS: 'Running',
      RESTARTS: '0',
      AGE: '3d',
      IP: '10.0.0.5',
      NODE: 'node-a',
      'NOMINATED NODE': '<none>',
      'READINESS GATES': '1/1',
    });
    expect(visibleColumns(printer('pods').columns, false).map(columnHeader)).toEqual([
      'NAME',
      'READY',
      'STATUS',
      'RESTARTS',
      'AGE',
    ]);
  });

  it('keeps cells raw: counts as numbers, ages as epoch ms', () => {
    const cells = printer('pods').cells(
      pod({}, { phase: 'Running', containerStatuses: [readyContainer()] }),
      now,
    );
    expect(cells[3]).toBe(0);
    expect(cells[4]).toBe(now - 3 * day);
  });

  it("sums the containers' requests and limits, once for pods that share their containers", () => {
    let reads = 0;
    const container = (name: string, resources: Record<string, unknown>) => ({
      name,
      get resources() {
        reads++;
        return resources;
      },
    });
    // A ReplicaSet's pods as the informers' caches hold them: one containers array (sibling-sharing).
    const containers = [
      container('app', { requests: { cpu: '250m', memory: '128Mi' }, limits: { cpu: '1', memory: '1Gi' } }),
      container('sidecar', { requests: { cpu: '50m', memory: '64Mi' } }),
    ];
    const status = {
      phase: 'Running',
      containerStatuses: [readyContainer('app'), readyContainer('sidecar')],
    };
    const totals = (object: KubeObject) => printer('pods').cells(object, now).slice(10, 14);
    // CPU requests, CPU limits, memory requests, memory limits: a container without a limit leaves
    // the pod's unbounded (null).
    const expected = [0.3, null, 192 * 2 ** 20, null];
    expect(totals(pod({ containers }, status))).toEqual(expected);
    const afterFirst = reads;
    expect(totals(pod({ containers }, status, { name: 'web-2' }))).toEqual(expected);
    expect(reads).toBe(afterFirst);
    expect(totals(pod({ containers: [...containers] }, status, { name: 'web-3' }))).toEqual(expected);
    expect(reads).toBeGreaterThan(afterFirst);
  });
});

describe('podStatusCategory', () => {
  it('colours statuses by what they mean', () => {
    expect(podStatusCategory('Running')).toBe('ok');
    for (const status of ['Completed', 'Succeeded']) expect(podStatusCategory(status)).toBe('done');
    for (const status of [
      'Pending',
      'ContainerCreating',
      'Terminating',
      'Init:1/3',
      'Init:PodInitializing',
      'NotReady',
    ]) {
      expect(podStatusCategory(status)).toBe('pending');
    }
    for (const status of [
      'CrashLoopBackOff',
      'Init:CrashLoopBackOff',
      'Error',
      'ExitCode:1',
      'Evicted',
      'Unknown',
      'NodeLost',
    ]) {
      expect(podStatusCategory(status)).toBe('error');
    }
  });
});

const template = {
  metadata: { labels: { app: 'web' } },
  spec: {
    containers: [
      { name: 'web', image: 'nginx:1.27' },
      { name: 'proxy', image: 'envoy:1.31' },
    ],
  },
};
const created = { creationTimestamp: ago(5 * hour + 2 * minute) };

describe('workload columns', () => {
  it('prints a deployment', () => {
    const deployment: KubeObject = {
      metadata: { name: 'web', ...created },
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template },
      status: { replicas: 3, updatedReplicas: 3, readyReplicas: 2, availableReplicas: 2 },
    };
    expect(printed('deployments', deployment)).toEqual({
      NAME: 'web',
      READY: '2/3',
      'UP-TO-DATE': '3',
      AVAILABLE: '2',
      AGE: '5h2m',
      CONTAINERS: 'web,proxy',
      IMAGES: 'nginx:1.27,envoy:1.31',
      SELECTOR: 'app=web',
    });
  });

  it('prints a replica set, a stateful set and a daemon set', () => {
    const selector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'Exists' }] };
    expect(
      printed('rs', {
        metadata: { name: 'web-5d8f', ...created },
        spec: { replicas: 3, selector, template },
        status: { replicas: 3, readyReplicas: 1 },
      }),
    ).toMatchObject({ DESIRED: '3', CURRENT: '3', READY: '1', SELECTOR: 'app=web,tier' });
    expect(
      printed('sts', {
        metadata: { name: 'db', ...created },
        spec: { replicas: 2, template },
        status: { readyReplicas: 2 },
      }),
    ).toEqual({
      NAME: 'db',
      READY: '2/2',
      AGE: '5h2m',
      CONTAINERS: 'web,proxy',
      IMAGES: 'nginx:1.27,envoy:1.31',
    });
    const daemonSet: KubeObject = {
      metadata: { name: 'agent', ...created },
      spec: {
        selector,
        template: { ...template, spec: { ...template.spec, nodeSelector: { 'kubernetes.io/os': 'linux' } } },
      },
      status: {
        desiredNumberScheduled: 5,
        currentNumberScheduled: 5,
        numberReady: 4,
        updatedNumberScheduled: 5,
        numberAvailable: 4,
      },
    };
    expect(printed('ds', daemonSet)).toMatchObject({
      DESIRED: '5',
      CURRENT: '5',
      READY: '4',
      'UP-TO-DATE': '5',
      AVAILABLE: '4',
      'NODE SELECTOR': 'kubernetes.io/os=linux',
    });
  });

  it('prints a running job with its duration so far, and a finished one with its run time', () => {
    const job = (
      status: Record<string, unknown>,
      spec: Record<string, unknown> = { completions: 3 },
    ): KubeObject => ({
      metadata: { name: 'backup', ...created },
      spec: { ...spec, template },
      status,
    });
    expect(printed('jobs', job({ startTime: ago(90 * second), succeeded: 1, active: 1 }))).toMatchObject({
      STATUS: 'Running',
      COMPLETIONS: '1/3',
      DURATION: '90s',
    });
    const complete = job({
      startTime: ago(hour),
      completionTime: ago(hour - 42 * minute),
      succeeded: 3,
      conditions: [{ type: 'Complete', status: 'True' }],
    });
    expect(printed('jobs', complete)).toMatchObject({
      STATUS: 'Complete',
      COMPLETIONS: '3/3',
      DURATION: '42m',
    });
    expect(
      printed('jobs', job({ conditions: [{ type: 'Failed', status: 'True' }] }, { parallelism: 4 })),
    ).toMatchObject({
      STATUS: 'Failed',
      COMPLETIONS: '0/1 of 4',
      DURATION: '',
    });
    expect(printed('jobs', job({ conditions: [{ type: 'Suspended', status: 'True' }] }))).toMatchObject({
      STATUS: 'Suspended',
    });
  });

  it('prints a cron job', () => {
    const cronJob: KubeObject = {
      metadata: { name: 'nightly', ...created },
      spec: { schedule: '0 3 * * *', suspend: false, jobTemplate: { spec: { template } } },
      status: { active: [{ name: 'nightly-1' }], lastScheduleTime: ago(9 * hour) },
    };
    expect(printed('cj', cronJob)).toEqual({
      NAME: 'nightly',
      SCHEDULE: '0 3 * * *',
      TIMEZONE: '<none>',
      SUSPEND: 'false',
      ACTIVE: '1',
      'LAST SCHEDULE': '9h',
      AGE: '5h2m',
      CONTAINERS: 'web,proxy',
      IMAGES: 'nginx:1.27,envoy:1.31',
      SELECTOR: '<none>',
    });
    expect(printed('cj', { metadata: { name: 'x' }, spec: {} })).toMatchObject({
      SUSPEND: '<unset>',
      'LAST SCHEDULE': '<none>',
    });
  });
});

describe('network columns', () => {
  const service = (spec: Record<string, unknown>, status: Record<string, unknown> = {}): KubeObject => ({
    metadata: { name: 'web', ...created },
    spec: {
      clusterIP: '10.96.0.10',
      clusterIPs: ['10.96.0.10'],
      ports: [{ port: 80, protocol: 'TCP' }],
      ...spec,
    },
    status,
  });

  it('prints a ClusterIP service with its selector', () => {
    expect(printed('svc', service({ type: 'ClusterIP', selector: { app: 'web' } }))).toEqual({
      NAME: 'web',
      TYPE: 'ClusterIP',
      'CLUSTER-IP': '10.96.0.10',
      'EXTERNAL-IP': '<none>',
      'PORT(S)': '80/TCP',
      AGE: '5h2m',
      SELECTOR: 'app=web',
    });
  });

  it('prints node ports, pending and provisioned load balancers and external names', () => {
    const ports = [
      { port: 80, nodePort: 30080, protocol: 'TCP' },
      { port: 53, nodePort: 30053, protocol: 'UDP' },
    ];
    expect(printed('svc', service({ type: 'NodePort', ports }))['PORT(S)']).toBe('80:30080/TCP,53:30053/UDP');
    expect(printed('svc', service({ type: 'LoadBalancer' }))['EXTERNAL-IP']).toBe('<pending>');
    const provisioned = {
      loadBalancer: { ingress: [{ ip: '203.0.113.9' }, { hostname: 'lb.example.com' }] },
    };
    expect(printed('svc', service({ type: 'LoadBalancer' }, provisioned))['EXTERNAL-IP']).toBe(
      '203.0.113.9,lb.example.com',
    );
    expect(
      printed('svc', service({ type: 'ExternalName', externalName: 'db.example.com', ports: [] })),
    ).toMatchObject({
      'EXTERNAL-IP': 'db.example.com',
      'PORT(S)': '<none>',
    });
  });

  it('prints endpoints, the first three then how many more', () => {
    const endpoints: KubeObject = {
      metadata: { name: 'web', ...created },
      subsets: [
        {
          addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }, { ip: 'fd00::3' }, { ip: '10.0.0.4' }],
          ports: [{ port: 8080 }],
        },
      ],
    };
    expect(printed('ep', endpoints).ENDPOINTS).toBe('10.0.0.1:8080,10.0.0.2:8080,[fd00::3]:8080 + 1 more...');
    expect(printed('ep', { metadata: { name: 'none' } }).ENDPOINTS).toBe('<none>');
  });

  it('prints an ingress and a network policy', () => {
    const ingress: KubeObject = {
      metadata: { name: 'web', ...created },
      spec: {
        ingressClassName: 'nginx',
        rules: [{ host: 'shop.example.com' }],
        tls: [{ hosts: ['shop.example.com'] }],
      },
      status: { loadBalancer: { ingress: [{ ip: '203.0.113.9' }] } },
    };
    expect(printed('ing', ingress)).toEqual({
      NAME: 'web',
      CLASS: 'nginx',
      HOSTS: 'shop.example.com',
      ADDRESS: '203.0.113.9',
      PORTS: '80, 443',
      AGE: '5h2m',
    });
    expect(
      printed('netpol', { metadata: { name: 'deny', ...created }, spec: { podSelector: {} } }),
    ).toMatchObject({
      'POD-SELECTOR': '<none>',
    });
  });
});

describe('cluster and config columns', () => {
  it('prints a node: Ready condition, cordon, roles and versions', () => {
    const node: KubeObject = {
      metadata: {
        name: 'node-a',
        creationTimestamp: ago(40 * day),
        labels: { 'node-role.kubernetes.io/control-plane': '', 'node-role.kubernetes.io/worker': 'true' },
      },
      spec: { unschedulable: true },
      status: {
        conditions: [{ type: 'Ready', status: 'True' }],
        addresses: [{ type: 'InternalIP', address: '192.168.1.10' }],
        nodeInfo: {
          kubeletVersion: 'v1.34.1',
          osImage: 'Debian GNU/Linux 13',
          containerRuntimeVersion: 'containerd://2.1',
        },
      },
    };
    expect(printed('no', node)).toEqual({
      NAME: 'node-a',
      STATUS: 'Ready,SchedulingDisabled',
      ROLES: 'control-plane,worker',
      AGE: '40d',
      VERSION: 'v1.34.1',
      'INTERNAL-IP': '192.168.1.10',
      'EXTERNAL-IP': '<none>',
      'OS-IMAGE': 'Debian GNU/Linux 13',
      'KERNEL-VERSION': '<unknown>',
      'CONTAINER-RUNTIME': 'containerd://2.1',
    });
    expect(
      printed('no', {
        metadata: { name: 'new' },
        status: { conditions: [{ type: 'Ready', status: 'Unknown' }] },
      }),
    ).toMatchObject({
      STATUS: 'NotReady',
      ROLES: '<none>',
      AGE: '<unknown>',
    });
  });

  it('prints namespaces, config maps and secrets', () => {
    expect(printed('ns', { metadata: { name: 'shop', ...created }, status: { phase: 'Active' } })).toEqual({
      NAME: 'shop',
      STATUS: 'Active',
      AGE: '5h2m',
    });
    expect(
      printed('cm', {
        metadata: { name: 'conf', ...created },
        data: { a: '1', b: '2' },
        binaryData: { c: 'AA==' },
      }),
    ).toEqual({
      NAME: 'conf',
      DATA: '3',
      AGE: '5h2m',
    });
    expect(
      printed('secrets', {
        metadata: { name: 'tls', ...created },
        type: 'kubernetes.io/tls',
        data: { 'tls.crt': '', 'tls.key': '' },
      }),
    ).toEqual({
      NAME: 'tls',
      TYPE: 'kubernetes.io/tls',
      DATA: '2',
      AGE: '5h2m',
    });
  });

  it('prints an event: last seen, object, message and the wide details', () => {
    const event: KubeObject = {
      metadata: { name: 'web-1.17f', namespace: 'shop' },
      involvedObject: { kind: 'Pod', name: 'web-1', fieldPath: 'spec.containers{app}' },
      reason: 'BackOff',
      message: 'Back-off restarting failed container\n',
      type: 'Warning',
      source: { component: 'kubelet', host: 'node-a' },
      firstTimestamp: ago(hour),
      lastTimestamp: ago(2 * minute),
      count: 12,
    };
    expect(printed('ev', event)).toEqual({
      'LAST SEEN': '2m',
      TYPE: 'Warning',
      REASON: 'BackOff',
      OBJECT: 'pod/web-1',
      SUBOBJECT: 'spec.containers{app}',
      SOURCE: 'kubelet, node-a',
      MESSAGE: 'Back-off restarting failed container',
      'FIRST SEEN': '60m',
      COUNT: '12',
      NAME: 'web-1.17f',
    });
  });

  it('reads events.k8s.io style events: eventTime, series and reporting controller', () => {
    const event: KubeObject = {
      metadata: { name: 'e' },
      involvedObject: { kind: 'Node', name: '' },
      eventTime: ago(10 * minute),
      series: { count: 4, lastObservedTime: ago(30 * second) },
      reportingComponent: 'scheduler',
    };
    expect(printed('ev', event)).toMatchObject({
      'LAST SEEN': '30s',
      'FIRST SEEN': '10m',
      COUNT: '4',
      OBJECT: 'node',
      SOURCE: 'scheduler',
    });
  });

  it('prints CRDs with their creation time, and custom resources by their printer columns', () => {
    expect(
      printed('crd', {
        metadata: { name: 'widgets.example.kubetide.dev', creationTimestamp: '2026-01-02T03:04:05Z' },
      }),
    ).toEqual({
      NAME: 'widgets.example.kubetide.dev',
      'CREATED AT': '2026-01-02T03:04:05Z',
    });
    const definition: KubeObject = {
      metadata: { name: 'widgets.example.kubetide.dev' },
      spec: {
        group: 'example.kubetide.dev',
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            additionalPrinterColumns: [
              { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
              { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
              { name: 'Image', type: 'string', jsonPath: '.spec.containers[0].image', priority: 1 },
              { name: 'Paused', type: 'boolean', jsonPath: '.spec.paused' },
              { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
            ],
          },
        ],
      },
    };
    const widgets = printerFor({ group: 'example.kubetide.dev', resource: 'widgets' }, definition);
    const widget: KubeObject = {
      metadata: { name: 'w', ...created },
      spec: { replicas: 2, containers: [{ image: 'busybox' }] },
      status: {
        conditions: [
          { type: 'Progressing', status: 'False' },
          { type: 'Ready', status: 'True' },
        ],
      },
    };
    const cells = widgets.cells(widget, now);
    expect(cells).toEqual(['w', 'True', 2, 'busybox', null, now - 5 * hour - 2 * minute]);
    expect(formatRow(widgets.columns, cells, now)).toEqual(['w', 'True', '2', 'busybox', '<none>', '5h2m']);
    expect(widgets.columns.map((column) => column.priority)).toEqual([0, 0, 0, 1, 0, 0]);
  });

  it('falls back to NAME AGE for a kind without printer or printer columns', () => {
    const generic = printerFor({ group: 'example.kubetide.dev', resource: 'gadgets' });
    expect(generic.columns.map(columnHeader)).toEqual(['NAME', 'AGE']);
    const withoutColumns = printerFor(
      { group: 'example.kubetide.dev', resource: 'gadgets' },
      {
        metadata: { name: 'gadgets.example.kubetide.dev' },
        spec: { versions: [{ name: 'v1', served: true, storage: true }] },
      },
    );
    expect(
      formatRow(
        withoutColumns.columns,
        withoutColumns.cells({ metadata: { name: 'g', ...created } }, now),
        now,
      ),
    ).toEqual(['g', '5h2m']);
  });
});

describe('storage and access-control columns', () => {
  it('prints a bound claim with its volume, capacity and modes, and an unbound one blank', () => {
    const claim = (spec: Record<string, unknown>, status: Record<string, unknown>): KubeObject => ({
      metadata: { name: 'data', ...created },
      spec: { storageClassName: 'standard', volumeMode: 'Filesystem', ...spec },
      status,
    });
    expect(
      printed(
        'pvc',
        claim(
          { volumeName: 'pv-1' },
          { phase: 'Bound', capacity: { storage: '10Gi' }, accessModes: ['ReadWriteOnce'] },
        ),
      ),
    ).toEqual({
      NAME: 'data',
      STATUS: 'Bound',
      VOLUME: 'pv-1',
      CAPACITY: '10Gi',
      'ACCESS MODES': 'RWO',
      STORAGECLASS: 'standard',
      VOLUMEATTRIBUTESCLASS: '<unset>',
      AGE: '5h2m',
      VOLUMEMODE: 'Filesystem',
    });
    expect(printed('pvc', claim({}, { phase: 'Pending' }))).toMatchObject({
      VOLUME: '',
      CAPACITY: '',
      'ACCESS MODES': '',
    });
  });

  it('prints a persistent volume with its claim, and Terminating while deleted', () => {
    const volume: KubeObject = {
      metadata: { name: 'pv-1', ...created, deletionTimestamp: ago(0) },
      spec: {
        capacity: { storage: '10Gi' },
        accessModes: ['ReadWriteMany', 'ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Retain',
        claimRef: { namespace: 'shop', name: 'data' },
        storageClassName: 'standard',
      },
      status: { phase: 'Bound' },
    };
    expect(printed('pv', volume)).toEqual({
      NAME: 'pv-1',
      CAPACITY: '10Gi',
      'ACCESS MODES': 'RWO,RWX',
      'RECLAIM POLICY': 'Retain',
      STATUS: 'Terminating',
      CLAIM: 'shop/data',
      STORAGECLASS: 'standard',
      VOLUMEATTRIBUTESCLASS: '<unset>',
      REASON: '',
      AGE: '5h2m',
      VOLUMEMODE: '<unset>',
    });
  });

  it('marks the default storage class and fills in defaulted fields', () => {
    const storageClass: KubeObject = {
      metadata: {
        name: 'standard',
        ...created,
        annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' },
      },
      provisioner: 'rancher.io/local-path',
      volumeBindingMode: 'WaitForFirstConsumer',
    };
    expect(printed('sc', storageClass)).toEqual({
      NAME: 'standard (default)',
      PROVISIONER: 'rancher.io/local-path',
      RECLAIMPOLICY: 'Delete',
      VOLUMEBINDINGMODE: 'WaitForFirstConsumer',
      ALLOWVOLUMEEXPANSION: 'false',
      AGE: '5h2m',
    });
  });

  it('prints service accounts, roles, bindings and leases', () => {
    expect(
      printed('sa', { metadata: { name: 'default', ...created }, secrets: [{ name: 'token' }] }),
    ).toEqual({
      NAME: 'default',
      SECRETS: '1',
      AGE: '5h2m',
    });
    expect(
      printed('roles', { metadata: { name: 'reader', creationTimestamp: '2026-11-30T06:59:00Z' } }),
    ).toEqual({
      NAME: 'reader',
      'CREATED AT': '2026-11-30T06:59:00Z',
    });
    const binding: KubeObject = {
      metadata: { name: 'read', ...created },
      roleRef: { kind: 'ClusterRole', name: 'view' },
      subjects: [
        { kind: 'User', name: 'ada' },
        { kind: 'Group', name: 'devs' },
        { kind: 'ServiceAccount', name: 'ci', namespace: 'build' },
        { kind: 'User', name: 'bob' },
      ],
    };
    expect(printed('clusterrolebindings', binding)).toEqual({
      NAME: 'read',
      ROLE: 'ClusterRole/view',
      AGE: '5h2m',
      USERS: 'ada, bob',
      GROUPS: 'devs',
      SERVICEACCOUNTS: 'build/ci',
    });
    expect(
      printed('leases', {
        metadata: { name: 'kube-scheduler', ...created },
        spec: { holderIdentity: 'cp-1_ab' },
      }),
    ).toEqual({
      NAME: 'kube-scheduler',
      HOLDER: 'cp-1_ab',
      AGE: '5h2m',
    });
  });
});

describe('cell text and Tables', () => {
  it('prints null as <none> unless the column says otherwise', () => {
    expect(formatCell({ name: 'X', type: 'string', priority: 0 }, null, now)).toBe('<none>');
    expect(
      formatCell({ name: 'Age', type: 'date', priority: 0, format: 'age', missing: '<unknown>' }, null, now),
    ).toBe('<unknown>');
  });

  it('builds a meta.k8s.io Table body without hidden columns, counts kept as integers', () => {
    const deployment: KubeObject = {
      metadata: { name: 'web', ...created },
      spec: { replicas: 1, template },
      status: { readyReplicas: 1, updatedReplicas: 1, availableReplicas: 1 },
    };
    const table = tableColumnsAndRows(printer('deploy'), [deployment], now, (object) => ({
      metadata: object.metadata,
    }));
    expect(table.columnDefinitions.slice(0, 3)).toEqual([
      { name: 'Name', type: 'string', format: 'name', description: '', priority: 0 },
      { name: 'Ready', type: 'string', format: '', description: '', priority: 0 },
      { name: 'Up-to-date', type: 'integer', format: '', description: '', priority: 0 },
    ]);
    expect(table.rows[0]!.cells).toEqual([
      'web',
      '1/1',
      1,
      1,
      '5h2m',
      'web,proxy',
      'nginx:1.27,envoy:1.31',
      '',
    ]);
    expect(table.rows[0]!.object).toEqual({ metadata: deployment.metadata });
    const pods = tableColumnsAndRows(printer('pods'), [], now);
    expect(pods.columnDefinitions.map((column) => column.name)).not.toContain('Last Restart');
  });
});
