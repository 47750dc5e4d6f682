// The embedded metrics-server's samples: taken once per 15 s window however often read, reproducible
// from the seed, scaled to requests and capped by limits, near zero for a crash-looping pod, none for
// pods that do not run or sit on a NotReady node, and a node's usage at least the sum of its pods'.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/kube/object';
import { MetricsScraper } from '../../../main/sim/metrics-usage';
import { ObjectStore } from '../../../main/sim/object-store';
import { setPodStage } from '../../../main/sim/pod-lifecycle';
import type { PodStage } from '../../../main/sim/pod-lifecycle';
import { buildNode, nodeConditions } from '../../../main/sim/workload-objects';

const start = Date.UTC(2026, 0, 1);
const mebibyte = 2 ** 20;

function pod(name: string, node: string, stage: PodStage, resources: object): KubeObject {
  const object: KubeObject = {
    metadata: { name, namespace: 'shop', uid: `uid-${name}` },
    spec: { nodeName: node, containers: [{ name: 'app', resources }] },
  };
  setPodStage(object, stage, start, stage === 'CrashLoopBackOff' ? 3 : 0);
  return object;
}

function cluster(): ObjectStore {
  const store = new ObjectStore();
  store.put('nodes', 'node-a', buildNode('node-a', 0, { uid: 'node-a' }, start));
  const down = buildNode('node-b', 1, { uid: 'node-b' }, start);
  (down.status as { conditions: unknown }).conditions = nodeConditions(false, '2026-01-01T00:00:00Z');
  store.put('nodes', 'node-b', down);
  const requests = { requests: { cpu: '200m', memory: '256Mi' }, limits: { cpu: '300m', memory: '300Mi' } };
  store.put('pods', 'shop/web', pod('web', 'node-a', 'Running', requests));
  store.put('pods', 'shop/crashing', pod('crashing', 'node-a', 'CrashLoopBackOff', requests));
  store.put('pods', 'shop/pending', pod('pending', 'node-a', 'ContainerCreating', requests));
  store.put('pods', 'shop/stranded', pod('stranded', 'node-b', 'Running', requests));
  return store;
}

describe('MetricsScraper', () => {
  it('samples running pods on Ready nodes only', () => {
    const scrape = new MetricsScraper(cluster(), 1).scrape(start);
    expect([...scrape.pods.keys()].sort()).toEqual(['shop/crashing', 'shop/web']);
    expect([...scrape.nodes.keys()]).toEqual(['node-a']);
  });

  it('takes one sample per 15 s window, stamped with the window start', () => {
    const scraper = new MetricsScraper(cluster(), 1);
    const first = scraper.scrape(start + 1_000);
    expect(scraper.scrape(start + 14_999)).toBe(first);
    expect(first.timestamp).toBe(start);
    const next = scraper.scrape(start + 15_000);
    expect(next.timestamp).toBe(start + 15_000);
    expect(next.pods.get('shop/web')!.containers[0]!.cpu).not.toBe(
      first.pods.get('shop/web')!.containers[0]!.cpu,
    );
  });

  it('is reproducible from the seed, and differs with another', () => {
    const cpu = (seed: number) =>
      [0, 1, 2, 3]
        .map((window) => new MetricsScraper(cluster(), seed).scrape(start + window * 15_000))
        .map((scrape) => scrape.pods.get('shop/web')!.containers[0]!.cpu);
    expect(cpu(7)).toEqual(cpu(7));
    expect(cpu(7)).not.toEqual(cpu(8));
  });

  it('stays within the limits, and near zero while crash-looping', () => {
    const scraper = new MetricsScraper(cluster(), 3);
    for (let window = 0; window < 200; window++) {
      const scrape = scraper.scrape(start + window * 15_000);
      const web = scrape.pods.get('shop/web')!.containers[0]!;
      expect(web.cpu).toBeLessThanOrEqual(0.3);
      expect(web.memory).toBeLessThan(300 * mebibyte);
      expect(web.memory).toBeGreaterThan(100 * mebibyte);
      const crashing = scrape.pods.get('shop/crashing')!.containers[0]!;
      expect(crashing.cpu).toBeLessThan(0.003);
      expect(crashing.memory).toBeLessThan(5 * mebibyte);
    }
  });

  it("reports a node's usage as its pods' plus system overhead", () => {
    const scrape = new MetricsScraper(cluster(), 1).scrape(start);
    const pods = [...scrape.pods.values()].flatMap((usage) => usage.containers);
    const node = scrape.nodes.get('node-a')!;
    const podCpu = pods.reduce((sum, container) => sum + container.cpu, 0);
    const podMemory = pods.reduce((sum, container) => sum + container.memory, 0);
    expect(node.cpu).toBeGreaterThan(podCpu + 0.05);
    expect(node.memory).toBeGreaterThan(podMemory + 500 * mebibyte);
  });
});
