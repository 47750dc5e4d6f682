// Renderer -> main. Main validates every one with validateClientMessage before acting on it, because
// the renderer is the less trusted side. A message that expects an answer carries a requestId; main
// answers it with exactly one `reply` carrying the same id.
import type { GroupVersionResource } from '../kube/object';
import type { HistoryClientMessage } from './history-messages';
import type { LogClientMessage } from './log-messages';

/** Bumped on any incompatible change; main refuses a hello with another version. */
export const protocolVersion = 1;

/** A subscription the renderer held before a reload or reconnect, and the last batch it applied. */
export interface ResumedSubscription {
  subscriptionId: string;
  gvr: GroupVersionResource;
  namespace?: string;
  lastSeq: number;
}

/**
 * First message on every connection. `resume` re-establishes the subscriptions of a renderer that
 * reloaded or reconnected: each gets a fresh snapshot numbered after its lastSeq, so sequence numbers
 * only ever grow. Reply value: HelloReply. Main then pushes `contexts` and `kinds`.
 */
export interface HelloMessage {
  type: 'hello';
  requestId: number;
  protocolVersion: number;
  resume?: ResumedSubscription[];
}

/**
 * Mirror a kind (all namespaces, or one). The subscriptionId is chosen by the renderer and unique per
 * connection. Main answers with a reply, then a snapshot batch (replace: true) and live batches.
 */
export interface SubscribeMessage {
  type: 'subscribe';
  requestId: number;
  subscriptionId: string;
  gvr: GroupVersionResource;
  namespace?: string;
}

/** Stop mirroring. The informer behind it stops after a quiet period unless another subscription uses it. */
export interface UnsubscribeMessage {
  type: 'unsubscribe';
  requestId?: number;
  subscriptionId: string;
}

/** The renderer saw a sequence gap (or lost its rows): send a full snapshot again. No reply. */
export interface ResnapshotMessage {
  type: 'resnapshot';
  subscriptionId: string;
}

/**
 * The renderer has applied every batch of the subscription up to `seq`. Main measures how far behind a
 * renderer is by the batches sent but not yet acknowledged, and sends it fewer, larger batches while
 * it lags (the transport's buffered bytes count too where it has them). No reply.
 */
export interface AckMessage {
  type: 'ack';
  subscriptionId: string;
  seq: number;
}

/** Manual refresh: relist the subscription's informer from the API server, then snapshot. */
export interface ResyncMessage {
  type: 'resync';
  requestId: number;
  subscriptionId: string;
}

/**
 * One full object for the YAML and detail panes: managedFields stripped, and for Secrets every value of
 * data/stringData (and the last-applied annotation, which repeats them) always masked: values only
 * ever cross one at a time, by revealSecretValue. Reply value: KubeObject; NotFound as a reply error.
 */
export interface GetObjectMessage {
  type: 'getObject';
  requestId: number;
  gvr: GroupVersionResource;
  namespace?: string;
  name: string;
}

/**
 * The value of one key of a core/v1 Secret, sent only when the user presses that key's Reveal control
 * in the detail pane, and never logged or recorded by main. Reply value: RevealedSecretValue.
 */
export interface RevealSecretValueMessage {
  type: 'revealSecretValue';
  requestId: number;
  namespace: string;
  name: string;
  key: string;
}

/**
 * The renderer saw the network come back (the browser's `online` event): every watch is re-established
 * at once. `offlineSince` (epoch ms) is when it went offline, for the "stale for" figure. No reply.
 */
export interface ReconnectMessage {
  type: 'reconnect';
  offlineSince?: number;
}

/** Reply value: ContextList. */
export interface ListContextsMessage {
  type: 'listContexts';
  requestId: number;
}

/** Leave the current cluster and open `context`; subscriptions are dropped, the renderer resubscribes. */
export interface SwitchContextMessage {
  type: 'switchContext';
  requestId: number;
  context: string;
}

/** The object whose Events are wanted, as an Event's involvedObject names it. */
export interface InvolvedObject {
  kind: string;
  namespace?: string;
  name: string;
  uid?: string;
}

/** Events about one object (the detail pane's Events tab). Reply value: KubeObject[] (core/v1 Events). */
export interface ListEventsMessage {
  type: 'listEvents';
  requestId: number;
  involvedObject: InvolvedObject;
}

/**
 * The namespaces the user says they can read in the current context, beyond its kubeconfig namespace:
 * the whole list, replacing the previous one, and kept for the context across runs. Main runs an
 * informer per namespace for every kind the cluster scope refuses, so typed names work even when
 * Namespaces cannot be listed. Each is a DNS label; at most messageLimits.addedNamespaces. Reply: null.
 */
export interface SetNamespacesMessage {
  type: 'setNamespaces';
  requestId: number;
  namespaces: string[];
}

/** Every message the renderer may send; the validator refuses any type it does not know. */
export type ClientMessage =
  | HelloMessage
  | SubscribeMessage
  | UnsubscribeMessage
  | ResnapshotMessage
  | AckMessage
  | ResyncMessage
  | ReconnectMessage
  | GetObjectMessage
  | RevealSecretValueMessage
  | ListContextsMessage
  | SwitchContextMessage
  | ListEventsMessage
  | SetNamespacesMessage
  | HistoryClientMessage
  | LogClientMessage;

export type ClientMessageType = ClientMessage['type'];
