// The metrics worker: reads the LIST replies of the session's metrics polls from the bytes main passes
// on, sums each object's containers, and numbers the samples for the recording, off main's thread
// (see metrics-poll-work.ts for what that cost main). It holds what must last from poll to poll: the
// keys (numbered for main, metrics-keys.ts) and the recording's series numbers (MetricSampleCapture).
import { parentPort, workerData } from 'node:worker_threads';
import { MetricSampleCapture } from '../history/metric-sample-capture';
import { metricSamplesParts } from '../history/metric-samples-parts';
import type { MetricSamplesEntry } from '../history/recording-protocol';
import type { ObjectName, SeriesOwner } from '../history/series-owner';
import { MetricsKeys, type NewKeys } from '../kube/metrics-keys';
import { MetricsListReader } from '../kube/metrics-list';
import type { MetricsUsage } from '../kube/metrics-usage';
import type { MetricsResource } from '../../shared/protocol/metrics-messages';
import { metricsMessageOf } from './metrics-poll-work';
import type { MetricsWorkerData, MetricsWorkerReply, MetricsWorkerRequest } from './metrics-worker-protocol';
import { nameThisThread } from '../history/thread-name';

/** Keys per 'keys' message: a session's first poll numbers every key, 150,000 strings to clone. */
export const keysPerMessage = 10_000;

/**
 * Pods per 'identify' question: main answers each in one task, a few ms (a session's first poll asks
 * for every pod; 2,000 a question took main ~21 ms a task at 150,000 pods under churn).
 */
export const podsPerQuestion = 500;

/** Objects per 'totals' part: one task of main's, about a ms. */
export const objectsPerTotals = 10_000;

const port = parentPort;
if (!port) throw new Error('metrics-worker runs as a worker thread');
nameThisThread('kubetide-metric');
const { record } = workerData as MetricsWorkerData;

/** Replies not sent yet: one is in flight to main at a time (see metrics-worker-protocol.ts). */
const outbox: [MetricsWorkerReply, ArrayBuffer[]][] = [];
let inFlight = false;

function post(reply: MetricsWorkerReply, transfer: ArrayBuffer[] = []): void {
  if (inFlight) return void outbox.push([reply, transfer]);
  inFlight = true;
  port!.postMessage(reply, transfer);
}

function acknowledged(): void {
  inFlight = false;
  const next = outbox.shift();
  if (next) post(...next);
}

const keys: Record<MetricsResource, MetricsKeys> = { pods: new MetricsKeys(), nodes: new MetricsKeys() };
/** Lists whose reply is arriving, or whose reply failed to decode (answered at its end). */
const reading = new Map<number, { readonly resource: MetricsResource; decoder: MetricsListReader | Error }>();
/**
 * Lists read, until their poll finishes; a poll that never finishes (stopped, or failed in another
 * list) leaves its lists here until the next poll of their resource begins.
 */
const read = new Map<number, { readonly resource: MetricsResource; readonly usage: MetricsUsage }>();
const questions = new Map<number, (owners: readonly (SeriesOwner | null)[]) => void>();
let lastQuestion = 0;

const capture = record
  ? new MetricSampleCapture({
      record: postSamples,
      identify: identify,
      reportError: (context, error) =>
        post({ type: 'failure', context, message: error instanceof Error ? error.message : String(error) }),
    })
  : undefined;

port.on('message', (request: MetricsWorkerRequest) => {
  switch (request.type) {
    case 'begin':
      for (const [list, { resource }] of read) if (resource === request.resource) read.delete(list);
      return keys[request.resource].begin();
    case 'list':
      return void reading.set(request.list, {
        resource: request.resource,
        decoder: new MetricsListReader(request.resource, request.namespace, keys[request.resource]),
      });
    case 'bytes':
      return push(request.list, request.bytes);
    case 'end':
      return end(request.list);
    case 'drop':
      reading.delete(request.list);
      return void read.delete(request.list);
    case 'finish':
      return void finish(request.poll, request.resource, request.lists, request.polledAt).catch(
        (error: unknown) =>
          post({
            type: 'failure',
            context: 'summing a metrics poll:',
            message: error instanceof Error ? error.message : String(error),
            poll: request.poll,
          }),
      );
    case 'identified':
      questions.get(request.request)?.(request.owners);
      return void questions.delete(request.request);
    case 'ack':
      return acknowledged();
  }
});

