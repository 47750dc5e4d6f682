// A re-watch from an older resourceVersion under churn: the events since it (the backlog) are the
// client's to read at its own pace, as kube-apiserver's cacher sends a watcher's initial events with
// the HTTP writer's backpressure. Only live events a watcher cannot take are bounded (the simulator's
// slow-watcher drop, the cacher's full input channel), so a client that fell behind and re-watches
// makes progress instead of being cut before its first event and re-watching from the same
// resourceVersion until the window compacts (a relist of every object).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FakeClock } from '../../main/cache/fake-clock';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';

const bufferBytes = 64 * 1024;
const blob = 'x'.repeat(8 * 1024);

let cluster: EmbeddedCluster;

beforeEach(async () => {
  cluster = await startEmbeddedCluster({
    clock: new FakeClock(Date.UTC(2026, 0, 1)),
    simulate: false,
    watchBufferBytes: bufferBytes,
  });
});

afterEach(async () => {
  await cluster.close();
});

function createConfigMap(name: string): void {
  cluster.storage.create(cluster.resource('configmaps'), 'default', { metadata: { name }, data: { blob } });
}

/** The names of the watch events read from `path` until `count` have come (or the stream ended). */
async function readEvents(path: string, count: number, afterFirst?: () => void): Promise<string[]> {
  const controller = new AbortController();
  const response = await fetch(`${cluster.url}${path}`, { signal: controller.signal });
  expect(response.status).toBe(200);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const names: string[] = [];
  let buffer = '';
  try {
    while (names.length < count) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
        const event = JSON.parse(buffer.slice(0, newline)) as { object: { metadata: { name: string } } };
        buffer = buffer.slice(newline + 1);
        names.push(event.object.metadata.name);
        if (names.length === 1) afterFirst?.();
      }
    }
  } finally {
    controller.abort();
  }
  return names;
}

it('sends a backlog larger than the slow-watcher bound, then the live events', async () => {
  const from = cluster.store.resourceVersion;
  const backlog = Array.from({ length: 40 }, (_, index) => `backlog-${index}`);
  for (const name of backlog) createConfigMap(name);
  expect(backlog.length * blob.length).toBeGreaterThan(bufferBytes * 4);

  const names = await readEvents(`/api/v1/configmaps?watch=true&resourceVersion=${from}`, 41, () =>
    createConfigMap('live'),
  );

  expect(names).toEqual([...backlog, 'live']);
});
