// The metrics worker (metrics-worker.ts, with main's side in metrics-worker-work.ts): a poll read
// there, from the reply's bytes in arbitrary chunks, gives main the very message and recorded samples
// that reading it on main's thread gives (InlineMetricsPollWork), poll after poll as pods come and go
// (key numbers freed and given again); main gets each reply in a turn of its own; a reply that is not
// JSON fails its list; a worker that dies fails what it owed and the next poll starts another.
import { describe, expect, it } from 'vitest';
import type { Worker } from 'node:worker_threads';
import { realClock } from '../../../main/cache/real-clock';
import { InlineMetricsPollWork, type MetricsPollWork } from '../../../main/bridge/metrics-poll-work';
import { MetricsWorkerWork, type MetricsReplyFetch } from '../../../main/bridge/metrics-worker-work';
import { startHistoryWorker } from '../../../main/history/history-worker';
import { MetricSampleCapture } from '../../../main/history/metric-sample-capture';
import type { MetricSamplesEntry } from '../../../main/history/recording-protocol';
import type { CachedObject } from '../../../main/history/series-owner';
import type { MetricsList } from '../../../main/kube/metrics-list';
import { MetricsListReader } from '../../../main/kube/metrics-list';
import type { ReplyReader } from '../../../main/kube/rest-client';
import type { KubeObject } from '../../../shared/kube/object';
import type { MetricsMessage, MetricsResource } from '../../../shared/protocol/metrics-messages';

/** A poll's pods: `names` in namespaces a, b, c; every fourth with a sidecar; usage from `seed`. */
function podList(names: readonly number[], seed: number): MetricsList {
  return {
    kind: 'PodMetricsList',
    items: names.map((id) => ({
      metadata: { name: `web-${id}`, namespace: ['a', 'b', 'c'][id % 3]! },
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, seed)).toISOString(),
      window: '15s',
      containers: [
        { name: 'app', usage: { cpu: `${(id * 7 + seed) % 900}m`, memory: `${(id * 13 + seed) % 5000}Ki` } },
        ...(id % 4 === 0 ? [{ name: 'proxy', usage: { cpu: `${seed}n`, memory: '1Mi' } }] : []),
      ],
    })),
  } as MetricsList;
}

/** The pods' cache: every pod but every fifth (not informed yet), owned by a ReplicaSet. */
const cachedObject: CachedObject = (resource, namespace, name) => {
  const id = Number(name.slice('web-'.length));
  if (resource !== 'pods' || id % 5 === 0) return undefined;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      uid: `uid-${id}`,
      labels: { 'pod-template-hash': 'h' },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `web-h`, uid: 'r', controller: true },
      ],
    },
  } as KubeObject;
};

/** Hands `list`'s JSON to `reader` in chunks of random sizes, as a socket does. */
function replying(lists: (namespace: string) => MetricsList, random: () => number) {
  return async <T>(
    _resource: MetricsResource,
    namespace: string,
    _signal: AbortSignal,
    reader: ReplyReader<T>,
  ) => {
    const bytes = Buffer.from(JSON.stringify(lists(namespace)));
    for (let at = 0; at < bytes.length;) {
      const size = 1 + Math.floor(random() * 70_000);
      reader.push(bytes.subarray(at, at + size));
      at += size;
      await Promise.resolve();
    }
    return reader.finish();
  };
}

/** Pushes each of `texts()` as a chunk, then, once `before` settles, finishes. */
function pushing(texts: () => string[], before = () => Promise.resolve()): MetricsReplyFetch {
  return async <T>(
    _resource: MetricsResource,
    _namespace: string,
    _signal: AbortSignal,
    reader: ReplyReader<T>,
  ) => {
    for (const text of texts()) reader.push(Buffer.from(text));
    await before();
    return reader.finish();
  };
}

