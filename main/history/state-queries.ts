// Moments of recordings rebuilt off the main thread: one worker thread (query-worker) answers
// stateAt questions in order, and the objects come back in chunks, each parsed in its own task, so
// travelling to a 150,000-pod moment never holds the main thread for more than a chunk.
import type { Worker } from 'node:worker_threads';
import type { KubeObject } from '../../shared/kube/object';
import { startHistoryWorker } from './history-worker';
import type { StateReply, StateRequest } from './query-worker';
import type { RecordingMark } from './recorded-change';
import type { StateQuery } from './replay';

export interface RebuiltState {
  /** False when damage hid some of it (see the reader's problems). */
  readonly complete: boolean;
  /** The gap covering the moment, if any (see ReplayState.gap). */
  readonly gap: RecordingMark | undefined;
}

interface Pending {
  readonly onObjects: (objects: KubeObject[]) => void;
  readonly resolve: (state: RebuiltState) => void;
  readonly reject: (error: Error) => void;
}

export class StateQueries {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  /**
   * Rebuilds `query` of the recording `file` in the worker; `onObjects` gets the objects (ordered by
   * namespace/name) a chunk at a time, and the promise settles after the last chunk.
   */
  stateAt(
    file: string,
    query: StateQuery,
    onObjects: (objects: KubeObject[]) => void,
  ): Promise<RebuiltState> {
    const worker = this.start();
    const id = ++this.nextId;
    return new Promise<RebuiltState>((resolve, reject) => {
      this.pending.set(id, { onObjects, resolve, reject });
      worker.postMessage({ id, file, query } satisfies StateRequest);
    });
  }

  /** Ends the worker; questions still pending reject. */
  close(): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
    this.failAll(new Error('history queries were closed'));
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = startHistoryWorker('query-worker');
    worker.on('message', (reply: StateReply) => this.replied(reply));
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

  private replied(reply: StateReply): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    if (reply.type === 'objects') {
      pending.onObjects(JSON.parse(reply.json) as KubeObject[]);
      return;
    }
    this.pending.delete(reply.id);
    if (reply.type === 'done') pending.resolve({ complete: reply.complete, gap: reply.gap });
    else pending.reject(new Error(reply.message));
  }

  private failAll(error: Error): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const question of pending) question.reject(error);
  }
}
