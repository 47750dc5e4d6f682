// kubectl's own writes against the embedded cluster, each confirmed by a kubectl watch that saw it:
// the typed `create` generators (protobuf bodies), create -f and replace (JSON POST and PUT),
// client-side apply, label, annotate, edit (strategic merge PATCH), scale (the scale subresource) and
// delete. Server-side apply is refused the way a server without it refuses it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { KubectlHarness } from './kubectl-harness';
import { kubectlHarness } from './kubectl-harness';

let cluster: EmbeddedCluster;
let harness: KubectlHarness;

beforeAll(async () => {
  cluster = await startEmbeddedCluster({ seed: 5, pods: 10, nodes: 2, namespaces: 1 });
  harness = kubectlHarness(cluster);
});

afterAll(async () => {
  harness?.close();
  await cluster?.close();
});

const kubectl = (...args: string[]) => harness.kubectl(args);

/**
 * `kubectl get -w --output-watch-events`, one line per event: type, name, then the fields the test
 * checks. Resolves once the watch has delivered the initial ADDED of `ready`, an object that exists.
 */
async function watch(resource: string, ready: string, fields: string) {
  const watcher = harness.spawn([
    'get',
    resource,
    '-n',
    'writes',
    '-w',
    '--output-watch-events',
    '-o',
    `jsonpath={.type} {.object.metadata.name} ${fields}{"\\n"}`,
  ]);
  await expect.poll(watcher.output, { timeout: 15_000 }).toMatch(new RegExp(`^ADDED ${ready} `, 'm'));
  const sees = (line: string) =>
    expect.poll(() => watcher.output().split('\n'), { timeout: 15_000 }).toContain(line);
  return { sees, stop: watcher.stop };
}

const configMapYaml = (name: string, value: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}, namespace: writes}\ndata: {mode: "${value}"}\n`;

const cronJobYaml = `apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: writes}
spec:
  schedule: "0 * * * *"
  jobTemplate:
    spec:
      backoffLimit: 2
      template:
        spec:
          restartPolicy: OnFailure
          securityContext: {runAsNonRoot: true, fsGroup: 2000}
          imagePullSecrets: [{name: registry}]
          tolerations: [{key: dedicated, operator: Equal, value: batch, effect: NoSchedule}]
          containers:
          - name: backup
            image: backup:1
            args: ["--all"]
            env:
            - {name: MODE, value: full}
            - name: PASSWORD
              valueFrom: {secretKeyRef: {name: db, key: password}}
            - name: NODE
              valueFrom: {fieldRef: {fieldPath: spec.nodeName}}
            envFrom: [{configMapRef: {name: settings}, prefix: S_}]
            resources: {limits: {cpu: 500m, memory: 128Mi}}
            volumeMounts: [{name: data, mountPath: /data}, {name: config, mountPath: /etc/config, readOnly: true}]
            livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 5}
            readinessProbe: {tcpSocket: {port: http}}
            securityContext: {readOnlyRootFilesystem: true, capabilities: {drop: [ALL]}}
          volumes:
          - {name: data, emptyDir: {sizeLimit: 1Gi}}
          - {name: config, configMap: {name: settings, defaultMode: 420}}
          - {name: creds, secret: {secretName: db, optional: false}}
          - {name: store, persistentVolumeClaim: {claimName: store}}
