// GET .../pods/{name}/log on the embedded cluster, over real HTTP and through the installed kubectl:
// the PodLogOptions (container, follow, previous, tailLines, sinceSeconds/sinceTime, timestamps,
// limitBytes), rotation, and kube-apiserver's errors word for word. The cluster runs on a FakeClock
// with no controllers, so every line's time is known.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../main/cache/fake-clock';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import { setPodStage } from '../../main/sim/pod-lifecycle';
import type { KubectlHarness } from './kubectl-harness';
import { kubectlHarness } from './kubectl-harness';

const start = Date.UTC(2026, 0, 1, 12, 0, 0);
let clock: FakeClock;
let cluster: EmbeddedCluster;
let harness: KubectlHarness;

function createPod(name: string, containers: { name: string; image: string }[], init: string[] = []): void {
  const pods = cluster.resource('pods');
  cluster.storage.create(pods, 'default', {
    metadata: { name, labels: { app: name } },
    spec: {
      nodeName: 'node-0000',
      containers,
      initContainers: init.map((container) => ({ name: container, image: 'busybox:1.36' })),
    },
  });
  cluster.storage.mutate(pods, 'default', name, (copy) => setPodStage(copy, 'Running', clock.now()));
}

function crash(name: string): void {
  cluster.storage.mutate(cluster.resource('pods'), 'default', name, (copy) =>
    setPodStage(copy, 'CrashLoopBackOff', clock.now(), 1),
  );
}

async function logs(name: string, query = ''): Promise<{ code: number; body: string }> {
  const reply = await fetch(`${cluster.url}/api/v1/namespaces/default/pods/${name}/log${query}`);
  return { code: reply.status, body: await reply.text() };
}

const lines = (text: string) => text.split('\n').filter(Boolean);

beforeAll(async () => {
  clock = new FakeClock(start);
  cluster = await startEmbeddedCluster({ seed: 5, clock, simulate: false, logLinesPerFile: 500 });
  harness = kubectlHarness(cluster);
  createPod(
    'web',
    [
      { name: 'web', image: 'nginx:1.27' },
      { name: 'sidecar', image: 'envoyproxy/envoy:v1.31' },
    ],
    ['migrate'],
  );
  createPod('api', [{ name: 'api', image: 'example/api:1.0' }]);
  createPod('worker', [{ name: 'worker', image: 'example/worker:2.1' }]);
  clock.step(120_000);
});

afterAll(async () => {
  harness?.close();
  await cluster?.close();
});

