// Main's side of the metrics worker (metrics-worker.ts): main sends each LIST and passes its reply's
// bytes on as they arrive (a memory copy, not a decode), answers the worker's questions about the
// informers' cache, and gets back each poll's totals (numbered keys, typed columns) and its samples
// for the recording. What is left of a 150,000-pod poll on main is the socket's reads, those copies,
// and the message's parts: 0.2-0.4 s of its CPU against 1.1-1.7 s (test/bench/metrics-poll-main.ts).
import type { Worker } from 'node:worker_threads';
import { startHistoryWorker } from '../history/history-worker';
import type { MetricSamplesEntry } from '../history/recording-protocol';
import { seriesOwnerOf, type CachedObject } from '../history/series-owner';
import { KeyTable } from '../kube/metrics-keys';
import type { ReplyReader } from '../kube/rest-client';
import type { MetricsMessage, MetricsResource } from '../../shared/protocol/metrics-messages';
import type { MetricsListRead, MetricsPollWork } from './metrics-poll-work';
import type { MetricsWorkerData, MetricsWorkerReply, MetricsWorkerRequest } from './metrics-worker-protocol';

/**
 * GETs /apis/metrics.k8s.io/v1beta1/[namespaces/{namespace}/]{resource} ("" for all namespaces) and
 * hands the 2xx reply's bytes to `reader` (RestClient.listInto with metricsListRequest).
 */
export type MetricsReplyFetch = <T>(
  resource: MetricsResource,
  namespace: string,
  signal: AbortSignal,
  reader: ReplyReader<T>,
) => Promise<T>;

export interface MetricsWorkerWorkOptions {
  readonly fetch: MetricsReplyFetch;
  /** Where each poll's samples go (Recorder.recordMetricSamples); absent when the session does not record. */
  readonly record?: (samples: MetricSamplesEntry) => void;
  /** The informers' cached pods and replicasets, for the uid and workload of a new series. */
  readonly cachedObject: CachedObject;
  /** Told what failed outside a poll (recording its samples, the worker itself). */
  readonly reportError: (context: string, error: unknown) => void;
  /** Starts the worker thread (default: metrics-worker). */
  readonly startWorker?: (data: MetricsWorkerData) => Worker;
}

/** Bytes per post to the worker: 220 posts for a 57 MB reply. */
export const replyBytesPerPost = 256 * 1024;

interface Pending<T> {
  resolve(value: T): void;
  reject(error: Error): void;
}

/** A poll being finished: its totals so far (numbers unboxed, as arrays of doubles hold them). */
interface Finishing extends Pending<MetricsMessage> {
  readonly resource: MetricsResource;
  readonly keys: string[];
  readonly cpu: number[];
  readonly memory: number[];
}

interface ListRead extends MetricsListRead {
  readonly list: number;
}

export class MetricsWorkerWork implements MetricsPollWork {
  private worker: Worker | undefined;
  /** Counts the workers started: a list belongs to the one it began with. */
  private generation = 0;
  private closed = false;
  private lastList = 0;
  private lastPoll = 0;
  private readonly lists = new Map<number, Pending<ListRead>>();
  private readonly finishes = new Map<number, Finishing>();
  /** Per resource, the keys the worker numbered; new with every worker started. */
  private keys: Record<MetricsResource, KeyTable> = { pods: new KeyTable(), nodes: new KeyTable() };

  constructor(private readonly options: MetricsWorkerWorkOptions) {}

  begin(resource: MetricsResource): void {
    this.post({ type: 'begin', resource });
  }

  async list(resource: MetricsResource, namespace: string, signal: AbortSignal): Promise<MetricsListRead> {
    const list = ++this.lastList;
    this.post({ type: 'list', list, resource, namespace });
    const reader = new ReplyBytes(list, this.generation, this);
    try {
      return await this.options.fetch(resource, namespace, signal, reader);
    } catch (error) {
      this.lists.delete(list);
      // The worker that began the list forgets it; a worker started since never knew it.
      if (!this.closed && reader.generation === this.generation && this.worker)
        this.post({ type: 'drop', list });
      throw error;
    }
  }

  finish(
    resource: MetricsResource,
    lists: readonly MetricsListRead[],
    polledAt: number,
  ): Promise<MetricsMessage> {
    const poll = ++this.lastPoll;
    return new Promise((resolve, reject) => {
      this.finishes.set(poll, { resolve, reject, resource, keys: [], cpu: [], memory: [] });
      this.post({
        type: 'finish',
        poll,
        resource,
        lists: (lists as readonly ListRead[]).map((read) => read.list),
        polledAt,
      });
    });
  }

  close(): void {
    this.closed = true;
    this.stopped(new Error('the session closed'));
  }

  /** The reply of `list` was passed on whole: resolves once the worker has read it. */
  ended(list: number, generation: number): Promise<ListRead> {
    return new Promise((resolve, reject) => {
      this.postTo(generation, { type: 'end', list });
      this.lists.set(list, { resolve, reject });
    });
  }

  /** Posts to the worker `generation` counts, or throws if that one stopped (its list is lost). */
  postTo(generation: number, request: MetricsWorkerRequest): void {
    if (generation !== this.generation || !this.worker)
      throw new Error('metrics worker: it stopped while reading');
    this.post(request);
  }

