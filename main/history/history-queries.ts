// History questions answered off the main thread: one worker thread (query-worker) answers
// stateAt and timeline questions in order, and the objects (or rows) come back in chunks, each taken
// in its own task, so travelling to a 150,000-pod moment never holds the main thread for more than a
// chunk.
import type { Worker } from 'node:worker_threads';
import type { KubeObject } from '../../shared/kube/object';
import type { Row } from '../../shared/protocol/row';
import type { RecordedCrashLog } from './crash-log-store';
import { startHistoryWorker } from './history-worker';
import type { QueryReply, QueryRequest, TimelineFigures } from './query-worker';
import type { ObjectReference } from './object-history';
import type { RecordedChange, RecordingMark } from './recorded-change';
import type { StateQuery } from './replay';

export interface RebuiltState {
  /** False when damage hid some of it (see the reader's problems). */
  readonly complete: boolean;
  /** The gap covering the moment, if any (see ReplayState.gap). */
  readonly gap: RecordingMark | undefined;
}

interface Pending {
  readonly onObjects?: (objects: KubeObject[]) => void;
  readonly onRows?: (rows: Row[]) => void;
  /** Given the last reply: "done" for a state, "timeline" for a timeline. */
  readonly resolve: (reply: QueryReply) => void;
  readonly reject: (error: Error) => void;
}

export type { TimelineFigures };

export interface TimelineQuery {
  /** Defaults: the recording's range (or `now` when it holds nothing yet). */
  readonly from?: number;
  readonly to?: number;
  readonly buckets: number;
  readonly now: number;
}

export class HistoryQueries {
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
    return this.ask({ type: 'state', file, query }, { onObjects }).then(rebuiltState);
  }

  /**
   * stateAt, projected into rows in the worker with the kind's printer from shared/ (printerFor) at
   * the moment `now`: what a replay's table needs, without the objects crossing threads. Only for
   * kinds whose projector uses that printer (a CRD's columns come from its definition, known to main).
   */
  stateRows(
    file: string,
    query: StateQuery,
    now: number,
    onRows: (rows: Row[]) => void,
  ): Promise<RebuiltState> {
    return this.ask({ type: 'state', file, query, rows: { now } }, { onRows }).then(rebuiltState);
  }

  /** The span `query` asks for of the recording `file`: its range, density per kind, gaps and relists. */
  timeline(file: string, query: TimelineQuery): Promise<TimelineFigures> {
    return this.ask({
      type: 'timeline',
      file,
      from: query.from,
      to: query.to,
      buckets: query.buckets,
      now: query.now,
    }).then((reply) => {
      if (reply.type !== 'timeline') throw new Error('the history query worker answered out of turn');
      return reply.timeline;
    });
  }

  /** Every recorded version of the object in the recording `file` (see objectVersions). */
  versions(file: string, reference: ObjectReference): Promise<RecordedChange[]> {
    return this.ask({ type: 'versions', file, reference }).then((reply) => {
      if (reply.type !== 'versions') throw new Error('the history query worker answered out of turn');
      return JSON.parse(reply.json) as RecordedChange[];
    });
  }

  /** The time of the object's change before or after `time` (see adjacentChange); undefined if none. */
  adjacent(
    file: string,
    reference: ObjectReference,
    time: number,
    direction: 'previous' | 'next',
  ): Promise<number | undefined> {
    return this.ask({ type: 'adjacent', file, reference, time, direction }).then((reply) => {
      if (reply.type !== 'adjacent') throw new Error('the history query worker answered out of turn');
      return reply.time;
    });
  }

  /** The crash logs recorded for the pod `uid` at or before `time`, newest first (see crashLogsAt). */
  crashLogs(file: string, uid: string, time: number): Promise<RecordedCrashLog[]> {
    return this.ask({ type: 'crash-logs', file, uid, time }).then((reply) => {
      if (reply.type !== 'crash-logs') throw new Error('the history query worker answered out of turn');
      return JSON.parse(reply.json) as RecordedCrashLog[];
    });
  }

  private ask(
    request: DistributiveOmit<QueryRequest, 'id'>,
    chunks: Pick<Pending, 'onObjects' | 'onRows'> = {},
  ): Promise<QueryReply> {
    const worker = this.start();
    const id = ++this.nextId;
    return new Promise<QueryReply>((resolve, reject) => {
      this.pending.set(id, { ...chunks, resolve, reject });
      worker.postMessage({ ...request, id } as QueryRequest);
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
    if (reply.type === 'objects') {
      pending.onObjects?.(JSON.parse(reply.json) as KubeObject[]);
      return;
    }
    if (reply.type === 'rows') {
      pending.onRows?.(reply.rows);
      return;
    }
    this.pending.delete(reply.id);
    if (reply.type === 'failed') pending.reject(new Error(reply.message));
    else pending.resolve(reply);
  }

  private failAll(error: Error): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const question of pending) question.reject(error);
  }
}

function rebuiltState(reply: QueryReply): RebuiltState {
  return reply.type === 'done'
    ? { complete: reply.complete, gap: reply.gap }
    : { complete: false, gap: undefined };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
