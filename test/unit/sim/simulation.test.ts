// The controller loop on a FakeClock: Deployment -> ReplicaSet -> pods scheduled and started,
// scaling, rollouts, node failure and rescheduling, jobs, seeding and reproducible churn.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import { ClusterStorage } from '../../../main/sim/cluster-storage';
import { GarbageCollector } from '../../../main/sim/garbage-collector';
import { ObjectStore } from '../../../main/sim/object-store';
import { OwnerIndex } from '../../../main/sim/owner-index';
import { podStageOf } from '../../../main/sim/pod-lifecycle';
import { SeededRandom } from '../../../main/sim/random';
import { ResourceCatalog } from '../../../main/sim/resource-catalog';
import { seedCluster } from '../../../main/sim/seed';
import { Simulation } from '../../../main/sim/simulation';
import type { KubeObject } from '../../../shared/kube/object';

function startCluster(options: { seed?: number; pods?: number; nodes?: number; loop?: boolean } = {}) {
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const random = new SeededRandom(options.seed ?? 1);
  const store = new ObjectStore();
  const storage = new ClusterStorage(store, new ResourceCatalog(), clock, random);
  storage.create(storage.catalog.findAnyVersion('', 'namespaces')!, undefined, {
    metadata: { name: 'default' },
  });
  seedCluster(store, random, clock.now(), {
    pods: options.pods ?? 0,
    nodes: options.nodes ?? 3,
    namespaces: 2,
  });
  const owners = new OwnerIndex(store);
  const collector = new GarbageCollector(store, owners, clock);
  storage.onOrphan = (owner) => collector.orphan(owner);
  const simulation = new Simulation(storage, owners, clock, random, {
    timing: { startupMs: 500, jobRunMs: 1000, evictionGraceMs: 2000, nodeRecoveryMs: 10_000 },
  });
  // loop: false leaves the ticks to the test (tick()), as a blocked event loop would space them.
  if (options.loop !== false) simulation.start();
  const type = (resource: string, group = '') => storage.catalog.findAnyVersion(group, resource)!;
  const all = (resource: string) => [...store.values(resource)].map((stored) => stored.object);
  return {
    clock,
    store,
    storage,
    simulation,
    type,
    all,
    run: (milliseconds: number) => clock.step(milliseconds),
  };
}

function deploymentSpec(replicas: number, image = 'nginx:1'): KubeObject {
  return {
    metadata: { name: 'web' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image }] } },
    },
  };
}

const replicas = (object: KubeObject) => (object.spec as { replicas: number }).replicas;

