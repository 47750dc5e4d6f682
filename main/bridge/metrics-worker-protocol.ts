// What main and the metrics worker (metrics-worker.ts) say to each other. Main reads each LIST's reply
// off the socket and passes its bytes on; the worker decodes, sums and numbers, and sends back what
// main must hold or pass on: numbers for keys main already holds, the totals in parts, the recording's
// samples (typed columns, copied whole by a clone) and questions about the informers' cache.
//
// Node hands a port's queued messages to their listener back to back, in one turn of the event loop,
// each deserialized there: a poll's replies sent at once would hold main for all of them (a first poll
// of 150,000 pods: hundreds of ms). So the worker has one reply in flight at a time, and main acks
// each in a later turn: every reply is a turn of main's own, a few ms at most.
import type { NewKeys } from '../kube/metrics-keys';
import type { MetricSamplesEntry } from '../history/recording-protocol';
import type { ObjectName, SeriesOwner } from '../history/series-owner';
import type { MetricsResource } from '../../shared/protocol/metrics-messages';

export interface MetricsWorkerData {
  /** The session records: number each poll's samples and send them back. */
  readonly record: boolean;
}

export type MetricsWorkerRequest =
  | { readonly type: 'begin'; readonly resource: MetricsResource }
  /** A LIST's reply begins (its headers said 2xx). */
  | {
      readonly type: 'list';
      readonly list: number;
      readonly resource: MetricsResource;
      readonly namespace: string;
    }
  | { readonly type: 'bytes'; readonly list: number; readonly bytes: Uint8Array }
  /** The reply's last byte was sent: answered 'listed' or 'list-failed'. */
  | { readonly type: 'end'; readonly list: number }
  /** The reply failed or the poll stopped: the list is dropped unanswered. */
  | { readonly type: 'drop'; readonly list: number }
  /** The poll read `lists`: answered 'keys' (any number), then its 'totals' in parts. */
  | {
      readonly type: 'finish';
      readonly poll: number;
      readonly resource: MetricsResource;
      readonly lists: readonly number[];
      readonly polledAt: number;
    }
  | {
      readonly type: 'identified';
      readonly request: number;
      readonly owners: readonly (SeriesOwner | null)[];
    }
  /** Main handled the last reply: the next may come. */
  | { readonly type: 'ack' };

export type MetricsWorkerReply =
  | { readonly type: 'listed'; readonly list: number; readonly objects: number }
  | {
      readonly type: 'list-failed';
      readonly list: number;
      readonly message: string;
      readonly syntax: boolean;
    }
  /** Main's key table: forget `forgotten`, then learn `fresh` (metrics-keys.ts KeyTable). */
  | {
      readonly type: 'keys';
      readonly resource: MetricsResource;
      readonly forgotten: readonly number[];
      readonly fresh: NewKeys;
    }
  | {
      readonly type: 'totals';
      readonly poll: number;
      /** Per object of this part: its key's number, its containers' CPU (cores) and memory (bytes). */
      readonly keys: Int32Array;
      readonly cpu: Float64Array;
      readonly memory: Float64Array;
      /** On the last part: the poll's newest sample time and widest window, if any. */
      readonly last?: { readonly timestamp?: number; readonly windowMs?: number };
    }
  /** The uid and workload of these pods, from the informers' cache: answered 'identified'. */
  | { readonly type: 'identify'; readonly request: number; readonly pods: readonly ObjectName[] }
  /** One poll's samples for the recording, in the parts Recorder.recordMetricSamples takes. */
  | { readonly type: 'samples'; readonly samples: MetricSamplesEntry }
  /** Something failed that no list answers: a poll's finish (`poll` set), or recording its samples. */
  | { readonly type: 'failure'; readonly context: string; readonly message: string; readonly poll?: number };
