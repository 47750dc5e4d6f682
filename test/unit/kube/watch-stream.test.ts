import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FakeClock, flushMicrotasks } from '../../../main/cache/fake-clock';
import { ApiStatusError, WatchDecodeError, WatchInactivityError } from '../../../main/kube/errors';
import { LineSplitter, WatchStream, softPauseLimitMs } from '../../../main/kube/watch-stream';
import type { KubeObject, WatchEvent } from '../../../shared/kube/object';
import { StatusError, isResourceExpired, newStatus } from '../../../shared/kube/status';

const request = 'watching pods in namespace payments';

function pod(name: string, resourceVersion: string, note = ''): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'payments', resourceVersion, annotations: { note } },
  };
}

const events: WatchEvent[] = [
  { type: 'ADDED', object: pod('café-☕', '10', 'ünïcødé') },
  { type: 'MODIFIED', object: pod('rocket', '11', '🚀 lift-off 日本語') },
  { type: 'BOOKMARK', object: { kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: '12' } } },
  { type: 'DELETED', object: pod('café-☕', '13', 'ß') },
];
const encoded = Buffer.from(events.map((event) => JSON.stringify(event) + '\n').join(''));

function open(options: Partial<ConstructorParameters<typeof WatchStream>[1]> = {}) {
  const source = new PassThrough();
  const clock = new FakeClock();
  const stream = new WatchStream(source, { request, clock, ...options });
  return { source, clock, stream };
}

async function collect(stream: WatchStream): Promise<{ received: WatchEvent[]; error?: unknown }> {
  const received: WatchEvent[] = [];
  try {
    for await (const event of stream) received.push(event);
  } catch (error) {
    return { received, error };
  }
  return { received };
}

describe('LineSplitter', () => {
  it('yields the same lines for every way of cutting the bytes in three', () => {
    const expected = encoded.toString('utf8').split('\n').slice(0, -1);
    for (let first = 0; first <= encoded.length; first += 1) {
      for (let second = first; second <= encoded.length; second += 17) {
        const splitter = new LineSplitter();
        const lines = [
          ...splitter.push(encoded.subarray(0, first)),
          ...splitter.push(encoded.subarray(first, second)),
          ...splitter.push(encoded.subarray(second)),
        ];
        expect(lines).toEqual(expected);
        expect(splitter.rest()).toBe('');
      }
    }
  });
});

