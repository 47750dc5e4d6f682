// The embedded cluster's streamed lists (the metrics list): the same JSON as one JSON.stringify, and
// the event loop yielded every itemsPerTurn items even to a client that never makes the writer wait,
// so the controller loop's ticks (and the churn) go on while a large list is written.
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { itemsPerTurn, streamList } from '../../../main/sim/list-stream';

/** A response whose writes never fill the socket: the fastest client there is. */
function fastResponse() {
  const chunks: string[] = [];
  const response = {
    destroyed: false,
    ended: false,
    writeHead: () => response,
    write: (chunk: string) => (chunks.push(chunk), true),
    end: () => void (response.ended = true),
    on: () => response,
    off: () => response,
  };
  return { response, body: () => chunks.join('') };
}

describe('streamList', () => {
  it('writes the list one JSON.stringify would', async () => {
    const { response, body } = fastResponse();
    const items = Array.from({ length: 2_500 }, (_, index) => ({ name: `pod-${index}`, cpu: `${index}n` }));
    await streamList(
      response as unknown as ServerResponse,
      '{"kind":"PodMetricsList","apiVersion":"metrics.k8s.io/v1beta1","metadata":{},"items":[',
      items,
      (item) => JSON.stringify({ metadata: { name: item.name }, usage: { cpu: item.cpu } }),
      ']}',
    );
    expect(response.ended).toBe(true);
    expect(JSON.parse(body())).toEqual({
      kind: 'PodMetricsList',
      apiVersion: 'metrics.k8s.io/v1beta1',
      metadata: {},
      items: items.map((item) => ({ metadata: { name: item.name }, usage: { cpu: item.cpu } })),
    });
  });

  it('lets the event loop run between every itemsPerTurn items', async () => {
    const { response } = fastResponse();
    let formatted = 0;
    const seenByOtherTasks: number[] = [];
    const items = Array.from({ length: itemsPerTurn * 3 + 10 }, (_, index) => index);
    const ticking = setInterval(() => seenByOtherTasks.push(formatted), 0);
    const immediate = () => {
      seenByOtherTasks.push(formatted);
      if (formatted < items.length) setImmediate(immediate);
    };
    setImmediate(immediate);
    await streamList(
      response as unknown as ServerResponse,
      '{"kind":"List","apiVersion":"v1","metadata":{},"items":[',
      items,
      (item) => {
        formatted++;
        return JSON.stringify({ item });
      },
      ']}',
    );
    clearInterval(ticking);
    // One JSON.stringify of the whole list would let no other task see a count between 0 and the end.
    const between = seenByOtherTasks.filter((count) => count > 0 && count < items.length);
    expect(new Set(between)).toEqual(new Set([itemsPerTurn, itemsPerTurn * 2, itemsPerTurn * 3]));
  });
});
