// PodLogStream on a FakeClock with scripted replies: timestamps stripped into the line's time, a
// dropped follow resumed with sinceTime at the last line's second after the backoff, the boundary
// second deduplicated (no line lost or doubled), rotation past the break reported, and the ends
// (the run exiting, a 404) not retried; new credentials retry a refused (401) or waiting stream now.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FakeClock, flushMicrotasks } from '../../../main/cache/fake-clock';
import type { PodLogLine, PodLogNote, PodLogQuery } from '../../../main/kube/pod-log-stream';
import { PodLogStream } from '../../../main/kube/pod-log-stream';
import type { QueryValue } from '../../../main/kube/rest-client';
import { StatusError, newStatus } from '../../../shared/kube/status';

const backoff = { duration: 1000, factor: 2, jitter: 0, steps: 5, cap: 30_000 };

function harness(query: Partial<PodLogQuery> = {}) {
  const clock = new FakeClock();
  const requests: Record<string, QueryValue>[] = [];
  const replies: (PassThrough | Error)[] = [];
  const lines: PodLogLine[] = [];
  const notes: PodLogNote[] = [];
  const stream = new PodLogStream({
    open: (request) => {
      requests.push(request);
      const reply = replies.shift() ?? new PassThrough();
      return reply instanceof Error ? Promise.reject(reply) : Promise.resolve(reply);
    },
    query: { container: 'app', follow: true, previous: false, ...query },
    clock,
    backoff,
    onLines: (batch) => lines.push(...batch),
    onNote: (note) => notes.push(note),
  });
  return { clock, requests, replies, lines, notes, stream };
}

const at = (second: number, fraction = 0) =>
  `2026-01-01T12:00:${String(second).padStart(2, '0')}.${String(fraction).padStart(9, '0')}Z`;