describe('the pod log endpoint', () => {
  it('logs each container of a pod at a steady pace from its start, as text/plain', async () => {
    const reply = await fetch(`${cluster.url}/api/v1/namespaces/default/pods/api/log`);
    expect(reply.headers.get('content-type')).toBe('text/plain');
    const all = lines(await reply.text());
    // Four startup lines, then one every 1-3 s for two minutes.
    expect(all.length).toBeGreaterThanOrEqual(4 + 40);
    expect(all.length).toBeLessThanOrEqual(4 + 120);
    const web = lines((await logs('web', '?container=web')).body);
    const sidecar = lines((await logs('web', '?container=sidecar')).body);
    expect(web[5]).toMatch(/^10\.244\.\d+\.\d+ - - \[01\/Jan\/2026:12:0\d:\d\d \+0000\] "/);
    expect(sidecar[5]).toMatch(/^\[2026-01-01T12:0\d:\d\d\.\d{3}Z\] "/);
  });

  it('answers the same lines to the same request (a reconnecting reader sees no new text)', async () => {
    expect((await logs('api')).body).toBe((await logs('api')).body);
  });

  it('tailLines keeps the last lines; timestamps prefixes RFC 3339 with nine fractional digits', async () => {
    const all = lines((await logs('api')).body);
    const tail = lines((await logs('api', '?tailLines=3&timestamps=true')).body);
    expect(tail).toHaveLength(3);
    for (const [index, line] of tail.entries()) {
      expect(line).toMatch(/^2026-01-01T12:0\d:\d\d\.\d{3}000000Z /);
      expect(line.slice(31)).toBe(all[all.length - 3 + index]);
    }
  });

  it('sinceTime and sinceSeconds keep the lines written at or after the time', async () => {
    const stamped = lines((await logs('api', '?timestamps=true')).body);
    const cut = stamped[20].slice(0, 19) + 'Z';
    const since = lines((await logs('api', `?timestamps=true&sinceTime=${cut}`)).body);
    expect(since.length).toBeGreaterThan(0);
    expect(since.every((line) => line.slice(0, 30) >= cut.replace('Z', '.000000000Z'))).toBe(true);
    expect(stamped.slice(-since.length)).toEqual(since);
    const lastMinute = lines((await logs('api', '?sinceSeconds=60&timestamps=true')).body);
    expect(lastMinute.every((line) => Date.parse(line.slice(0, 30)) >= clock.now() - 60_000)).toBe(true);
    expect(lastMinute.length).toBeLessThan(stamped.length);
  });

  it('limitBytes cuts the reply at that many bytes, mid-line', async () => {
    const { body } = await logs('api', '?limitBytes=100');
    expect(Buffer.byteLength(body)).toBe(100);
    expect((await logs('api')).body.startsWith(body)).toBe(true);
  });

  it('rotates a long log: only the lines since the last rotation are served', async () => {
    createPod('chatty', [{ name: 'chatty', image: 'example/chatty:1' }]);
    clock.step(2_000 * 1000);
    const all = lines((await logs('chatty')).body);
    expect(all.length).toBeGreaterThan(0);
    expect(all.length).toBeLessThan(500);
  });

  it('serves previous logs of a crashed container, ending with its exit lines', async () => {
    crash('worker');
    const previous = lines((await logs('worker', '?previous=true')).body);
    expect(previous.length).toBeGreaterThan(10);
    expect(previous.at(-1)).toContain('panic: runtime error');
    // A crash-looping container waits with no run of its own; its log is the failed run's.
    expect((await logs('worker')).body).toBe((await logs('worker', '?previous=true')).body);
  });

  it("answers kube-apiserver's errors", async () => {
    const status = async (name: string, query = '') => JSON.parse((await logs(name, query)).body);
    expect(await status('web')).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message:
        'a container name must be specified for pod web, choose one of: [web sidecar] or one of the init containers: [migrate]',
    });
    expect((await status('api', '?previous=true')).message).toBe(
      'previous terminated container "api" in pod "api" not found',
    );
    expect((await status('web', '?container=nope')).message).toBe('container nope is not valid for pod web');
    expect(await status('missing')).toMatchObject({ code: 404, message: 'pods "missing" not found' });
    expect(await status('api', '?tailLines=-1')).toMatchObject({
      code: 422,
      message:
        'PodLogOptions "api" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0',
    });
    expect((await status('api', '?sinceSeconds=5&sinceTime=2026-01-01T00:00:00Z')).code).toBe(422);
  });

  it('logs an init container that ran to completion', async () => {
    const init = lines((await logs('web', '?container=migrate')).body);
    expect(init.at(-1)).toContain('done, exiting');
  });
});

describe('kubectl logs against the embedded cluster', () => {
  it('prints a container with -c, --tail and --timestamps', async () => {
    const output = await harness.kubectl(['logs', 'web', '-c', 'sidecar', '--tail=2', '--timestamps']);
    expect(lines(output)).toHaveLength(2);
    expect(output).toMatch(/^2026-01-01T\S+Z \[2026-/);
  });

  it('--since keeps recent lines only', async () => {
    const all = lines(await harness.kubectl(['logs', 'api']));
    const recent = lines(await harness.kubectl(['logs', 'api', '--since=30s']));
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.length).toBeLessThan(all.length);
  });

  it("--previous prints the crashed run, or the server's error when there is none", async () => {
    expect(await harness.kubectl(['logs', 'worker', '--previous'])).toContain('panic: runtime error');
    expect(await harness.kubectlFailure(['logs', 'api', '--previous'])).toContain(
      'Error from server (BadRequest): previous terminated container "api" in pod "api" not found',
    );
  });

  it('-f prints the existing lines, then new lines as the container writes them', async () => {
    const follower = harness.spawn(['logs', '-f', 'api', '--tail=1']);
    await until(() => lines(follower.output()).length === 1);
    clock.step(10_000);
    await until(() => lines(follower.output()).length >= 4);
    const followed = lines(follower.output());
    const after = lines((await logs('api')).body);
    expect(after.slice(-followed.length)).toEqual(followed);
    // The run crashes: the follower gets its last lines, and the stream ends with the run.
    crash('api');
    clock.step(3_000);
    await until(() => follower.output().includes('panic: runtime error'));
    follower.stop();
  });
});

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for kubectl');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