function seeded(seed: number): () => number {
  return () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

/** One poll through `work`: begin, a list per namespace, finish. */
async function poll(
  work: MetricsPollWork,
  namespaces: readonly string[],
  polledAt: number,
  resource: MetricsResource = 'pods',
): Promise<MetricsMessage> {
  work.begin(resource);
  const signal = new AbortController().signal;
  const lists = [];
  for (const namespace of namespaces) lists.push(await work.list(resource, namespace, signal));
  return work.finish(resource, lists, polledAt);
}

/** Samples as plain arrays, whatever arrays they came in. */
function plain(entry: MetricSamplesEntry) {
  return {
    ...entry,
    series: Array.from(entry.series),
    timestamps: Array.from(entry.timestamps),
    windowsMs: Array.from(entry.windowsMs),
    millicores: Array.from(entry.millicores),
    bytes: Array.from(entry.bytes),
  };
}

describe('the metrics worker', () => {
  it('gives main the message and samples reading on main gives, poll after poll, as pods come and go', async () => {
    const random = seeded(7);
    let names: number[] = Array.from({ length: 12_000 }, (_, index) => index);
    let seed = 0;
    const listed = (namespace: string) => {
      const list = podList(names, seed);
      if (namespace) list.items = list.items!.filter((item) => item.metadata!.namespace === namespace);
      return list;
    };
    const inlineSamples: MetricSamplesEntry[] = [];
    const workerSamples: MetricSamplesEntry[] = [];
    const inline = new InlineMetricsPollWork({
      clock: realClock,
      fetch: (resource, namespace, signal, keys) =>
        replying(listed, random)(
          resource,
          namespace,
          signal,
          new MetricsListReader(resource, namespace, keys),
        ),
      capture: new MetricSampleCapture({ record: (entry) => inlineSamples.push(entry), cachedObject }),
    });
    const worker = new MetricsWorkerWork({
      fetch: replying(listed, random),
      record: (entry) => workerSamples.push(entry),
      cachedObject,
      reportError: (context, error) => expect.fail(`${context} ${String(error)}`),
    });
    try {
      for (let round = 0; round < 5; round++) {
        seed = round + 1;
        // Per namespace in some rounds, as a namespace-limited user's poll lists.
        const namespaces = round % 2 === 1 ? ['a', 'b', 'c'] : [''];
        const expected = await poll(inline, namespaces, 1_000 * round);
        const message = await poll(worker, namespaces, 1_000 * round);
        expect(message).toEqual(expected);
        // The samples come after the message; inline numbering runs after it too.
        await expect
          .poll(() => workerSamples.length + inlineSamples.length, { timeout: 10_000 })
          .toBeGreaterThan(0);
        await expect.poll(() => workerSamples.some((entry) => entry.series.length > 0)).toBe(true);
        await expect.poll(() => inlineSamples.some((entry) => entry.series.length > 0)).toBe(true);
        // Parts differ in where they are cut (the worker's go through metricSamplesParts): compare the poll.
        const merged = (entries: MetricSamplesEntry[]) => {
          const all = entries.map(plain);
          return {
            definitions: all.flatMap((entry) => entry.definitions),
            samples: all
              .filter((entry) => entry.series.length > 0)
              .map(({ definitions: _, ...rest }) => rest),
          };
        };
        expect(merged(workerSamples)).toEqual(merged(inlineSamples));
        expect(workerSamples.every((entry) => ArrayBuffer.isView(entry.series))).toBe(true);
        workerSamples.length = inlineSamples.length = 0;
        // Pods go (their key numbers freed) and new ones come (given those numbers again).
        names = names
          .filter((id) => (id + round) % 7 !== 0)
          .concat(Array.from({ length: 1_500 }, (_, index) => 100_000 * (round + 1) + index));
      }
    } finally {
      worker.close();
    }
  }, 60_000);

  it('reads nodes as reading on main does: one series a node, no question about the cache', async () => {
    const nodes = (seed: number): MetricsList => ({
      items: Array.from({ length: 40 }, (_, id) => ({
        metadata: { name: `node-${id}` },
        timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, seed)).toISOString(),
        window: '20s',
        usage: { cpu: `${id * 100 + seed}m`, memory: `${id + 1}Gi` },
      })),
    });
    let seed = 1;
    const inlineSamples: MetricSamplesEntry[] = [];
    const workerSamples: MetricSamplesEntry[] = [];
    const fetch = replying(() => nodes(seed), seeded(5));
    const inline = new InlineMetricsPollWork({
      clock: realClock,
      fetch: (resource, namespace, signal, keys) =>
        fetch(resource, namespace, signal, new MetricsListReader(resource, namespace, keys)),
      capture: new MetricSampleCapture({ record: (entry) => inlineSamples.push(entry), cachedObject }),
    });
    const worker = new MetricsWorkerWork({
      fetch,
      record: (entry) => workerSamples.push(entry),
      cachedObject: () => expect.fail('nodes ask the cache nothing'),
      reportError: (context, error) => expect.fail(`${context} ${String(error)}`),
    });
    try {
      for (; seed <= 2; seed++) {
        const message = await poll(worker, [''], seed, 'nodes');
        expect(message).toEqual(await poll(inline, [''], seed, 'nodes'));
        expect(message.windowMs).toBe(20_000);
        await expect.poll(() => workerSamples.length === seed && inlineSamples.length === seed).toBe(true);
      }
      expect(workerSamples.map(plain)).toEqual(inlineSamples.map(plain));
      expect(workerSamples[0]!.definitions).toHaveLength(40);
      expect(workerSamples[1]!.definitions).toHaveLength(0);
    } finally {
      worker.close();
    }
  });

  it('hands main one reply per turn of its event loop', async () => {
    const names = Array.from({ length: 30_000 }, (_, index) => index);
    let turn = 0;
    let turning = true;
    const count = () => {
      turn++;
      if (turning) setImmediate(count);
    };
    setImmediate(count);
    const turns: number[] = [];
    const work = new MetricsWorkerWork({
      fetch: replying(() => podList(names, 1), seeded(3)),
      record: () => {},
      cachedObject,
      reportError: (context, error) => expect.fail(`${context} ${String(error)}`),
      startWorker: (data): Worker => {
        const worker = startHistoryWorker('metrics-worker', data);
        worker.on('message', () => turns.push(turn));
        return worker;
      },
    });
    try {
      const message = await poll(work, [''], 0);
      expect(message.keys).toHaveLength(30_000);
      // A first poll: 3 messages of keys, 3 of totals, 60 questions, 30 parts of definitions...
      await expect.poll(() => turns.length, { timeout: 20_000 }).toBeGreaterThan(40);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(new Set(turns).size).toBe(turns.length);
    } finally {
      turning = false;
      work.close();
    }
  }, 60_000);

  it('fails a list whose reply is not JSON, and reads the next', async () => {
    let broken = true;
    const work = new MetricsWorkerWork({
      fetch: pushing(() =>
        broken ? ['{"items": [{"metadata": ', '<html>'] : [JSON.stringify(podList([1, 2], 1))],
      ),
      cachedObject,
      reportError: (context, error) => expect.fail(`${context} ${String(error)}`),
    });
    try {
      await expect(poll(work, [''], 0)).rejects.toThrow(SyntaxError);
      broken = false;
      expect((await poll(work, [''], 0)).keys).toEqual(['b/web-1', 'c/web-2']);
    } finally {
      work.close();
    }
  });

  it('forgets the lists of a poll that never finished once the next poll of their resource begins', async () => {
    const work = new MetricsWorkerWork({
      fetch: pushing(() => [JSON.stringify(podList([1, 2, 3], 1))]),
      cachedObject,
      reportError: (context, error) => expect.fail(`${context} ${String(error)}`),
    });
    try {
      const signal = new AbortController().signal;
      // A poll of nodes begun meanwhile leaves the pods' lists alone.
      work.begin('pods');
      const kept = await work.list('pods', '', signal);
      await poll(work, [''], 0, 'nodes');
      expect((await work.finish('pods', [kept], 0)).keys).toHaveLength(3);
      // A pods poll that never finishes: the next one's begin forgets its list.
      work.begin('pods');
      const abandoned = await work.list('pods', '', signal);
      work.begin('pods');
      const current = await work.list('pods', '', signal);
      await expect(work.finish('pods', [abandoned, current], 0)).rejects.toThrow(/never read/);
      expect((await poll(work, [''], 0)).keys).toEqual(['b/web-1', 'c/web-2', 'a/web-3']);
    } finally {
      work.close();
    }
  });

  it('fails what a dead worker owed, and the next poll starts another', async () => {
    const workers: Worker[] = [];
    const reported: string[] = [];
    let hold: (() => void) | undefined;
    const work = new MetricsWorkerWork({
      fetch: pushing(
        () => [JSON.stringify(podList([1, 2, 3], 1))],
        // The first worker's list waits, its bytes sent, until the test has ended that worker.
        () => (workers.length === 1 ? new Promise<void>((resolve) => (hold = resolve)) : Promise.resolve()),
      ),
      cachedObject,
      reportError: (context) => reported.push(context),
      startWorker: (data) => {
        const worker = startHistoryWorker('metrics-worker', data);
        workers.push(worker);
        return worker;
      },
    });
    try {
      const first = poll(work, [''], 0);
      await expect.poll(() => hold).toBeDefined();
      await workers[0]!.terminate();
      hold!();
      await expect(first).rejects.toThrow(/metrics worker/);
      expect(reported).toEqual(['the metrics worker stopped:']);
      expect((await poll(work, [''], 0)).keys).toEqual(['b/web-1', 'c/web-2', 'a/web-3']);
      expect(workers).toHaveLength(2);
    } finally {
      work.close();
    }
  });
});