describe('WatchStream', () => {
  it('decodes every event whatever the chunk boundary, multi-byte UTF-8 split included', async () => {
    for (let cut = 0; cut <= encoded.length; cut += 1) {
      const { source, stream } = open();
      source.write(encoded.subarray(0, cut));
      source.end(encoded.subarray(cut));
      const { received, error } = await collect(stream);
      expect(error).toBeUndefined();
      expect(received).toEqual(events);
    }
  });

  it('decodes a stream delivered one byte at a time', async () => {
    const { source, stream } = open();
    for (const byte of encoded) source.write(Buffer.from([byte]));
    source.end();
    expect((await collect(stream)).received).toEqual(events);
  });

  it('ends with a WatchDecodeError naming the request and quoting the line, after the good events', async () => {
    const { source, stream } = open();
    source.end(
      `${JSON.stringify(events[0])}\n{"type":"ADDED","object":{"metadata":\n${JSON.stringify(events[1])}\n`,
    );
    const { received, error } = await collect(stream);
    expect(received).toEqual([events[0]]);
    expect(error).toBeInstanceOf(WatchDecodeError);
    expect((error as Error).message).toContain(request);
    expect((error as Error).message).toContain('{\\"type\\":\\"ADDED\\",\\"object\\":{\\"metadata\\":');
    expect(source.destroyed).toBe(true);
  });

  it('rejects a line that is JSON but not a watch event', async () => {
    const { source, stream } = open();
    source.end('{"kind":"Pod"}\n');
    const { error } = await collect(stream);
    expect(error).toBeInstanceOf(WatchDecodeError);
    expect((error as Error).message).toContain('not a {type, object} watch event');
  });

  it('reports a stream that ends inside an event as truncated', async () => {
    const { source, stream } = open();
    source.end(encoded.subarray(0, encoded.length - 5));
    const { received, error } = await collect(stream);
    expect(received).toEqual(events.slice(0, 3));
    expect((error as Error).message).toContain('stream ended inside an event');
  });

  it('turns an ERROR event into the StatusError it carries, keeping code and reason', async () => {
    const { source, stream } = open();
    const status = newStatus(410, 'Expired', 'too old resource version: 5 (42)');
    source.write(`${JSON.stringify(events[0])}\n${JSON.stringify({ type: 'ERROR', object: status })}\n`);
    const { received, error } = await collect(stream);
    expect(received).toEqual([events[0]]);
    expect(error).toBeInstanceOf(StatusError);
    expect((error as StatusError).code).toBe(410);
    expect((error as StatusError).reason).toBe('Expired');
    expect(isResourceExpired(error)).toBe(true);
    expect(source.destroyed).toBe(true);
  });

  it('builds the ERROR event error with the given factory, so it carries the request', async () => {
    const description = { verb: 'watch', resource: 'pods', namespace: 'payments' };
    const { source, stream } = open({ statusError: (status) => new ApiStatusError(status, description) });
    source.write(
      `${JSON.stringify({ type: 'ERROR', object: newStatus(500, 'InternalError', 'etcd down') })}\n`,
    );
    const { error } = await collect(stream);
    expect(error).toBeInstanceOf(ApiStatusError);
    expect((error as Error).message).toBe('500 watching pods in namespace payments: etcd down');
  });

  it('fails with WatchInactivityError after the timeout without a byte, and not before', async () => {
    const { source, clock, stream } = open({ inactivityTimeoutMs: 60_000 });
    const result = collect(stream);
    source.write(`${JSON.stringify(events[0])}\n`);
    await flushMicrotasks();
    await clock.stepAsync(59_000);
    source.write(`${JSON.stringify(events[2])}\n`);
    await flushMicrotasks();
    await clock.stepAsync(59_000);
    expect(source.destroyed).toBe(false);
    await clock.stepAsync(1_000);
    const { received, error } = await result;
    expect(received).toEqual([events[0], events[2]]);
    expect(error).toBeInstanceOf(WatchInactivityError);
    expect((error as Error).message).toContain(request);
    expect(source.destroyed).toBe(true);
    expect(clock.waiterCount()).toBe(0);
  });

  it('delivers nothing after stop(): queued events are dropped and the request is destroyed', async () => {
    const { source, clock, stream } = open();
    source.write(encoded);
    await flushMicrotasks();
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual(events[0]);
    stream.stop();
    expect(source.destroyed).toBe(true);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    expect(clock.waiterCount()).toBe(0);
  });

  it('ends a pending next() with done when stopped, and swallows a later source error', async () => {
    const { source, stream } = open();
    const iterator = stream[Symbol.asyncIterator]();
    const pending = iterator.next();
    stream.stop();
    source.emit('error', new Error('socket hang up'));
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('stops when its abort signal fires', async () => {
    const controller = new AbortController();
    const { source, stream } = open({ signal: controller.signal });
    const result = collect(stream);
    source.write(`${JSON.stringify(events[0])}\n`);
    await flushMicrotasks();
    controller.abort();
    source.write(`${JSON.stringify(events[1])}\n`);
    expect(await result).toEqual({ received: [events[0]] });
    expect(source.destroyed).toBe(true);
  });

  it('stops the request when the consumer breaks out of the loop', async () => {
    const { source, stream } = open();
    source.write(encoded);
    for await (const _event of stream) break;
    expect(source.destroyed).toBe(true);
  });

  it('pauses the response while a slow consumer has many events queued, and resumes as it catches up', async () => {
    const { source, stream } = open();
    const line = `${JSON.stringify(events[1])}\n`;
    source.write(line.repeat(140_000));
    await flushMicrotasks();
    expect(source.isPaused()).toBe(true);
    source.end();
    const { received, error } = await collect(stream);
    expect(error).toBeUndefined();
    expect(received).toHaveLength(140_000);
    expect(source.isPaused()).toBe(false);
  });

  it('reads a flood 4 MiB at a time while the consumer keeps up, the server waiting in between', async () => {
    const { source, clock, stream } = open();
    let delivered = 0;
    source.on('data', (chunk: Buffer) => (delivered += chunk.length));
    // 20 MiB of 2 KB pods: five seconds of a churning cluster's pods watch, arriving at once.
    const line = `${JSON.stringify({ type: 'MODIFIED', object: pod('api-0', '11', 'x'.repeat(2_000)) })}\n`;
    const perChunk = Math.floor(65_536 / line.length);
    const chunks = Math.ceil((20 * 1024 * 1024) / (perChunk * line.length));
    const count = chunks * perChunk;
    for (let chunk = 0; chunk < chunks; chunk++) source.write(line.repeat(perChunk));
    source.end();
    await flushMicrotasks();
    expect(source.isPaused()).toBe(true);
    expect(delivered).toBeLessThan(5 * 1024 * 1024);
    clock.step(softPauseLimitMs - 1);
    expect(source.isPaused()).toBe(true);
    const iterator = stream[Symbol.asyncIterator]();
    let received = 0;
    let mostAhead = 0;
    for (let result = await iterator.next(); !result.done; result = await iterator.next()) {
      received += 1;
      await flushMicrotasks();
      mostAhead = Math.max(mostAhead, delivered - received * line.length);
    }
    expect(received).toBe(count);
    // Never more than the soft bound and one chunk ahead of the consumer.
    expect(mostAhead).toBeLessThan(4 * 1024 * 1024 + 65_536);
  });

  it(
    'reads on up to 128 MiB once a pause outlasts its limit (a consumer that fell behind), until it catches up',
    { timeout: 120_000 },
    async () => {
      // Parses 168 MiB of events: 3-6 s alone, over 40 s on two cores shared with the rest of the suite.
      const { source, clock, stream } = open();
      // 20,000 pods of 2 KB: about what a churning cluster sends in four seconds, which a 16 MiB
      // bound paused on, leaving the backlog to the API server, which cuts a watcher that falls behind.
      const small = `${JSON.stringify({ type: 'MODIFIED', object: pod('api-0', '11', 'x'.repeat(2_000)) })}\n`;
      for (let part = 0; part < 10; part++) source.write(small.repeat(2_000));
      await flushMicrotasks();
      expect(source.isPaused()).toBe(true);
      clock.step(softPauseLimitMs);
      await flushMicrotasks();
      expect(source.isPaused()).toBe(false);
      const large = `${JSON.stringify({ type: 'MODIFIED', object: pod('api-0', '12', 'y'.repeat(65_536)) })}\n`;
      for (let part = 0; part < 8; part++) source.write(large.repeat(256));
      await flushMicrotasks();
      expect(source.isPaused()).toBe(true);
      // Paused at the high-water bound: no limit to this pause, the backlog is the client's.
      clock.step(10 * softPauseLimitMs);
      expect(source.isPaused()).toBe(true);
      const iterator = stream[Symbol.asyncIterator]();
      for (let taken = 0; taken < 22_048; taken++) expect((await iterator.next()).done).toBe(false);
      expect(source.isPaused()).toBe(false);
      // Caught up: the next flood pauses at the soft bound again.
      for (let part = 0; part < 10; part++) source.write(small.repeat(2_000));
      await flushMicrotasks();
      expect(source.isPaused()).toBe(true);
      source.end();
      clock.step(softPauseLimitMs);
      const { received, error } = await collect(stream);
      expect(error).toBeUndefined();
      expect(received).toHaveLength(20_000);
    },
  );

  it("cuts each event's managedFields out before parsing when its consumer drops them", async () => {
    const { source, stream } = open({ omitManagedFields: true });
    const managedFields = [{ manager: 'kubelet', fieldsV1: { 'f:status': {} } }];
    const object = { ...pod('rocket', '11'), metadata: { ...pod('rocket', '11').metadata, managedFields } };
    source.end(`${JSON.stringify({ type: 'MODIFIED', object })}\n`);
    const { received } = await collect(stream);
    expect(received).toEqual([{ type: 'MODIFIED', object: pod('rocket', '11') }]);
  });

  it('ends cleanly when the server closes the stream after whole events', async () => {
    const { source, clock, stream } = open();
    source.end(encoded);
    expect(await collect(stream)).toEqual({ received: events });
    expect(clock.waiterCount()).toBe(0);
  });
});
