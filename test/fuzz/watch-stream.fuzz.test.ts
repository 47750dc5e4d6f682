// The watch-stream reader meets whatever the network and the server send: mutated bytes, random chunk
// boundaries, truncation, huge lines. Each stream either ends or fails with an error that names the
// request; every event it delivers is a well-formed watch event; nothing hangs (the inactivity timer
// ends a silent stream); and an informer fed such a stream recovers to the server's list.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FakeClock, flushMicrotasks } from '../../main/cache/fake-clock';
import type { ListerWatcher } from '../../main/cache/lister-watcher';
import { SharedIndexInformer } from '../../main/cache/shared-informer';
import { WatchDecodeError, WatchInactivityError } from '../../main/kube/errors';
import { WatchStream } from '../../main/kube/watch-stream';
import type { KubeObject, WatchEvent } from '../../shared/kube/object';
import { StatusError, newStatus } from '../../shared/kube/status';
import { seededRandom } from '../support/seeded-random';
import type { SeededRandom } from '../support/seeded-random';
import { mutateBytes, randomChunks } from './fuzz-inputs';

const request = 'watching pods (fuzz)';

function pod(name: string, resourceVersion: number, note = ''): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'fuzz', resourceVersion: String(resourceVersion), annotations: { note } },
    spec: { containers: [{ name: 'app', image: 'registry.example/app:1' }] },
  };
}

function eventLines(random: SeededRandom, count: number, firstVersion: number): Buffer {
  const lines: string[] = [];
  for (let index = 0; index < count; index++) {
    const type = random.pick(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK'] as const);
    const object =
      type === 'BOOKMARK'
        ? { kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: String(firstVersion + index) } }
        : pod(`pod-${random.integer(8)}`, firstVersion + index, 'ünïcødé ☕'.repeat(random.integer(4)));
    lines.push(JSON.stringify({ type, object }));
  }
  return Buffer.from(lines.join('\n') + '\n');
}

/** Feeds `chunks` to a WatchStream and collects what it delivers until it ends or fails. */
async function readAll(chunks: Buffer[], inactivityTimeoutMs = 60_000) {
  const source = new PassThrough();
  const clock = new FakeClock();
  const stream = new WatchStream(source, { request, clock, inactivityTimeoutMs });
  for (const chunk of chunks) source.write(chunk);
  source.end();
  const received: WatchEvent[] = [];
  try {
    for await (const event of stream) received.push(event);
    return { received };
  } catch (error) {
    return { received, error };
  }
}