  post(request: MetricsWorkerRequest): void {
    if (this.closed) throw new Error('the metrics work is closed');
    this.started().postMessage(request);
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    this.generation++;
    const data: MetricsWorkerData = { record: this.options.record !== undefined };
    const worker = (this.worker = (
      this.options.startWorker ?? ((workerData) => startHistoryWorker('metrics-worker', workerData))
    )(data));
    // An idle worker never holds the process open; the session's close() ends it.
    worker.unref();
    worker.on('message', (reply: MetricsWorkerReply) => {
      this.receive(reply);
      // The next reply comes in a later turn (see metrics-worker-protocol.ts).
      setImmediate(() => {
        if (this.worker === worker) worker.postMessage({ type: 'ack' } satisfies MetricsWorkerRequest);
      });
    });
    worker.on('error', (error) => {
      if (this.worker === worker) this.stopped(error);
    });
    worker.on('exit', (code) => {
      if (this.worker === worker) this.stopped(new Error(`the metrics worker exited (code ${code})`));
    });
    return worker;
  }

  /** The worker is gone: what it owed fails, and the next poll starts another (numbering afresh). */
  private stopped(error: Error): void {
    const worker = this.worker;
    this.worker = undefined;
    this.keys = { pods: new KeyTable(), nodes: new KeyTable() };
    if (worker) void worker.terminate();
    const failure = new Error(`metrics worker: ${error.message}`, { cause: error });
    for (const pending of [...this.lists.values(), ...this.finishes.values()]) pending.reject(failure);
    this.lists.clear();
    this.finishes.clear();
    if (!this.closed) this.options.reportError('the metrics worker stopped:', error);
  }

  private receive(reply: MetricsWorkerReply): void {
    switch (reply.type) {
      case 'listed':
        this.lists.get(reply.list)?.resolve({ list: reply.list, objects: reply.objects });
        return void this.lists.delete(reply.list);
      case 'list-failed': {
        const error = reply.syntax ? new SyntaxError(reply.message) : new Error(reply.message);
        this.lists.get(reply.list)?.reject(error);
        return void this.lists.delete(reply.list);
      }
      case 'keys':
        return this.keys[reply.resource].update(reply.forgotten, reply.fresh);
      case 'totals':
        return this.totals(reply);
      case 'identify':
        return this.post({
          type: 'identified',
          request: reply.request,
          owners: reply.pods.map(
            ({ namespace, name }) => seriesOwnerOf(this.options.cachedObject, namespace, name) ?? null,
          ),
        });
      case 'samples':
        return this.options.record?.(reply.samples);
      case 'failure': {
        const error = new Error(reply.message);
        const finishing = reply.poll === undefined ? undefined : this.finishes.get(reply.poll);
        if (!finishing) return this.options.reportError(reply.context, error);
        this.finishes.delete(reply.poll!);
        return finishing.reject(error);
      }
    }
  }

  private totals(reply: Extract<MetricsWorkerReply, { type: 'totals' }>): void {
    const finishing = this.finishes.get(reply.poll);
    if (!finishing) return;
    try {
      this.keys[finishing.resource].appendKeys(reply.keys, finishing.keys);
      for (let index = 0; index < reply.cpu.length; index++) {
        finishing.cpu.push(reply.cpu[index]!);
        finishing.memory.push(reply.memory[index]!);
      }
      if (!reply.last) return;
      this.finishes.delete(reply.poll);
      finishing.resolve({
        type: 'metrics',
        resource: finishing.resource,
        availability: 'served',
        keys: finishing.keys,
        cpu: finishing.cpu,
        memory: finishing.memory,
        ...reply.last,
      });
    } catch (error) {
      this.finishes.delete(reply.poll);
      finishing.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

/**
 * A reply's bytes on their way to the worker, replyBytesPerPost at a time, through one buffer reused:
 * each post clones its bytes into the message (the worker's copy is allocated on its side), where a
 * buffer transferred per post would have been 57 MB of new array buffers on main every 150,000-pod
 * poll, and V8 runs a full collection of main's heap for every 64 MB of those.
 */
class ReplyBytes implements ReplyReader<ListRead> {
  private readonly staging = new Uint8Array(replyBytesPerPost);
  private filled = 0;

  constructor(
    private readonly list: number,
    readonly generation: number,
    private readonly work: MetricsWorkerWork,
  ) {}

  push(chunk: Buffer): void {
    for (let offset = 0; offset < chunk.length;) {
      const count = Math.min(chunk.length - offset, this.staging.length - this.filled);
      this.staging.set(chunk.subarray(offset, offset + count), this.filled);
      this.filled += count;
      offset += count;
      if (this.filled === this.staging.length) this.send();
    }
  }

  finish(): Promise<ListRead> {
    this.send();
    return this.work.ended(this.list, this.generation);
  }

  private send(): void {
    if (this.filled === 0) return;
    this.work.postTo(this.generation, {
      type: 'bytes',
      list: this.list,
      bytes: this.staging.subarray(0, this.filled),
    });
    this.filled = 0;
  }
}