describe('Simulation', () => {
  it('turns a Deployment into an owned ReplicaSet and Running pods on Ready nodes', () => {
    const cluster = startCluster();
    cluster.storage.create(cluster.type('deployments', 'apps'), 'default', deploymentSpec(3));
    cluster.run(3000);
    const [replicaSet] = cluster.all('replicasets.apps');
    expect(replicaSet.metadata.name).toBe(`web-${replicaSet.metadata.labels?.['pod-template-hash']}`);
    expect(replicaSet.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'Deployment',
      name: 'web',
      controller: true,
    });
    const pods = cluster.all('pods');
    expect(pods).toHaveLength(3);
    for (const pod of pods) {
      expect(pod.metadata.ownerReferences?.[0]).toMatchObject({
        kind: 'ReplicaSet',
        uid: replicaSet.metadata.uid,
        controller: true,
      });
      expect((pod.spec as { nodeName?: string }).nodeName).toMatch(/^node-/);
      expect(podStageOf(pod)).toBe('Running');
    }
    const deployment = cluster.all('deployments.apps')[0];
    expect(deployment.status).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
      updatedReplicas: 3,
      observedGeneration: 1,
    });
  });

  it('passes pods through ContainerCreating before Running', () => {
    const cluster = startCluster();
    cluster.storage.create(cluster.type('deployments', 'apps'), 'default', deploymentSpec(1));
    cluster.run(300);
    expect(podStageOf(cluster.all('pods')[0])).toBe('ContainerCreating');
    cluster.run(2000);
    expect(podStageOf(cluster.all('pods')[0])).toBe('Running');
  });

  it('scales a Deployment down by deleting pods', () => {
    const cluster = startCluster();
    const deployments = cluster.type('deployments', 'apps');
    cluster.storage.create(deployments, 'default', deploymentSpec(4));
    cluster.run(3000);
    cluster.storage.mutate(deployments, 'default', 'web', (deployment) => {
      (deployment.spec as { replicas: number }).replicas = 1;
    });
    cluster.run(1000);
    expect(cluster.all('pods')).toHaveLength(1);
  });

  it('rolls out a template change to a new ReplicaSet and scales the old one to zero', () => {
    const cluster = startCluster();
    const deployments = cluster.type('deployments', 'apps');
    cluster.storage.create(deployments, 'default', deploymentSpec(2, 'nginx:1'));
    cluster.run(3000);
    cluster.storage.update(deployments, 'default', 'web', deploymentSpec(2, 'nginx:2'));
    cluster.run(10_000);
    const replicaSets = cluster.all('replicasets.apps');
    expect(replicaSets).toHaveLength(2);
    const images = cluster
      .all('pods')
      .map((pod) => (pod.spec as { containers: { image: string }[] }).containers[0].image);
    expect(images).toEqual(['nginx:2', 'nginx:2']);
    expect(replicaSets.map(replicas).sort()).toEqual([0, 2]);
    expect(
      replicaSets
        .map((replicaSet) => replicaSet.metadata.annotations?.['deployment.kubernetes.io/revision'])
        .sort(),
    ).toEqual(['1', '2']);
  });

  it('a template rolled back to reuses its ReplicaSet at the next revision, and the Deployment carries it', () => {
    const cluster = startCluster();
    const deployments = cluster.type('deployments', 'apps');
    cluster.storage.create(deployments, 'default', deploymentSpec(2, 'nginx:1'));
    cluster.run(3000);
    const revisionOf = (object: KubeObject) =>
      object.metadata.annotations?.['deployment.kubernetes.io/revision'];
    const deployment = () => cluster.storage.find(deployments, 'default', 'web')!.object;
    expect(revisionOf(deployment())).toBe('1');
    cluster.storage.update(deployments, 'default', 'web', {
      ...deployment(),
      ...deploymentSpec(2, 'nginx:2'),
    });
    cluster.run(10_000);
    expect(revisionOf(deployment())).toBe('2');
    // `kubectl rollout undo` writes back the old ReplicaSet's template as Go marshals it: keys sorted,
    // creationTimestamp null, the pod-template-hash label removed.
    const first = cluster.all('replicasets.apps').find((replicaSet) => revisionOf(replicaSet) === '1')!;
    const restored = structuredClone(
      (first.spec as { template: { metadata: { labels: Record<string, string> }; spec: unknown } }).template,
    );
    delete restored.metadata.labels['pod-template-hash'];
    const written = {
      spec: restored.spec,
      metadata: { labels: restored.metadata.labels, creationTimestamp: null },
    };
    cluster.storage.update(deployments, 'default', 'web', {
      ...deployment(),
      spec: { ...(deployment().spec as object), template: written },
    });
    cluster.run(10_000);
    const replicaSets = cluster.all('replicasets.apps');
    expect(replicaSets).toHaveLength(2);
    const reused = replicaSets.find((replicaSet) => replicaSet.metadata.name === first.metadata.name)!;
    expect(revisionOf(reused)).toBe('3');
    expect(reused.metadata.annotations?.['deployment.kubernetes.io/revision-history']).toBe('1');
    expect(replicas(reused)).toBe(2);
    expect(revisionOf(deployment())).toBe('3');
    const images = cluster
      .all('pods')
      .map((pod) => (pod.spec as { containers: { image: string }[] }).containers[0].image);
    expect(images).toEqual(['nginx:1', 'nginx:1']);
  });

  it('evicts the pods of a failed node, reschedules them elsewhere, and recovers the node', () => {
    const cluster = startCluster({ nodes: 4 });
    cluster.storage.create(cluster.type('deployments', 'apps'), 'default', deploymentSpec(8));
    cluster.run(3000);
    const victim = (cluster.all('pods')[0].spec as { nodeName: string }).nodeName;
    expect(cluster.simulation.kubelet.failNode(victim)).toBe(true);
    expect(cluster.simulation.kubelet.readyNodes()).not.toContain(victim);
    cluster.run(5000);
    const pods = cluster.all('pods');
    expect(pods).toHaveLength(8);
    expect(pods.every((pod) => (pod.spec as { nodeName: string }).nodeName !== victim)).toBe(true);
    expect(cluster.all('events').some((event) => event.reason === 'NodeNotReady')).toBe(true);
    cluster.run(10_000);
    expect(cluster.simulation.kubelet.readyNodes()).toContain(victim);
  });

  it('never binds a pod to a cordoned node, and binds the waiting ones once a node is uncordoned', () => {
    const cluster = startCluster({ nodes: 2 });
    const nodes = cluster.type('nodes');
    const cordon = (name: string, unschedulable: boolean) =>
      cluster.storage.mutate(nodes, undefined, name, (node) => {
        node.spec = { ...(node.spec as object), unschedulable };
      });
    const [first, second] = cluster.all('nodes').map((node) => node.metadata.name!);
    cordon(first, true);
    cluster.storage.create(cluster.type('deployments', 'apps'), 'default', deploymentSpec(4));
    cluster.run(3000);
    const nodeOf = (pod: KubeObject) => (pod.spec as { nodeName?: string }).nodeName;
    expect(cluster.all('pods').map(nodeOf)).toEqual([second, second, second, second]);
    // The node lifecycle controller taints a cordoned node, as `kubectl describe node` shows it.
    const taints = (name: string) =>
      (cluster.storage.find(nodes, undefined, name)!.object.spec as { taints?: object[] }).taints;
    expect(taints(first)).toEqual([
      { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: expect.any(String) },
    ]);
    expect(taints(second)).toBeUndefined();
    cordon(second, true);
    cluster.storage.mutate(cluster.type('deployments', 'apps'), 'default', 'web', (deployment) => {
      (deployment.spec as { replicas: number }).replicas = 6;
    });
    cluster.run(3000);
    const waiting = () => cluster.all('pods').filter((pod) => nodeOf(pod) === undefined);
    expect(waiting().map(podStageOf)).toEqual(['Unschedulable', 'Unschedulable']);
    cordon(first, false);
    cluster.run(3000);
    expect(taints(first)).toBeUndefined();
    expect(waiting()).toEqual([]);
    expect(cluster.all('pods').filter((pod) => nodeOf(pod) === first)).toHaveLength(2);
  });

  it('gives a namespace created later its default ServiceAccount, as the serviceaccounts controller does', () => {
    const cluster = startCluster();
    cluster.storage.create(cluster.type('namespaces'), undefined, { metadata: { name: 'shop' } });
    cluster.run(200);
    const accounts = cluster
      .all('serviceaccounts')
      .filter((account) => account.metadata.namespace === 'shop');
    expect(accounts.map((account) => account.metadata.name)).toEqual(['default']);
  });

  it('runs a Job to completion and deletes it after its TTL', () => {
    const cluster = startCluster();
    cluster.storage.create(cluster.type('jobs', 'batch'), 'default', {
      metadata: { name: 'once' },
      spec: {
        ttlSecondsAfterFinished: 5,
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'task', image: 'busybox' }] } },
      },
    });
    cluster.run(4000);
    const job = cluster.all('jobs.batch')[0];
    expect(job.status).toMatchObject({
      succeeded: 1,
      conditions: expect.arrayContaining([expect.objectContaining({ type: 'Complete', status: 'True' })]),
    });
    expect(podStageOf(cluster.all('pods')[0])).toBe('Succeeded');
    cluster.run(6000);
    expect(cluster.all('jobs.batch')).toHaveLength(0);
    expect(cluster.all('pods')).toHaveLength(0);
  });

  it('keeps one DaemonSet pod on every Ready node', () => {
    const cluster = startCluster({ nodes: 3 });
    cluster.storage.create(cluster.type('daemonsets', 'apps'), 'default', {
      metadata: { name: 'agent' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: { containers: [{ name: 'agent', image: 'agent:1' }] },
        },
      },
    });
    cluster.run(3000);
    const nodesOf = () =>
      cluster
        .all('pods')
        .map((pod) => (pod.spec as { nodeName: string }).nodeName)
        .sort();
    expect(nodesOf()).toEqual(['node-0000', 'node-0001', 'node-0002']);
    expect(cluster.all('pods').every((pod) => podStageOf(pod) === 'Running')).toBe(true);
    cluster.simulation.kubelet.failNode('node-0001');
    cluster.run(500);
    expect(nodesOf()).toEqual(['node-0000', 'node-0002']);
    expect(cluster.all('daemonsets.apps')[0].status).toMatchObject({
      desiredNumberScheduled: 2,
      numberReady: 2,
    });
  });

  it('seeds consistent ownership: every pod has a live controller, ReplicaSets belong to Deployments', () => {
    const cluster = startCluster({ pods: 300, nodes: 5 });
    const pods = cluster.all('pods');
    expect(pods).toHaveLength(300);
    const controllers = new Map(
      ['replicasets.apps', 'statefulsets.apps', 'daemonsets.apps', 'jobs.batch'].flatMap((resource) =>
        cluster.all(resource).map((owner) => [owner.metadata.uid, owner] as const),
      ),
    );
    const deployments = new Set(cluster.all('deployments.apps').map((deployment) => deployment.metadata.uid));
    for (const pod of pods) {
      const reference = pod.metadata.ownerReferences?.find((owner) => owner.controller);
      const owner = controllers.get(reference?.uid);
      expect(owner?.kind).toBe(reference?.kind);
      if (owner?.kind !== 'ReplicaSet') continue;
      expect(owner.metadata.labels?.['pod-template-hash']).toBe(pod.metadata.labels?.['pod-template-hash']);
      expect(deployments.has(owner.metadata.ownerReferences?.[0].uid)).toBe(true);
    }
    expect(new Set(pods.map((pod) => pod.metadata.ownerReferences?.[0].kind))).toEqual(
      new Set(['ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job']),
    );
    // A seeded Deployment has rolled out its first ReplicaSet, as `kubectl rollout undo` expects.
    for (const deployment of cluster.all('deployments.apps'))
      expect(deployment.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
    cluster.run(3000);
    expect(cluster.all('pods')).toHaveLength(300);
  });

  it('reproduces the same seeded cluster and the same churn from the same seed', () => {
    const snapshot = (seed: number) => {
      const cluster = startCluster({ seed, pods: 200, nodes: 5 });
      cluster.simulation.setChurn(50);
      cluster.run(5000);
      return {
        resourceVersion: cluster.store.resourceVersion,
        pods: cluster
          .all('pods')
          .map((pod) => `${pod.metadata.name}@${pod.metadata.resourceVersion}`)
          .sort(),
      };
    };
    const first = snapshot(11);
    expect(first.resourceVersion).toBeGreaterThan(200);
    expect(snapshot(11)).toEqual(first);
    expect(snapshot(12)).not.toEqual(first);
  });

  it('churns at the rate of changes it is set to, follow-ups included, one node down at a time', () => {
    // A failed node's evictions are ~20 changes a pod (deleted, replaced, scheduled, started,
    // evented): when churn counted actions and failed a node in every hundred, they were most of its
    // changes and ran far past the rate.
    const cluster = startCluster({ seed: 3, pods: 3_000, nodes: 20 });
    cluster.run(5_000);
    const settled = cluster.store.resourceVersion;
    cluster.simulation.setChurn(200);
    const nodes = cluster.all('nodes').length;
    let nodeFailures = 0;
    let mostDown = 0;
    const stop = cluster.store.subscribe((event) => {
      if (event.resource !== 'nodes' || event.type !== 'MODIFIED') return;
      const down = nodes - cluster.simulation.kubelet.readyNodes().length;
      if (down > 0) nodeFailures++;
      mostDown = Math.max(mostDown, down);
    });
    cluster.run(120_000);
    stop();
    const changes = cluster.store.resourceVersion - settled;
    expect(nodeFailures).toBeGreaterThan(0);
    expect(mostDown).toBe(1);
    expect(changes / 120).toBeGreaterThan(180);
    expect(changes / 120).toBeLessThan(220);
  });

  it('says how much churn time late ticks could not make up, and makes up at most a second', () => {
    const cluster = startCluster({ seed: 3, pods: 3_000, nodes: 20, loop: false });
    cluster.simulation.setChurn(200);
    for (let tick = 0; tick < 50; tick++) {
      cluster.simulation.tick();
      cluster.run(100);
    }
    expect(cluster.simulation.churnTiming).toEqual({
      unchurnedMs: 0,
      longestTickGapMs: 100,
      longestTickWorkMs: 0,
    });
    // The loop blocked for 3.5 s (a large LIST served, say): the next tick churns for one second at most
    // (3.5 s of churn at once would be 700 changes in one burst; follow-ups meanwhile count against it).
    cluster.run(3_400);
    const before = cluster.store.resourceVersion;
    cluster.simulation.tick();
    const made = cluster.store.resourceVersion - before;
    expect(cluster.simulation.churnTiming).toEqual({
      unchurnedMs: 2_500,
      longestTickGapMs: 3_500,
      longestTickWorkMs: 0,
    });
    expect(made).toBeLessThanOrEqual(400);
  });
});