function push(list: number, bytes: Uint8Array): void {
  const reader = reading.get(list);
  if (!reader || reader.decoder instanceof Error) return;
  try {
    reader.decoder.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (error) {
    reader.decoder = error instanceof Error ? error : new Error(String(error));
  }
}

function end(list: number): void {
  const reader = reading.get(list);
  reading.delete(list);
  try {
    if (!reader) throw new Error(`metrics list ${list} was never begun`);
    if (reader.decoder instanceof Error) throw reader.decoder;
    const usage = reader.decoder.finish();
    read.set(list, { resource: reader.resource, usage });
    post({ type: 'listed', list, objects: usage.keys.length });
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    post({ type: 'list-failed', list, message: failure.message, syntax: failure instanceof SyntaxError });
  }
}

async function finish(
  poll: number,
  resource: MetricsResource,
  lists: readonly number[],
  polledAt: number,
): Promise<void> {
  const usages = lists.map((list) => {
    const listed = read.get(list);
    read.delete(list);
    if (!listed) throw new Error(`metrics list ${list} was never read`);
    return listed.usage;
  });
  // The poll is complete: keys it did not make are forgotten.
  const resourceKeys = keys[resource];
  resourceKeys.sweep();
  const message = await metricsMessageOf(resource, usages, { spend: () => false }, () => Promise.resolve());
  const fresh: NewKeys = { ids: [], keys: [] };
  const ids = resourceKeys.numbered(message.keys, fresh);
  // Forgotten numbers first: a number freed may be given again among the fresh.
  let forgotten = resourceKeys.takeForgotten();
  for (let start = 0; start === 0 || start < fresh.ids.length; start += keysPerMessage) {
    const end = start + keysPerMessage;
    post({
      type: 'keys',
      resource,
      forgotten,
      fresh: { ids: fresh.ids.slice(start, end), keys: fresh.keys.slice(start, end) },
    });
    forgotten = [];
  }
  for (let start = 0; start === 0 || start < ids.length; start += objectsPerTotals) {
    const end = start + objectsPerTotals;
    const keys = ids.slice(start, end);
    const cpu = Float64Array.from(message.cpu.slice(start, end));
    const memory = Float64Array.from(message.memory.slice(start, end));
    const last = end >= ids.length;
    post(
      {
        type: 'totals',
        poll,
        keys,
        cpu,
        memory,
        ...(last
          ? {
              last: {
                ...(message.timestamp !== undefined ? { timestamp: message.timestamp } : {}),
                ...(message.windowMs !== undefined ? { windowMs: message.windowMs } : {}),
              },
            }
          : {}),
      },
      [keys.buffer as ArrayBuffer, cpu.buffer as ArrayBuffer, memory.buffer as ArrayBuffer],
    );
  }
  void capture?.capture(resource, usages, polledAt);
}

/** Asks main for these pods' owners, podsPerQuestion at a time. */
async function identify(pods: readonly ObjectName[]): Promise<readonly (SeriesOwner | undefined)[]> {
  const answers: Promise<readonly (SeriesOwner | null)[]>[] = [];
  for (let start = 0; start < pods.length; start += podsPerQuestion) {
    const request = ++lastQuestion;
    answers.push(new Promise((resolve) => questions.set(request, resolve)));
    post({ type: 'identify', request, pods: pods.slice(start, start + podsPerQuestion) });
  }
  return (await Promise.all(answers)).flat().map((owner) => owner ?? undefined);
}

/** One poll's samples, as typed columns (copied whole by the clones to main and on), in parts. */
function postSamples(entry: MetricSamplesEntry): void {
  for (const part of metricSamplesParts(entry)) {
    const columns = {
      series: Float64Array.from(part.series),
      timestamps: Float64Array.from(part.timestamps),
      windowsMs: Float64Array.from(part.windowsMs),
      millicores: Float64Array.from(part.millicores),
      bytes: Float64Array.from(part.bytes),
    };
    post(
      { type: 'samples', samples: { ...part, ...columns } },
      Object.values(columns).map((column) => column.buffer as ArrayBuffer),
    );
  }
}
