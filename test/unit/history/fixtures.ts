// Fixtures for the history tests: realistic pods (with managedFields, ~3.5 KB of JSON), seeded churn
// on a FakeControllerSource, an informer recorded on a FakeClock, and temporary recording files.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock, flushMicrotasks } from '../../../main/cache/fake-clock';
import { SharedIndexInformer } from '../../../main/cache/shared-informer';
import type { KubeObject } from '../../../shared/kube/object';
import type { RecordedChange } from '../../../main/history/recorded-change';
import type { ReplayState } from '../../../main/history/replay';
import { Recorder } from '../../../main/history/recorder';
import type { AttachOptions, RecorderOptions } from '../../../main/history/recorder-options';
import { inlineRecordingProcess } from '../../../main/history/recording-process';
import { FakeControllerSource, sourceKey } from '../../support/fake-controller-source';
import { seededRandom } from '../../support/seeded-random';

export const podsGvr = { group: '', version: 'v1', resource: 'pods' };

export { seededRandom };

let uidCounter = 0;

/** A pod as an API server returns it, managedFields included. */
export function realisticPod(name: string, namespace = 'default', node = 'node-1'): KubeObject {
  const uid = `0000${(++uidCounter).toString(16)}`.slice(-8) + '-4f1c-4b7e-9a5d-1c2b3d4e5f60';
  const time = '2026-01-01T00:00:00Z';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      uid,
      generateName: name.slice(0, name.lastIndexOf('-') + 1),
      creationTimestamp: time,
      labels: { app: name.split('-')[0], 'pod-template-hash': '7d9f8c6b5', tier: 'backend' },
      annotations: { 'kubectl.kubernetes.io/restartedAt': time },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: `${name.split('-')[0]}-7d9f8c6b5`,
          uid: `owner-${name.split('-')[0]}`,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      managedFields: [
        {
          manager: 'kube-controller-manager',
          operation: 'Update',
          apiVersion: 'v1',
          time,
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:metadata': {
              'f:generateName': {},
              'f:labels': { '.': {}, 'f:app': {}, 'f:pod-template-hash': {} },
              'f:ownerReferences': { '.': {} },
            },
            'f:spec': {
              'f:containers': {
                'k:{"name":"app"}': {
                  '.': {},
                  'f:image': {},
                  'f:imagePullPolicy': {},
                  'f:name': {},
                  'f:ports': {},
                  'f:resources': {},
                },
              },
            },
          },
        },
        {
          manager: 'kubelet',
          operation: 'Update',
          apiVersion: 'v1',
          time,
          fieldsType: 'FieldsV1',
          subresource: 'status',
          fieldsV1: {
            'f:status': {
              'f:conditions': {},
              'f:containerStatuses': {},
              'f:hostIP': {},
              'f:phase': {},
              'f:podIP': {},
              'f:startTime': {},
            },
          },
        },
      ],
    },
    spec: {
      nodeName: node,
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      serviceAccountName: 'default',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      containers: [
        {
          name: 'app',
          image: `registry.example.com/${name.split('-')[0]}:1.4.2`,
          imagePullPolicy: 'IfNotPresent',
          ports: [{ containerPort: 8080, name: 'http', protocol: 'TCP' }],
          resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
          env: [
            { name: 'LOG_LEVEL', value: 'info' },
            { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
          ],
          volumeMounts: [
            {
              mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
              name: 'kube-api-access',
              readOnly: true,
            },
          ],
        },
      ],
      volumes: [
        {
          name: 'kube-api-access',
          projected: {
            defaultMode: 420,
            sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }],
          },
        },
      ],
      tolerations: [
        {
          effect: 'NoExecute',
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          tolerationSeconds: 300,
        },
        {
          effect: 'NoExecute',
          key: 'node.kubernetes.io/unreachable',
          operator: 'Exists',
          tolerationSeconds: 300,
        },
      ],
    },
    status: {
      phase: 'Pending',
      hostIP: '10.0.0.1',
      podIP: '10.244.1.7',
      startTime: time,
      qosClass: 'Burstable',
      conditions: ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({
        type,
        status: 'True',
        lastProbeTime: null,
        lastTransitionTime: time,
      })),
      containerStatuses: [
        {
          name: 'app',
          ready: true,
          restartCount: 0,
          image: 'registry.example.com/app:1.4.2',
          imageID:
            'registry.example.com/app@sha256:4f1c4b7e9a5d1c2b3d4e5f604f1c4b7e9a5d1c2b3d4e5f604f1c4b7e9a5d1c2b',
          containerID: 'containerd://9a5d1c2b3d4e5f604f1c4b7e',
          started: true,
          state: { running: { startedAt: time } },
        },
      ],
    },
  };
}

/**
 * One random change to `source`: mostly status updates of live pods (as kubelets make), some
 * creations and deletions. Returns what it did.
 */