function expectWellFormed(events: WatchEvent[]): void {
  for (const event of events) {
    expect(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK']).toContain(event.type);
    expect(typeof event.object).toBe('object');
    expect(event.object).not.toBeNull();
  }
}

function expectClearError(error: unknown): void {
  expect(error instanceof WatchDecodeError || error instanceof StatusError, String(error)).toBe(true);
  expect((error as Error).message).toContain(request);
}

describe('watch stream under malformed, truncated and huge input', () => {
  it('delivers well-formed events or fails with an error naming the request', async () => {
    const random = seededRandom(81);
    for (let iteration = 0; iteration < 400; iteration++) {
      const bytes = mutateBytes(random, eventLines(random, random.between(1, 12), 100));
      const { received, error } = await readAll(randomChunks(random, bytes));
      expectWellFormed(received);
      if (error !== undefined) expectClearError(error);
    }
  });

  it('delivers the events before a truncation, then says the stream ended inside an event', async () => {
    const random = seededRandom(82);
    for (let iteration = 0; iteration < 200; iteration++) {
      const bytes = eventLines(random, random.between(2, 10), 100);
      const cut = random.between(1, bytes.length - 2);
      const whole = bytes.subarray(0, cut).toString('utf8').split('\n').length - 1;
      const { received, error } = await readAll(randomChunks(random, bytes.subarray(0, cut)));
      expect(received).toHaveLength(whole);
      if (bytes[cut - 1] === 0x0a) expect(error).toBeUndefined();
      else {
        expect(error).toBeInstanceOf(WatchDecodeError);
        expect((error as Error).message).toMatch(/ended inside an event/);
      }
    }
  });

  it('decodes an object over 1.5 MiB split into random chunks exactly', async () => {
    const random = seededRandom(83);
    const large = pod('large', 200, 'x'.repeat(2 * 1024 * 1024));
    const bytes = Buffer.from(JSON.stringify({ type: 'ADDED', object: large }) + '\n');
    const { received, error } = await readAll(randomChunks(random, bytes));
    expect(error).toBeUndefined();
    expect(received).toEqual([{ type: 'ADDED', object: large }]);
  });

  it('refuses a huge line that is not JSON with a short snippet, not the whole line', async () => {
    const random = seededRandom(84);
    const bytes = Buffer.from(
      `{"type":"ADDED","object":{"x":${'7'.repeat(1024)}x${'7'.repeat(2 * 1024 * 1024)}\n`,
    );
    const { received, error } = await readAll(randomChunks(random, bytes));
    expect(received).toEqual([]);
    expect(error).toBeInstanceOf(WatchDecodeError);
    expect((error as Error).message.length).toBeLessThan(500);
  });

  it('ends a stream that goes silent mid-event with an inactivity error', async () => {
    const source = new PassThrough();
    const clock = new FakeClock();
    const stream = new WatchStream(source, { request, clock, inactivityTimeoutMs: 5_000 });
    source.write('{"type":"ADDED","object":{"metadata":');
    const next = stream[Symbol.asyncIterator]().next();
    const outcome = next.then(
      () => undefined,
      (error: unknown) => error,
    );
    await clock.stepAsync(5_000);
    expect(await outcome).toBeInstanceOf(WatchInactivityError);
  });
});

describe('an informer fed a mutated watch stream', () => {
  /**
   * The server's truth is `listed`; the first watch carries mutated bytes, the second fails with 410
   * Gone (as a real server would once the client fell behind), so the informer must relist, and every
   * later watch stays open and quiet.
   */
  function listerWatcher(random: SeededRandom, listed: KubeObject[], clock: FakeClock) {
    let watches = 0;
    const open: PassThrough[] = [];
    const source: ListerWatcher<KubeObject> = {
      list: async () => ({
        apiVersion: 'v1',
        kind: 'PodList',
        metadata: { resourceVersion: '100' },
        items: structuredClone(listed),
      }),
      watch: async () => {
        const stream = new PassThrough();
        open.push(stream);
        const watcher = new WatchStream(stream, { request, clock, inactivityTimeoutMs: 3_600_000 });
        watches++;
        if (watches === 1) {
          for (const chunk of randomChunks(random, mutateBytes(random, eventLines(random, 10, 101))))
            stream.write(chunk);
          stream.end();
        } else if (watches === 2) {
          const gone = newStatus(410, 'Expired', 'too old resource version');
          stream.end(JSON.stringify({ type: 'ERROR', object: gone }) + '\n');
        }
        return watcher;
      },
    };
    return { source, close: () => open.forEach((stream) => stream.destroy()) };
  }

  it('recovers to the listed state whatever the first watch carried', async () => {
    const random = seededRandom(85);
    for (let iteration = 0; iteration < 40; iteration++) {
      const clock = new FakeClock();
      const listed = Array.from({ length: 8 }, (_, index) => pod(`pod-${index}`, 50 + index));
      const { source, close } = listerWatcher(random, listed, clock);
      const informer = new SharedIndexInformer<KubeObject>({
        name: 'pods (fuzz)',
        listerWatcher: source,
        clock,
        reportError: () => undefined,
        reflector: { log: () => undefined, backoff: () => 100 },
      });
      informer.setWatchErrorHandler(() => undefined);
      const stop = new AbortController();
      const running = informer.run(stop.signal);
      for (let step = 0; step < 20; step++) await clock.stepAsync(100);
      await flushMicrotasks();
      const cached = informer
        .getIndexer()
        .list()
        .map((object) => `${object.metadata.name}@${object.metadata.resourceVersion}`)
        .sort();
      expect(cached).toEqual(
        listed.map((object) => `${object.metadata.name}@${object.metadata.resourceVersion}`),
      );
      stop.abort();
      close();
      await running;
    }
  });
});
