// The bridge's log streams against the embedded cluster over real HTTP: a pod's container followed
// live, a Deployment's pods merged into one stream and followed as pods come and go (from the pods
// informer, no LIST of its own), and a dropped connection resumed at production backoff with no line
// lost or doubled. The cluster runs on a FakeClock, so the test decides when lines are written; main
// runs on the real clock.
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterSession } from '../../main/bridge/cluster-session';
import type { LogLimits } from '../../main/bridge/log-service';
import { LogService } from '../../main/bridge/log-service';
import { FakeClock } from '../../main/cache/fake-clock';
import type { ClusterConnection } from '../../main/kube/cluster-connection';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { httpListerWatcher } from '../../main/kube/lister-watcher';
import { podLogOpener } from '../../main/kube/pod-log-request';
import type { PodLogOpener } from '../../main/kube/pod-log-stream';
import { RestClient } from '../../main/kube/rest-client';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import { setPodStage } from '../../main/sim/pod-lifecycle';
import type { LogLine, LogServerMessage } from '../../shared/protocol/log-messages';

const simClock = new FakeClock(Date.UTC(2026, 0, 1, 12));
let cluster: EmbeddedCluster;
let connection: ClusterConnection;
let session: ClusterSession;
const bodies: IncomingMessage[] = [];

function createPod(name: string, labels: Record<string, string>): void {
  const pods = cluster.resource('pods');
  cluster.storage.create(pods, 'default', {
    metadata: { name, labels },
    spec: { nodeName: 'node-0', containers: [{ name: 'app', image: 'example/app:1' }] },
  });
  cluster.storage.mutate(pods, 'default', name, (copy) => setPodStage(copy, 'Running', simClock.now()));
}

beforeAll(async () => {
  cluster = await startEmbeddedCluster({ clock: simClock, simulate: false });
  connection = Kubeconfig.fromString(cluster.kubeconfigYaml()).connect();
  const client = new RestClient(connection);
  session = new ClusterSession({
    context: 'embedded',
    newListerWatcher: (gvr, namespace, tweak) => httpListerWatcher(client, gvr, namespace, tweak),
    openPodLog: (namespace, pod): PodLogOpener => {
      const open = podLogOpener(client, namespace, pod);
      return async (query, signal) => {
        const body = await open(query, signal);
        bodies.push(body as IncomingMessage);
        return body;
      };
    },
  });
  cluster.storage.create(cluster.resource('deployments', 'apps'), 'default', {
    metadata: { name: 'shop' },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'shop' } },
      template: {
        metadata: { labels: { app: 'shop' } },
        spec: { containers: [{ name: 'app', image: 'x' }] },
      },
    },
  });
  for (const name of ['shop-1', 'shop-2', 'shop-3']) createPod(name, { app: 'shop' });
  createPod('other', { app: 'other' });
  simClock.step(30_000);
});

afterAll(async () => {
  await session?.close();
  connection?.close();
  await cluster?.close();
});