describe('PodLogStream', () => {
  it('asks for timestamps and delivers each line with its time, text unprefixed', async () => {
    const { replies, requests, lines, stream } = harness({ tailLines: 10 });
    const reply = new PassThrough();
    replies.push(reply);
    stream.start();
    await flushMicrotasks();
    reply.write(`${at(1)} first\n${at(2)} sec`);
    reply.write('ond\n');
    await flushMicrotasks();
    expect(requests[0]).toMatchObject({ container: 'app', follow: true, timestamps: true, tailLines: 10 });
    expect(lines.map((line) => [line.timestamp, line.text])).toEqual([
      [at(1), 'first'],
      [at(2), 'second'],
    ]);
    expect(lines[1].time).toBe(Date.UTC(2026, 0, 1, 12, 0, 2));
    stream.stop();
  });

  it('resumes a dropped follow from the last line second, skipping what it already delivered', async () => {
    const { clock, replies, requests, lines, notes, stream } = harness({ tailLines: 10 });
    const first = new PassThrough();
    const second = new PassThrough();
    replies.push(first, second);
    stream.start();
    await flushMicrotasks();
    first.write(`${at(4, 100)} a\n${at(5, 100)} b\n${at(5, 200)} c\n${at(5, 200)} d\n`);
    await flushMicrotasks();
    first.destroy(new Error('connection reset'));
    await flushMicrotasks();
    expect(notes.at(-1)).toEqual({ type: 'reconnecting', message: 'connection reset', retryInMs: 1000 });
    await clock.stepAsync(999);
    expect(requests).toHaveLength(1);
    await clock.stepAsync(1);
    expect(requests[1]).toEqual({
      container: 'app',
      timestamps: true,
      follow: true,
      previous: undefined,
      sinceTime: '2026-01-01T12:00:05Z',
      limitBytes: undefined,
    });
    // The server repeats the whole boundary second, then goes on.
    second.write(`${at(5, 100)} b\n${at(5, 200)} c\n${at(5, 200)} d\n${at(5, 200)} e\n${at(6)} f\n`);
    await flushMicrotasks();
    expect(lines.map((line) => line.text)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(notes.some((note) => note.type === 'rotated')).toBe(false);
    stream.stop();
  });

  it('says so when the log rotated past the last line read', async () => {
    const { clock, replies, lines, notes, stream } = harness();
    const first = new PassThrough();
    const second = new PassThrough();
    replies.push(first, second);
    stream.start();
    await flushMicrotasks();
    first.write(`${at(5, 100)} a\n`);
    await flushMicrotasks();
    first.destroy(new Error('dropped'));
    await flushMicrotasks();
    await clock.stepAsync(1000);
    second.write(`${at(9)} after rotation\n`);
    await flushMicrotasks();
    expect(lines.map((line) => line.text)).toEqual(['a', 'after rotation']);
    expect(notes.find((note) => note.type === 'rotated')).toMatchObject({ since: at(5, 100) });
    stream.stop();
  });

  it('doubles the wait after each failed reconnect and starts over once lines flow', async () => {
    const { clock, replies, notes, stream } = harness();
    replies.push(new Error('refused'), new Error('refused'));
    stream.start();
    await flushMicrotasks();
    await clock.stepAsync(1000);
    const waits = notes.flatMap((note) => (note.type === 'reconnecting' ? [note.retryInMs] : []));
    expect(waits).toEqual([1000, 2000]);
    stream.stop();
    expect(clock.hasWaiters()).toBe(false);
  });

  it('ends with the run (a clean end of the reply) and does not retry a 404', async () => {
    const ended = harness();
    const reply = new PassThrough();
    ended.replies.push(reply);
    ended.stream.start();
    await flushMicrotasks();
    reply.end(`${at(1)} bye\n`);
    await flushMicrotasks();
    expect(ended.notes).toEqual([{ type: 'ended' }]);
    expect(ended.clock.hasWaiters()).toBe(false);

    const missing = harness();
    missing.replies.push(new StatusError(newStatus(404, 'NotFound', 'pods "x" not found')));
    missing.stream.start();
    await flushMicrotasks();
    expect(missing.notes).toEqual([{ type: 'failed', message: 'pods "x" not found', code: 404 }]);
    expect(missing.clock.hasWaiters()).toBe(false);
  });

  it('reads again at once with new credentials when refused (401) or waiting, never after a 404', async () => {
    const refused = harness();
    const reply = new PassThrough();
    refused.replies.push(new StatusError(newStatus(401, 'Unauthorized', 'Unauthorized')), reply);
    refused.stream.start();
    await flushMicrotasks();
    expect(refused.notes).toEqual([{ type: 'failed', message: 'Unauthorized', code: 401 }]);
    expect(refused.stream.retryNow()).toBe(true);
    await flushMicrotasks();
    expect(refused.requests).toHaveLength(2);
    reply.write(`${at(1)} in\n`);
    await flushMicrotasks();
    expect(refused.lines.map((line) => line.text)).toEqual(['in']);
    expect(refused.notes.at(-1)).toEqual({ type: 'reconnecting', message: 'new credentials', retryInMs: 0 });
    expect(refused.stream.retryNow()).toBe(false);
    refused.stream.stop();

    const waiting = harness();
    waiting.replies.push(new Error('refused'));
    waiting.stream.start();
    await flushMicrotasks();
    expect(waiting.stream.retryNow()).toBe(true);
    await flushMicrotasks();
    expect(waiting.requests).toHaveLength(2);
    // The backoff's timer was stopped: nothing else asks.
    await waiting.clock.stepAsync(5000);
    expect(waiting.requests).toHaveLength(2);
    waiting.stream.stop();

    const missing = harness();
    missing.replies.push(new StatusError(newStatus(404, 'NotFound', 'pods "x" not found')));
    missing.stream.start();
    await flushMicrotasks();
    expect(missing.stream.retryNow()).toBe(false);
    expect(missing.requests).toHaveLength(1);
  });
});
