// One history query worker thread (query-worker) and the questions it has yet to answer, each
// settled by the worker's last reply to it; a moment's chunks (its size, then objects or rows) are
// passed on as they come, each taken in its own task. HistoryQueries asks two of them.
import type { Worker } from 'node:worker_threads';
import type { KubeObject } from '../../shared/kube/object';
import type { EncodedRows } from '../bridge/encoded-rows';
import type { MomentSize } from './history-queries';
import { startHistoryWorker } from './history-worker';
import type { QueryReply, QueryRequest, QueryWorkerData } from './query-protocol';
import { RecordingError } from './recording-error';

/** Where a moment's chunks go, as they come. */
export interface QueryChunks {
  readonly onMoment?: (moment: MomentSize) => void;
  readonly onObjects?: (objects: KubeObject[]) => void;
  readonly onRows?: (rows: EncodedRows) => void;
}

interface Pending extends QueryChunks {
  /** Given the last reply: "done" for a state, "timeline" for a timeline. */
  readonly resolve: (reply: QueryReply) => void;
  readonly reject: (error: Error) => void;
}

/** A query worker, started on the first question (or by start()). */
export class QueryThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly data: QueryWorkerData) {}

  get started(): boolean {
    return this.worker !== undefined;
  }

  ask(request: QueryRequest, chunks: QueryChunks): Promise<QueryReply> {
    const worker = this.start();
    return new Promise<QueryReply>((resolve, reject) => {
      this.pending.set(request.id, { ...chunks, resolve, reject });
      worker.postMessage(request);
    });
  }

  close(): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
    this.failAll(new Error('history queries were closed'));
  }

  start(): Worker {
    if (this.worker) return this.worker;
    const worker = startHistoryWorker('query-worker', this.data);
    worker.on('message', (reply: QueryReply) => this.replied(reply));
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(new Error(`the history query worker exited with code ${code}`));
    });
    // Not a reason to keep the process alive: it only answers questions someone waits for.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private replied(reply: QueryReply): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    if (reply.type === 'moment') {
      const { total, gap, moment, against, againstLive, unchanged, liveAt } = reply;
      pending.onMoment?.({
        total,
        gap,
        ...(moment !== undefined ? { moment } : {}),
        ...(against !== undefined ? { against } : {}),
        ...(againstLive ? { againstLive, unchanged: unchanged ?? 0 } : {}),
        ...(liveAt !== undefined ? { liveAt } : {}),
      });
      return;
    }
    if (reply.type === 'objects') {
      pending.onObjects?.(JSON.parse(reply.json) as KubeObject[]);
      return;
    }
    if (reply.type === 'rows') {
      pending.onRows?.(reply.rows);
      return;
    }
    this.pending.delete(reply.id);
    if (reply.type === 'failed') {
      const { recording } = reply;
      pending.reject(
        recording ? new RecordingError(recording.file, recording.problem) : new Error(reply.message),
      );
    } else pending.resolve(reply);
  }

  private failAll(error: Error): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const question of pending) question.reject(error);
  }
}
