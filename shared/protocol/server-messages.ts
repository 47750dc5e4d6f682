// Main -> renderer. Batches are numbered per subscription; everything else is pushed state or a reply.
import type { GroupVersionResource } from '../kube/object';
import type { Row } from './row';
import type { SyncState } from './sync-state';
import type { protocolVersion } from './client-messages';
import type { ColumnDefinition } from '../kinds/columns/column-definition';
import type { HistoryCursorMessage, HistoryExportProgressMessage } from './history-messages';
import type { LogServerMessage } from './log-messages';
import type { MetricsMessage } from './metrics-messages';

/** A kind the cluster serves (from live discovery, CRDs included). */
export interface ServedKind {
  gvr: GroupVersionResource;
  kind: string;
  namespaced: boolean;
  /** Objects in the cache, known only while some subscription keeps its informer running. */
  count?: number;
  /**
   * Why the user may not list and watch this kind anywhere Kubetide knows to look (the API server's 403
   * message, or what SelfSubjectRulesReview says); absent when it may, or when nobody knows yet. A
   * forbidden kind has no count: "no access" is not "0".
   */
  forbidden?: string;
  /** The columns Row.cells holds for this kind, in order (a CRD's printer columns included). */
  columns: ColumnDefinition[];
}

/**
 * The namespaces main tries for kinds the cluster scope refuses: the context's own and those the user
 * added (SetNamespacesMessage). The namespace picker offers them even when Namespaces cannot be listed.
 */
export interface NamespaceChoices {
  /** The kubeconfig context's namespace ("default" when it names none). */
  contextNamespace: string;
  /** The user's list for this context, sorted. */
  added: string[];
}

/** Pushed after hello and whenever discovery changes or a count moves. Always the whole list. */
export interface KindsMessage {
  type: 'kinds';
  kinds: ServedKind[];
  /** Absent when the session does not follow access (tests, recordings). */
  namespaces?: NamespaceChoices;
}

/** A kubeconfig context as the user may see it. Never credentials: no tokens, certificates or exec. */
export interface ContextDescription {
  name: string;
  cluster: string;
  /** The API server URL. */
  server?: string;
  /** The context's default namespace. */
  namespace?: string;
  /** The user entry's name (not its credentials). */
  user?: string;
  /** True for Kubetide's embedded cluster. */
  embedded?: boolean;
  /** The proxy its kubeconfig entry names (proxy-url), as scheme://host:port (never credentials). */
  proxy?: string;
  /** The open context, which the kubeconfig no longer defines: it stays open as it was read. */
  removed?: boolean;
  /** On the open context: its login plugin has run for a while, likely waiting for the user. */
  login?: LoginInProgress;
  /**
   * On the embedded cluster, while the session opened at start is shown: the kubeconfig's current
   * context (empty when it sets none) could not be opened, for `reason`, and this one was instead.
   */
  openedInstead?: ContextOpenedInstead;
}

/** Why the app opened the embedded cluster at start instead of the kubeconfig's current context. */
export interface ContextOpenedInstead {
  /** The current context ('' when the file sets none or could not be read). */
  context: string;
  /** It sets none; the files do not read as a kubeconfig; or the context failed to open. */
  cause: 'no-current-context' | 'unreadable' | 'failed';
  reason: string;
}

/**
 * An exec login plugin that has run over 2 s for the open context (kubelogin's device code,
 * oidc-login's browser login): what it printed on stderr is what the user must act on.
 */
export interface LoginInProgress {
  /** The plugin's file name ("kubelogin"). */
  command: string;
  /** When it started (epoch ms). */
  since: number;
  /** Its stderr so far (the last 2 KiB; terminal controls removed, credential-shaped words hidden). */
  message: string;
}

export interface ContextList {
  current: string;
  /**
   * Grows each time main opens a session: a switch, or the current context opened anew because its
   * kubeconfig entry changed. A renderer mirrors its kinds afresh when it grows (see BridgeHost).
   */
  session: number;
  contexts: ContextDescription[];
}

