// The embedded cluster's bookmarks follow kube-apiserver's watch cache (cacher.go, cache_watcher.go):
// one a minute from the watch's start, one 2 s before its timeout, none after, none without
// allowWatchBookmarks. Over real HTTP on a FakeClock; a pod created just before each expected time
// shows, by the order of the lines, that no bookmark came early.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../main/cache/fake-clock';
import { nextBookmarkTime } from '../../main/sim/bookmark-schedule';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';

let cluster: EmbeddedCluster;
let clock: FakeClock;
let pods = 0;

beforeEach(async () => {
  clock = new FakeClock(Date.UTC(2026, 0, 1));
  cluster = await startEmbeddedCluster({ seed: 3, clock, simulate: false });
});

afterEach(async () => {
  await cluster.close();
});

function createPod(): void {
  cluster.storage.create(cluster.resource('pods'), 'default', {
    metadata: { name: `pod-${pods++}` },
    spec: { containers: [{ name: 'app', image: 'nginx' }] },
  });
}

/** The event types of a WATCH, read line by line as they arrive. */
async function watchTypes(query: string) {
  const controller = new AbortController();
  const response = await fetch(`${cluster.url}/api/v1/pods?watch=true&${query}`, {
    signal: controller.signal,
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    /** The next event's type, or "end" once the server has closed the stream. */
    async next(): Promise<string> {
      for (;;) {
        const newline = buffer.indexOf('\n');
        if (newline >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          return (JSON.parse(line) as { type: string }).type;
        }
        const { done, value } = await reader.read();
        if (done) return 'end';
        buffer += decoder.decode(value, { stream: true });
      }
    },
    close: () => controller.abort(),
  };
}

/** Steps the clock to `offsetMs` after `start`. */
async function stepTo(start: number, offsetMs: number): Promise<void> {
  await clock.stepAsync(start + offsetMs - clock.now());
}

describe('embedded cluster bookmarks', () => {
  it('computes the next bookmark as the cacher does: a minute on, or 2 s before the deadline', () => {
    expect(nextBookmarkTime(0, 60_000, 300_000)).toBe(60_000);
    expect(nextBookmarkTime(240_000, 60_000, 300_000)).toBe(298_000);
    expect(nextBookmarkTime(298_000, 60_000, 300_000)).toBeUndefined();
    expect(nextBookmarkTime(298_001, 60_000, 300_000)).toBeUndefined();
    expect(nextBookmarkTime(0, 60_000, 1_000)).toBeUndefined();
  });

  it('sends one a minute, one 2 s before the timeout, then ends the watch at the timeout', async () => {
    const start = clock.now();
    const stream = await watchTypes(
      `allowWatchBookmarks=true&timeoutSeconds=130&resourceVersion=${cluster.store.resourceVersion}`,
    );
    const seen: string[] = [];
    for (const due of [60_000, 120_000, 128_000]) {
      await stepTo(start, due - 1);
      createPod();
      seen.push(await stream.next());
      await stepTo(start, due);
      seen.push(await stream.next());
    }
    await stepTo(start, 129_999);
    createPod();
    seen.push(await stream.next());
    await stepTo(start, 130_000);
    seen.push(await stream.next());
    expect(seen).toEqual(['ADDED', 'BOOKMARK', 'ADDED', 'BOOKMARK', 'ADDED', 'BOOKMARK', 'ADDED', 'end']);
  });

  it('sends none to a watch that did not ask for them', async () => {
    const start = clock.now();
    const stream = await watchTypes(`timeoutSeconds=200&resourceVersion=${cluster.store.resourceVersion}`);
    await stepTo(start, 199_999);
    createPod();
    expect(await stream.next()).toBe('ADDED');
    await stepTo(start, 200_000);
    expect(await stream.next()).toBe('end');
    stream.close();
  });
});