`;

describe('kubectl writes against the embedded cluster', () => {
  it('create namespace (a protobuf body) makes a namespace that lists', async () => {
    expect(await kubectl('create', 'namespace', 'writes')).toBe('namespace/writes created\n');
    expect(await kubectl('get', 'namespaces', 'writes', '-o', 'name')).toBe('namespace/writes\n');
  });

  it('create, apply, label, annotate, replace, edit and delete a configmap, each seen by a watch', async () => {
    expect(await kubectl('create', 'configmap', 'settings', '-n', 'writes', '--from-literal=mode=a')).toBe(
      'configmap/settings created\n',
    );
    const configMaps = await watch(
      'configmaps',
      'settings',
      '{.object.data.mode} {.object.metadata.labels.tier} {.object.metadata.annotations.note}',
    );
    try {
      await configMaps.sees('ADDED settings a  ');
      expect(await kubectl('create', '-f', harness.file('file.yaml', configMapYaml('from-file', 'f')))).toBe(
        'configmap/from-file created\n',
      );
      await configMaps.sees('ADDED from-file f  ');

      const applied = harness.file('applied.yaml', configMapYaml('applied', 'one'));
      expect(await kubectl('apply', '-f', applied)).toBe('configmap/applied created\n');
      await configMaps.sees('ADDED applied one  ');
      expect(
        await kubectl('apply', '-f', harness.file('applied.yaml', configMapYaml('applied', 'two'))),
      ).toBe('configmap/applied configured\n');
      await configMaps.sees('MODIFIED applied two  ');

      expect(await kubectl('label', 'configmap', 'settings', '-n', 'writes', 'tier=gold')).toBe(
        'configmap/settings labeled\n',
      );
      await configMaps.sees('MODIFIED settings a gold ');
      expect(await kubectl('annotate', 'configmap', 'settings', '-n', 'writes', 'note=hello')).toBe(
        'configmap/settings annotated\n',
      );
      await configMaps.sees('MODIFIED settings a gold hello');

      expect(await kubectl('replace', '-f', harness.file('file.yaml', configMapYaml('from-file', 'g')))).toBe(
        'configmap/from-file replaced\n',
      );
      await configMaps.sees('MODIFIED from-file g  ');
      const editor = { KUBE_EDITOR: `sed -i -e 's/mode: a/mode: edited/'` };
      expect(await harness.kubectl(['edit', 'configmap', 'settings', '-n', 'writes'], editor)).toBe(
        'configmap/settings edited\n',
      );
      await configMaps.sees('MODIFIED settings edited gold hello');

      expect(await kubectl('delete', 'configmap', 'settings', '-n', 'writes')).toBe(
        'configmap "settings" deleted\n',
      );
      await configMaps.sees('DELETED settings edited gold hello');
    } finally {
      configMaps.stop();
    }
  });

  it('create deployment (protobuf) and scale it through the scale subresource, seen by a watch', async () => {
    expect(
      await kubectl(
        'create',
        'deployment',
        'web',
        '-n',
        'writes',
        '--image=nginx:1',
        '--replicas=0',
        '--port=80',
      ),
    ).toBe('deployment.apps/web created\n');
    const deployments = await watch(
      'deployments',
      'web',
      '{.object.spec.replicas} {.object.spec.template.spec.containers[0].ports[0].containerPort}',
    );
    try {
      await deployments.sees('ADDED web 0 80');
      expect(await kubectl('scale', 'deployment', 'web', '-n', 'writes', '--replicas=3')).toBe(
        'deployment.apps/web scaled\n',
      );
      await deployments.sees('MODIFIED web 3 80');
      expect(await kubectl('delete', 'deployment', 'web', '-n', 'writes')).toBe(
        'deployment.apps "web" deleted\n',
      );
      await deployments.sees('DELETED web 3 80');
    } finally {
      deployments.stop();
    }
  });

  it('rollout undo writes the previous template back, and the controller reuses its ReplicaSet', async () => {
    await kubectl('create', 'deployment', 'shop', '-n', 'writes', '--image=shop:1', '--replicas=1');
    const status = () => kubectl('rollout', 'status', 'deployment/shop', '-n', 'writes', '--timeout=30s');
    await status();
    await kubectl('set', 'image', 'deployment/shop', '-n', 'writes', 'shop=shop:2');
    await status();
    // kubectl's JSON patch replaces /metadata/annotations, which the controller's revision fills.
    expect(await kubectl('rollout', 'undo', 'deployment/shop', '-n', 'writes')).toBe(
      'deployment.apps/shop rolled back\n',
    );
    await status();
    const replicaSets = (
      await kubectl(
        'get',
        'replicasets',
        '-n',
        'writes',
        '-o',
        'jsonpath={range .items[*]}{.spec.template.spec.containers[0].image} {.metadata.annotations.deployment\\.kubernetes\\.io/revision} {.spec.replicas}{"\\n"}{end}',
      )
    )
      .trim()
      .split('\n')
      .sort();
    expect(replicaSets).toEqual(['shop:1 3 1', 'shop:2 2 0']);
    expect(await kubectl('rollout', 'history', 'deployment/shop', '-n', 'writes')).toMatch(
      /REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>/,
    );
    await kubectl('delete', 'deployment', 'shop', '-n', 'writes');
  });

  it('the other typed create generators send protobuf the cluster decodes', async () => {
    await kubectl('create', 'secret', 'generic', 'token', '-n', 'writes', '--from-literal=key=value');
    await kubectl('create', 'job', 'once', '-n', 'writes', '--image=busybox', '--', 'echo', 'hi');
    await kubectl('create', 'cronjob', 'hourly', '-n', 'writes', '--image=busybox', '--schedule=@hourly');
    await kubectl('create', 'service', 'clusterip', 'api', '-n', 'writes', '--tcp=80:http');
    const objects = JSON.parse(
      await kubectl(
        'get',
        'secret/token',
        'job/once',
        'cronjob/hourly',
        'service/api',
        '-n',
        'writes',
        '-o',
        'json',
      ),
    );
    const [secret, job, cronJob, service] = objects.items;
    expect(Buffer.from(secret.data.key, 'base64').toString()).toBe('value');
    expect(job.spec.template.spec.containers[0].command).toEqual(['echo', 'hi']);
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
    expect(cronJob.spec.schedule).toBe('@hourly');
    expect(service.spec.ports[0]).toMatchObject({ port: 80, targetPort: 'http', protocol: 'TCP' });
  });

  it('create job --from=cronjob sends the whole pod template, volumes, env references and probes included', async () => {
    await kubectl('apply', '-f', harness.file('cronjob.yaml', cronJobYaml));
    expect(await kubectl('create', 'job', 'backup-now', '-n', 'writes', '--from=cronjob/backup')).toBe(
      'job.batch/backup-now created\n',
    );
    const [cronJob, job] = JSON.parse(
      await kubectl('get', 'cronjob/backup', 'job/backup-now', '-n', 'writes', '-o', 'json'),
    ).items;
    const template = cronJob.spec.jobTemplate.spec.template.spec;
    const copied = job.spec.template.spec;
    for (const field of ['volumes', 'securityContext', 'tolerations', 'imagePullSecrets'])
      expect(copied[field], field).toEqual(template[field]);
    for (const field of [
      'args',
      'env',
      'envFrom',
      'resources',
      'volumeMounts',
      'livenessProbe',
      'readinessProbe',
      'securityContext',
    ])
      expect(copied.containers[0][field], field).toEqual(template.containers[0][field]);
    expect(job.metadata.ownerReferences[0]).toMatchObject({
      kind: 'CronJob',
      name: 'backup',
      controller: true,
    });
  });

  it('apply --server-side gets the 415 kubectl reads as "server-side apply not available"', async () => {
    const output = await harness.kubectlFailure([
      'apply',
      '--server-side',
      '-f',
      harness.file('server-side.yaml', configMapYaml('server-side', 's')),
    ]);
    expect(output).toMatch(/Server-side apply not available on the server/);
  });

  it('drain (protobuf DeleteOptions) empties a node, and the cordoned node takes no new pod', async () => {
    const placements = async () =>
      (
        await kubectl(
          'get',
          'pods',
          '-A',
          '-o',
          'jsonpath={range .items[*]}{.spec.nodeName} {.metadata.ownerReferences[0].kind}{"\\n"}{end}',
        )
      )
        .trim()
        .split('\n')
        .map((line) => line.split(' '));
    const counts = new Map<string, number>();
    for (const [node] of await placements()) counts.set(node, (counts.get(node) ?? 0) + 1);
    const [busiest] = [...counts].sort((a, b) => b[1] - a[1])[0];
    const output = await kubectl(
      'drain',
      busiest,
      '--ignore-daemonsets',
      '--delete-emptydir-data',
      '--force',
      '--timeout=60s',
    );
    expect(output).toMatch(new RegExp(`node/${busiest} drained`));
    expect(await kubectl('get', 'node', busiest, '-o', 'jsonpath={.spec.unschedulable}')).toBe('true');
    // The controllers replace what was evicted, never on the cordoned node; DaemonSet pods stay.
    await expect
      .poll(async () => (await placements()).filter(([node]) => node === '').length, { timeout: 15_000 })
      .toBe(0);
    expect((await placements()).filter(([node, owner]) => node === busiest && owner !== 'DaemonSet')).toEqual(
      [],
    );
    const taints = () => kubectl('get', 'node', busiest, '-o', 'jsonpath={.spec.taints[*].key}');
    await expect.poll(taints, { timeout: 5_000 }).toBe('node.kubernetes.io/unschedulable');
    await kubectl('uncordon', busiest);
    await expect.poll(taints, { timeout: 5_000 }).toBe('');
  });
});