/** The open context's entry in `list` (with its login and removal marks); undefined before any list. */
export function currentContext(list: ContextList | undefined): ContextDescription | undefined {
  return list?.contexts.find((context) => context.name === list.current);
}

/** Pushed after hello, after every session opened (see ContextList.session), and when the kubeconfig's contexts change. */
export interface ContextsMessage extends ContextList {
  type: 'contexts';
}

/**
 * Changes to one subscription's rows since the previous batch. seq grows by exactly one per batch of a
 * subscription; a renderer that sees any other step has missed data and must ask for a resnapshot.
 *
 * A snapshot is a run of consecutive batches: the first has `replace: true`, the last has
 * `snapshotEnd: true` (one batch may carry both), and those in between carry only upserts. The renderer
 * keeps the rows it has while the chunks arrive, and at the end drops every row no chunk mentioned, so
 * a table never flashes empty. Live changes never interleave with a snapshot's chunks. A batch never
 * has both an upsert and a delete for one key.
 */
export interface DeltaBatch {
  type: 'batch';
  subscriptionId: string;
  seq: number;
  replace?: boolean;
  snapshotEnd?: boolean;
  /**
   * On a snapshot's first batch only: the snapshot is the difference from the rows subscription
   * `subscriptionId` held once its batch `seq` was applied (a replay's moment sent against the live
   * rows, see HistoryStateMessage.base). The mirror starts from a copy of those rows, the snapshot's
   * batches carry the rows that differ and the keys to delete, and its end drops nothing else. A
   * renderer whose base subscription is not exactly at `seq` (or is mid-snapshot) treats the batch
   * as a gap and asks for a resnapshot, which main sends whole.
   */
  base?: SnapshotBase;
  /**
   * On a live snapshot's first batch: how many rows the snapshot holds, so the page can say how far
   * it has come. A page opened on a synced 150,000-row feed (a reload, a second window) took 15 s to
   * fill its table on a 2-core machine while the badge said "synced".
   */
  snapshotRows?: number;
  upserts: Row[];
  /** Keys of deleted rows. */
  deletes: string[];
}

/** The rows a snapshot is sent against (see DeltaBatch.base). */
export interface SnapshotBase {
  subscriptionId: string;
  seq: number;
}

/** Pushed whenever a subscription's sync phase or listing progress changes. */
export interface SyncStateMessage extends SyncState {
  type: 'syncState';
  subscriptionId: string;
}

/** Why a request failed; code and reason mirror the API server's Status when it was the cause. */
export interface ReplyError {
  code?: number;
  reason?: string;
  message: string;
}

export type ReplyMessage =
  | { type: 'reply'; requestId: number; ok: true; value: unknown }
  | { type: 'reply'; requestId: number; ok: false; error: ReplyError };

/**
 * A slice of the value of request `requestId`'s reply, sent before it (see reply-parts.ts): the reply's
 * value then says how many parts to join (`joinParts`). Parts of one reply come in order, none between
 * them for another reply's value.
 */
export interface ReplyPartMessage {
  type: 'replyPart';
  requestId: number;
  index: number;
  value: unknown;
}

/** A message main refused and could not answer with a reply (it had no usable requestId). */
export interface RejectedMessage {
  type: 'rejected';
  reason: string;
}

/** One revealed Secret value: the bytes of data[key], or of stringData[key] as UTF-8, in base64. */
export interface RevealedSecretValue {
  base64: string;
}

export interface HelloReply {
  protocolVersion: typeof protocolVersion;
}

export type ServerMessage =
  | KindsMessage
  | ContextsMessage
  | DeltaBatch
  | SyncStateMessage
  | ReplyMessage
  | ReplyPartMessage
  | RejectedMessage
  | HistoryCursorMessage
  | HistoryExportProgressMessage
  | LogServerMessage
  | MetricsMessage;
