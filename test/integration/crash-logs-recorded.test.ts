// Crash logs kept in history against the embedded cluster over real HTTP (issue 14): a session that
// records pods sees a container crash-loop, reads its previous run's logs through the RestClient and
// the recording keeps them, tied to the pod's uid; after the pod is deleted, the history query worker
// still answers them at the moment of the crash. The cluster runs on a FakeClock (the test decides
// when the container crashes); main runs on the real clock with a real recording worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterSession } from '../../main/bridge/cluster-session';
import { FakeClock } from '../../main/cache/fake-clock';
import { realClock } from '../../main/cache/real-clock';
import { HistoryQueries } from '../../main/history/history-queries';
import { Recorder } from '../../main/history/recorder';
import type { ClusterConnection } from '../../main/kube/cluster-connection';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { httpListerWatcher } from '../../main/kube/lister-watcher';
import { podLogOpener } from '../../main/kube/pod-log-request';
import { RestClient } from '../../main/kube/rest-client';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import { setPodStage } from '../../main/sim/pod-lifecycle';
import type { TempDirectory } from '../unit/history/fixtures';
import { tempDirectory } from '../unit/history/fixtures';

const simClock = new FakeClock(Date.UTC(2026, 0, 1, 12));
let cluster: EmbeddedCluster;
let connection: ClusterConnection;
let session: ClusterSession;
let recorder: Recorder;
let directory: TempDirectory;
const queries = new HistoryQueries();

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  directory = tempDirectory();
  cluster = await startEmbeddedCluster({ clock: simClock, simulate: false });
  connection = Kubeconfig.fromString(cluster.kubeconfigYaml()).connect();
  const client = new RestClient(connection);
  recorder = await Recorder.open({
    file: directory.file('crash.kubetide'),
    context: 'embedded',
    clock: realClock,
  });
  session = new ClusterSession({
    context: 'embedded',
    newListerWatcher: (gvr, namespace, tweak) => httpListerWatcher(client, gvr, namespace, tweak),
    openPodLog: (namespace, pod) => podLogOpener(client, namespace, pod),
    recording: {
      recorder,
      file: recorder.file,
      kinds: [{ group: '', version: 'v1', resource: 'pods' }],
      crashLogs: true,
    },
  });
  const pods = cluster.resource('pods');
  cluster.storage.create(pods, 'default', {
    metadata: { name: 'worker' },
    spec: { nodeName: 'node-0', containers: [{ name: 'worker', image: 'example/worker:2.1' }] },
  });
  cluster.storage.mutate(pods, 'default', 'worker', (copy) => setPodStage(copy, 'Running', simClock.now()));
  simClock.step(60_000);
});

afterAll(async () => {
  queries.close();
  await session?.close();
  await recorder?.close();
  connection?.close();
  await cluster?.close();
  directory?.remove();
});

describe('crash logs recorded from the embedded cluster', () => {
  it("keeps a crash-looping container's previous logs, readable after the pod is deleted", async () => {
    const pods = cluster.resource('pods');
    const uid = cluster.storage.get(pods, 'default', 'worker').object.metadata.uid!;
    // Let the informer list the running pod first: a crash is a change from a status it has seen.
    await until(async () => {
      await recorder.flushed();
      return recorder.stats().changesWritten >= 1;
    });
    const before = Date.now();
    cluster.storage.mutate(pods, 'default', 'worker', (copy) =>
      setPodStage(copy, 'CrashLoopBackOff', simClock.now(), 1),
    );
    await until(async () => {
      await recorder.flushed();
      return (
        recorder.pendingCrashLogs() === 0 &&
        (await queries.crashLogs(recorder.file, uid, Date.now())).length > 0
      );
    });
    cluster.storage.delete(pods, 'default', 'worker');
    await until(async () => {
      await recorder.flushed();
      return recorder.stats().changesWritten >= 3;
    });

    const [recorded, ...others] = await queries.crashLogs(recorder.file, uid, Date.now());
    expect(others).toEqual([]);
    expect(recorded).toMatchObject({
      uid,
      namespace: 'default',
      pod: 'worker',
      container: 'worker',
    });
    expect(recorded!.problem).toBeUndefined();
    expect(recorded!.time).toBeGreaterThanOrEqual(before);
    expect(recorded!.containerId).not.toBe('');
    // The sim's crashed run ends with its panic: the previous instance's logs, not the new run's.
    expect(recorded!.logs.trimEnd().split('\n').at(-1)).toContain('panic: runtime error');
    expect(await queries.crashLogs(recorder.file, uid, recorded!.time - 1)).toEqual([]);
  });
});
