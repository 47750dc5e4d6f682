import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/kube/object';
import { podMetricsText } from '../../../main/sim/pod-metrics-text';
import type { PodUsage } from '../../../main/sim/metrics-usage';

const groupVersion = 'metrics.k8s.io/v1beta1';

/** The item as metrics-server builds it, stringified whole: what the pieces must equal byte for byte. */
function expected(usage: PodUsage, now: string, timestamp: string, window: string): string {
  const { name, namespace, labels } = usage.pod.metadata;
  return JSON.stringify({
    kind: 'PodMetrics',
    apiVersion: groupVersion,
    metadata: {
      name,
      ...(namespace ? { namespace } : {}),
      creationTimestamp: now,
      ...(labels ? { labels } : {}),
    },
    timestamp,
    window,
    containers: usage.containers.map((container) => ({
      name: container.name,
      usage: {
        cpu: `${Math.round(container.cpu * 1e9)}n`,
        memory: `${Math.round(container.memory / 1024)}Ki`,
      },
    })),
  });
}

const pod = (metadata: KubeObject['metadata']): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata });

describe('podMetricsText', () => {
  const now = '2026-12-06T02:00:00Z';
  const timestamp = '2026-12-06T01:59:45Z';
  const cases: PodUsage[] = [
    {
      pod: pod({ name: 'web-0', namespace: 'shop', labels: { app: 'web', 'tier"x': 'a\\b\u2028' } }),
      containers: [
        { name: 'app', cpu: 0.123456789, memory: 200 * 1024 * 1024 + 700 },
        { name: 'side"car', cpu: 0, memory: 0 },
      ],
    },
    { pod: pod({ name: 'lonely', namespace: '' }), containers: [] },
    {
      pod: pod({ name: 'bare', namespace: 'default', labels: {} }),
      containers: [{ name: 'c', cpu: 2, memory: 1 }],
    },
  ];

  it("writes metrics-server's item byte for byte, for every shape of pod", () => {
    for (const usage of cases) {
      const text = podMetricsText(
        usage,
        groupVersion,
        JSON.stringify(now),
        JSON.stringify(timestamp),
        '"15s"',
      );
      expect(text).toBe(expected(usage, now, timestamp, '15s'));
    }
  });

  it("writes each scrape's values into the pieces kept for the pod", () => {
    const usage = cases[0]!;
    podMetricsText(usage, groupVersion, '"a"', '"b"', '"15s"');
    const later: PodUsage = {
      pod: usage.pod,
      containers: usage.containers.map((container) => ({ ...container, cpu: container.cpu * 3 })),
    };
    const text = podMetricsText(later, groupVersion, JSON.stringify(now), JSON.stringify(timestamp), '"30s"');
    expect(text).toBe(expected(later, now, timestamp, '30s'));
  });
});