export function churnStep(source: FakeControllerSource, random: () => number, step: number): string {
  const keys = source.keys();
  const roll = random();
  if (keys.length < 5 || roll < 0.15) {
    const namespace = random() < 0.5 ? 'default' : 'payments';
    source.add(realisticPod(`web-${step}-${Math.floor(random() * 1e6).toString(36)}`, namespace));
    return 'add';
  }
  const key = keys[Math.floor(random() * keys.length)];
  const pod = source.get(key)!;
  if (roll < 0.27) {
    source.delete(pod);
    return 'delete';
  }
  const status = pod.status as {
    phase: string;
    conditions: { lastTransitionTime: string }[];
    containerStatuses: { restartCount: number }[];
  };
  status.phase = random() < 0.8 ? 'Running' : 'Failed';
  status.conditions[Math.floor(random() * status.conditions.length)].lastTransitionTime = new Date(
    Date.UTC(2026, 0, 1) + step * 1000,
  ).toISOString();
  status.containerStatuses[0].restartCount += random() < 0.3 ? 1 : 0;
  source.modify(pod);
  return 'modify';
}

/** A cache's content as recorded objects look: managedFields stripped, ordered by key. */
export function cacheSnapshot(informer: SharedIndexInformer<KubeObject>): KubeObject[] {
  return informer
    .getStore()
    .list()
    .map((object) => {
      const copy = structuredClone(object);
      delete copy.metadata.managedFields;
      return copy;
    })
    .sort((a, b) => (sourceKey(a) < sourceKey(b) ? -1 : sourceKey(a) > sourceKey(b) ? 1 : 0));
}

export interface TempDirectory {
  readonly path: string;
  file(name: string): string;
  remove(): void;
}

export function tempDirectory(): TempDirectory {
  const path = mkdtempSync(join(tmpdir(), 'kubetide-history-'));
  return {
    path,
    file: (name) => join(path, name),
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}

/** Lets the informer pipeline (watch -> queue -> indexer) drain without moving the clock. */
export async function settle(turns = 20): Promise<void> {
  for (let turn = 0; turn < turns; turn++) await flushMicrotasks();
}

/** A pods informer over `source`, recorded into `file`, running on `clock`. */
export async function recordedInformer(
  source: FakeControllerSource,
  file: string,
  clock: FakeClock,
  options: Partial<RecorderOptions> = {},
  attachOptions: AttachOptions = {},
) {
  const recorder = await Recorder.open({
    file,
    context: 'test-context',
    clock,
    recordingProcess: inlineRecordingProcess,
    ...options,
  });
  const informer = new SharedIndexInformer<KubeObject>({
    name: 'pods.v1',
    listerWatcher: source,
    clock,
    reflector: { random: () => 0.5 },
  });
  const attachment = recorder.attach(informer, podsGvr, '', attachOptions);
  const controller = new AbortController();
  const done = informer.run(controller.signal);
  return {
    recorder,
    informer,
    attachment,
    async stop(): Promise<void> {
      controller.abort();
      await done;
    },
  };
}

export interface ChurnRun {
  readonly file: string;
  /** The informer cache as captured at moments of the run (after settling, before time moved). */
  readonly moments: { readonly time: number; readonly objects: KubeObject[] }[];
  readonly clock: FakeClock;
}

/** Records `steps` seconds-ish of churn (one or two changes a step) and captures the cache each step. */
export async function recordChurn(
  file: string,
  steps: number,
  options: Partial<RecorderOptions> & { seed?: number; stepMs?: number } = {},
): Promise<ChurnRun> {
  const clock = new FakeClock();
  const source = new FakeControllerSource();
  for (let index = 0; index < 12; index++)
    source.add(realisticPod(`seed-${index}-x`, index % 2 ? 'default' : 'payments'));
  const random = seededRandom(options.seed ?? 1);
  const run = await recordedInformer(source, file, clock, options);
  await settle();
  const moments: { time: number; objects: KubeObject[] }[] = [];
  for (let step = 0; step < steps; step++) {
    churnStep(source, random, step);
    if (random() < 0.5) churnStep(source, random, step);
    await settle();
    moments.push({ time: clock.now(), objects: cacheSnapshot(run.informer) });
    await clock.stepAsync(options.stepMs ?? 500);
  }
  await run.stop();
  await run.recorder.close();
  return { file, moments, clock };
}

/** A state without the change ids, which an export is free to renumber. */
export function withoutIds(state: ReplayState) {
  return { ...state, changes: state.changes.map(({ id: _id, ...change }) => change) };
}

/** An object's versions without their change ids (see withoutIds). */
export function versionsWithoutIds(versions: RecordedChange[]) {
  return versions.map(({ id: _id, ...change }) => change);
}
