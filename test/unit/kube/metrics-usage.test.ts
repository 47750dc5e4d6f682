// A metrics LIST read into columns as its items arrive (metrics-usage.ts), with the keys kept from poll
// to poll (metrics-keys.ts): what the poller sums and the recorder numbers, item for item.
import { describe, expect, it } from 'vitest';
import { MetricsKeys } from '../../../main/kube/metrics-keys';
import type { MetricsList } from '../../../main/kube/metrics-list';
import { MetricsUsageBuilder, metricsUsageOf, nameOf } from '../../../main/kube/metrics-usage';

const scraped = '2026-01-01T00:00:00Z';

const pods: MetricsList = {
  items: [
    {
      metadata: { name: 'web-1', namespace: 'shop' },
      timestamp: scraped,
      window: '15s',
      containers: [
        { name: 'app', usage: { cpu: '250000000n', memory: '1024Ki' } },
        { name: 'proxy', usage: { cpu: '5m', memory: '1Mi' } },
      ],
    },
    { metadata: { namespace: 'shop' }, timestamp: scraped, containers: [{ name: 'app', usage: {} }] },
    { metadata: { name: 'idle', namespace: 'batch' }, containers: [] },
    {
      metadata: { name: 'web-2', namespace: 'shop' },
      timestamp: 'yesterday',
      window: '1m0s',
      containers: [{ name: 'app', usage: { cpu: 'lots' } }],
    },
  ],
};

describe('metrics usage columns', () => {
  it('reads each named item: its key, namespace, time and window, and per container its usage', () => {
    const usage = metricsUsageOf('pods', pods);
    expect(usage.keys).toEqual(['shop/web-1', 'batch/idle', 'shop/web-2']);
    expect([0, 1, 2].map((object) => nameOf(usage, object))).toEqual(['web-1', 'idle', 'web-2']);
    expect(usage.namespaceNames).toEqual(['shop', 'batch']);
    expect(usage.namespaces).toEqual([0, 1, 0]);
    expect(usage.timestamps).toEqual([Date.parse(scraped), Number.NaN, Number.NaN]);
    expect(usage.windowsMs).toEqual([15_000, Number.NaN, 60_000]);
    // web-1's two containers, none for idle, one for web-2.
    expect(usage.containerStarts).toEqual([0, 2, 2, 3]);
    expect(usage.containerNames).toEqual(['app', 'proxy']);
    expect(usage.containers).toEqual([0, 1, 0]);
    expect(usage.cpu).toEqual([0.25, 0.005, 0]);
    expect(usage.memory).toEqual([1024 * 1024, 1024 * 1024, 0]);
  });

  it('reads a node\'s usage as one container named "", keyed by the node\'s name', () => {
    const usage = metricsUsageOf('nodes', {
      items: [{ metadata: { name: 'node-1' }, timestamp: scraped, usage: { cpu: '2', memory: '4Gi' } }],
    });
    expect(usage.keys).toEqual(['node-1']);
    expect(nameOf(usage, 0)).toBe('node-1');
    expect(usage.containerNames).toEqual(['']);
    expect(usage.cpu).toEqual([2]);
    expect(usage.memory).toEqual([4 * 2 ** 30]);
  });

  it('holds every item when the list is longer or shorter than the last poll said, each column cut to it', () => {
    const list = (count: number): MetricsList => ({
      items: Array.from({ length: count }, (_, index) => ({
        metadata: { name: `pod-${index}`, namespace: 'shop' },
        containers: [{ name: 'app', usage: { cpu: `${index}m`, memory: '1Ki' } }],
      })),
    });
    for (const [expected, count] of [
      [3, 40],
      [40, 3],
      [0, 5],
    ] as const) {
      const builder = new MetricsUsageBuilder('pods', new MetricsKeys(), expected);
      for (const item of list(count).items!) builder.add(item);
      const usage = builder.finish();
      expect(usage).toEqual(metricsUsageOf('pods', list(count)));
      for (const column of [usage.keys, usage.namespaces, usage.timestamps, usage.windowsMs])
        expect(column).toHaveLength(count);
      expect(usage.containerStarts).toHaveLength(count + 1);
      expect(usage.cpu).toEqual(Array.from({ length: count }, (_, index) => index * 1e-3));
    }
  });
});

describe('MetricsKeys', () => {
  it('forgets, once a poll is complete, the keys it did not make, and counts what it listed', () => {
    const keys = new MetricsKeys();
    keys.begin();
    expect([keys.key('shop', 'web-1'), keys.key('shop', 'web-2'), keys.key('', 'node-1')]).toEqual([
      'shop/web-1',
      'shop/web-2',
      'node-1',
    ]);
    keys.sweep();
    expect(keys.lastCount).toBe(3);
    keys.begin();
    keys.key('shop', 'web-2');
    // A poll that failed is never swept: what it did not make stays for the next.
    keys.begin();
    keys.key('shop', 'web-2');
    keys.key('shop', 'web-3');
    keys.sweep();
    expect(keys.lastCount).toBe(2);
  });
});