function service(limits: Partial<LogLimits> = {}) {
  const messages: LogServerMessage[] = [];
  const logs = new LogService({
    session: () => session,
    clock: session.clock,
    send: (m) => messages.push(m),
    limits,
  });
  const lines = () =>
    messages.flatMap((message) => (message.type === 'logLines' ? message.lines : ([] as LogLine[])));
  return { logs, messages, lines };
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function serverLines(pod: string): Promise<string[]> {
  const reply = await fetch(`${cluster.url}/api/v1/namespaces/default/pods/${pod}/log?timestamps=true`);
  return (await reply.text()).split('\n').filter(Boolean);
}

describe('log streams over the bridge', () => {
  it("follows a pod's container: its lines so far, then new ones as they are written", async () => {
    const { logs, lines } = service();
    await logs.serve({
      type: 'openLogs',
      requestId: 1,
      streamId: 'pod',
      target: { kind: 'pod', namespace: 'default', name: 'other', container: 'app' },
      options: { follow: true, previous: false },
    });
    const first = (await serverLines('other')).length;
    await until(() => lines().length === first);
    simClock.step(10_000);
    await until(() => lines().length > first);
    const server = await serverLines('other');
    await until(() => lines().length === server.length);
    expect(lines().map((line) => `${line.timestamp} ${line.text}`)).toEqual(server);
    await logs.serve({ type: 'closeLogs', streamId: 'pod' });
    logs.close();
  });

  it("merges a Deployment's pods by time and follows pods as they come and go", async () => {
    const { logs, messages, lines } = service();
    await logs.serve({
      type: 'openLogs',
      requestId: 1,
      streamId: 'shop',
      target: {
        kind: 'workload',
        gvr: { group: 'apps', version: 'v1', resource: 'deployments' },
        namespace: 'default',
        name: 'shop',
      },
      options: { follow: true, previous: false, tailLines: 5 },
    });
    const sources = () =>
      messages.flatMap((message) => (message.type === 'logSources' ? message.added.map((s) => s.pod) : []));
    await until(() => sources().length === 3);
    expect(sources().sort()).toEqual(['shop-1', 'shop-2', 'shop-3']);
    await until(() => new Set(lines().map((line) => line.source)).size === 3);
    for (const message of messages)
      if (message.type === 'logLines')
        for (let index = 1; index < message.lines.length; index++)
          expect(message.lines[index].time).toBeGreaterThanOrEqual(message.lines[index - 1].time);

    createPod('shop-4', { app: 'shop' });
    await until(() => sources().includes('shop-4'));
    cluster.storage.delete(cluster.resource('pods'), 'default', 'shop-1');
    await until(() =>
      messages.some((message) => message.type === 'logSources' && message.removed.length === 1),
    );
    logs.close();
  });

  it('resumes a dropped connection at production backoff, with no line lost or doubled', async () => {
    const { logs, messages, lines } = service();
    await logs.serve({
      type: 'openLogs',
      requestId: 1,
      streamId: 'drop',
      target: { kind: 'pod', namespace: 'default', name: 'shop-2', container: 'app' },
      options: { follow: true, previous: false },
    });
    await until(() => lines().length > 0);
    const before = bodies.length;
    bodies.at(-1)!.socket.destroy();
    const droppedAt = Date.now();
    // Lines written while disconnected must arrive after the resume, once.
    simClock.step(8_000);
    await until(() => bodies.length > before);
    const waited = Date.now() - droppedAt;
    // The Reflector's backoff: 800 ms, fully jittered (up to 1.6 s).
    expect(waited).toBeGreaterThanOrEqual(800);
    expect(waited).toBeLessThan(3_000);
    simClock.step(5_000);
    const server = await serverLines('shop-2');
    await until(() => lines().length >= server.length);
    expect(lines().map((line) => `${line.timestamp} ${line.text}`)).toEqual(server);
    const kinds = messages.flatMap((message) => (message.type === 'logNote' ? [message.kind] : []));
    expect(kinds).toContain('reconnecting');
    expect(kinds).toContain('resumed');
    expect(kinds).not.toContain('rotated');
    logs.close();
  });

  it('caps the streams a connection opens and the sources one stream reads, saying so', async () => {
    const { logs, messages } = service({ streams: 2, sourcesPerStream: 2 });
    const open = (streamId: string) =>
      logs.serve({
        type: 'openLogs',
        requestId: 1,
        streamId,
        target: { kind: 'selector', namespace: 'default', labelSelector: 'app=shop' },
        options: { follow: true, previous: false, tailLines: 1 },
      });
    await open('a');
    await open('b');
    await expect(open('c')).rejects.toThrow('at most 2 log streams may be open at once; close one first');
    await expect(open('a')).rejects.toThrow('log stream a is already open');
    await until(() => messages.some((message) => message.type === 'logNote' && message.kind === 'limited'));
    const added = messages.flatMap((message) =>
      message.type === 'logSources' && message.streamId === 'a' ? message.added : [],
    );
    expect(added).toHaveLength(2);
    await logs.serve({ type: 'closeLogs', streamId: 'a' });
    await open('c');
    logs.close();
  });
});
