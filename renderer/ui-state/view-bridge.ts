// What the views need from the connection to main, as one interface: the mirror to read rows from, and
// one method per request. renderer/transport's BridgeClient satisfies it as it is; tests can hand the
// views a fake, so no view knows whether it runs in Electron or in a browser.
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';
import type {
  HistoryClientMessage,
  HistoryExportMessage,
  HistoryExportReply,
  InvolvedObject,
  LogOptions,
  LogServerMessage,
  LogTarget,
  RevealedSecretValue,
} from '../../shared/protocol';
import type { MetricsStore } from '../store/metrics-store';
import type { MirrorStore } from '../store/mirror-store';

export interface ViewBridge {
  /** Rows per subscription, and the small state (revisions, sync states, kinds, contexts) React reads. */
  readonly store: MirrorStore;
  /** CPU and memory samples of pods and nodes, joined to the rows at render. */
  readonly metrics: MetricsStore;
  /** Starts mirroring a kind; resolves with the subscription id whose revision and rows the view reads. */
  subscribe(gvr: GroupVersionResource, namespace?: string): Promise<string>;
  unsubscribe(subscriptionId: string): void;
  /** The kind a live subscription mirrors (the search box asks which kinds it can search). */
  subscribedResource(subscriptionId: string): GroupVersionResource | undefined;
  /** Relists the subscription's informer (the manual resync button). */
  resync(subscriptionId: string): Promise<void>;
  getObject(gvr: GroupVersionResource, namespace: string | undefined, name: string): Promise<KubeObject>;
  /** One Secret value, only ever asked for by the Reveal control of that key. */
  revealSecretValue(namespace: string, name: string, key: string): Promise<RevealedSecretValue>;
  listEvents(involvedObject: InvolvedObject): Promise<KubeObject[]>;
  switchContext(context: string): Promise<void>;
  /** Replaces the namespaces the user added for the current context (NamespaceChoices.added). */
  setNamespaces(namespaces: string[]): Promise<void>;
  /**
   * A replay mirror for time travel; main fills it on historyState and historyPlay, and its cursors
   * land in store.state.replays in order with its batches.
   */
  openReplay(): string;
  closeReplay(subscriptionId: string): void;
  /** One history request; resolves with its reply value. */
  history<T>(body: HistoryRequest): Promise<T>;
  /**
   * The live subscription of (gvr, namespace) a travel of that kind would be sent against, if any
   * (see HistoryTimelineMessage.base).
   */
  liveMirrorOf?(gvr: GroupVersionResource, namespace: string | undefined): string | undefined;
  /**
   * A history export: `onProgress` is told how many changes it has written so far; cancel() stops it
   * (the reply then rejects saying so, and main leaves no file of it).
   */
  exportHistory(
    body: Omit<HistoryExportMessage, 'requestId'>,
    onProgress: (changes: number) => void,
  ): { reply: Promise<HistoryExportReply | null>; cancel(): void };
  /**
   * A log stream: its messages go to `listener` until close(); `opened` rejects if main refused it.
   * `reopened` is called when the stream starts over after the link to main came back.
   */
  openLogs(
    target: LogTarget,
    options: LogOptions,
    listener: (message: LogServerMessage) => void,
    reopened?: () => void,
  ): { opened: Promise<void>; close(): void };
}

/** A history message as a view sends it: main's reply is matched by a requestId the bridge adds. */
export type HistoryRequest = HistoryClientMessage extends infer T
  ? T extends { requestId: number }
    ? Omit<T, 'requestId'>
    : never
  : never;
