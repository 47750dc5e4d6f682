// What a ClusterSession is built from: the context it serves, how it lists and watches, and the
// optional parts (discovery, recording, namespace access, pod logs, metrics) that turn features on.
import type { Clock } from '../cache/clock';
import type { ReflectorTuning } from '../cache/controller';
import type { ListerWatcherFactory } from '../cache/informer-factory';
import type { PodLogOpener } from '../kube/pod-log-stream';
import type { KubeObject } from '../../shared/kube/object';
import type { BatchStreamOptions } from './batch-stream';
import type { SessionRecording } from './history-recording';
import type { SessionMetricsSource } from './session-metrics';
import type { NamespaceAccess } from './namespace-access';
import type { PrinterLookup } from './row-projection';
import type { KindSource } from './served-kinds';

export interface ClusterSessionOptions {
  /** The kubeconfig context this session serves (the embedded cluster has one too). */
  context: string;
  /** Builds list+watch access to a resource in a namespace ("" for all); main/kube's is HTTP. */
  newListerWatcher: ListerWatcherFactory;
  /** Live discovery (main/kube's Discovery fits); without it, the built-in kinds. */
  discovery?: KindSource;
  /**
   * The kubectl columns per kind. Default: shared/kinds' built-in printers, NAME and AGE for others;
   * pass a lookup that finds the CustomResourceDefinition to give custom resources their printer columns.
   */
  printerFor?: PrinterLookup;
  clock?: Clock;
  /** How long a feed outlives its last subscription. */
  quietPeriodMs?: number;
  /** How often changed kind counts are pushed to renderers. */
  kindCountIntervalMs?: number;
  batch?: Partial<
    Omit<BatchStreamOptions, 'subscriptionId' | 'clock' | 'send' | 'bufferedBytes' | 'lastSeq'>
  >;
  staleAfterMs?: number;
  reflector?: ReflectorTuning<KubeObject>;
  /** Where list/watch failures are logged (an expired resourceVersion is routine and not logged). */
  log?: (message: string) => void;
  /** Bounds one-off requests (getObject, listEvents) to the API server. */
  requestTimeoutMs?: number;
  /**
   * Records every feed's informer into the context's recording, and keeps the feeds of its kinds
   * running from the start so history exists before anyone opens them. The session never closes it:
   * whoever made it does, after the session.
   */
  recording?: SessionRecording;
  /**
   * Follow the user's RBAC (AccessAwareFeed): a namespaced kind whose cluster-scope LIST/WATCH is
   * forbidden is served by one informer per readable namespace; a kind the rules refuse everywhere
   * runs no informer. Without it, every feed is one informer and a 403 is the subscription's error.
   */
  access?: NamespaceAccess;
  /** Opens one pod's log requests (main/kube's podLogOpener); without it, log streams are refused. */
  openPodLog?: (namespace: string, pod: string) => PodLogOpener;
  /**
   * Reads metrics.k8s.io over the session's client (see SessionMetricsSource). With it, pod and node
   * metrics are polled while a renderer shows pods or nodes and discovery lists the API, and for the
   * whole session when it records (the samples are kept with the history).
   */
  metrics?: SessionMetricsSource;
}
