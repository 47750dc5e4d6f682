// The renderer's side of the bridge: keeps one link to main open (reconnecting with backoff), says
// hello with every subscription it mirrors so main resumes them with fresh snapshots, answers
// requests by id, feeds pushed messages to the MirrorStore, acknowledges applied batches (main's
// backpressure), and asks for a resnapshot on any sequence gap.
import { joinReplyValue } from '../../shared/protocol/reply-parts';
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';
import { protocolVersion } from '../../shared/protocol/client-messages';
import type {
  ClientMessage,
  InvolvedObject,
  ResumedSubscription,
} from '../../shared/protocol/client-messages';
import type {
  ContextList,
  ReplyError,
  RevealedSecretValue,
  ServerMessage,
} from '../../shared/protocol/server-messages';
import type {
  HistoryClientMessage,
  HistoryCursorMessage,
  HistoryExportMessage,
  HistoryExportReply,
  RecordedMetrics,
} from '../../shared/protocol/history-messages';
import type { LogOptions, LogServerMessage, LogTarget } from '../../shared/protocol/log-messages';
import type { FrameScheduler } from '../store/frame-scheduler';
import { validateMetricsMessage } from '../../shared/protocol/metrics-messages';
import { MetricsPartJoiner } from '../../shared/protocol/metrics-parts';
import { MetricsStore } from '../store/metrics-store';
import { MirrorStore } from '../store/mirror-store';
import type { MirrorStateStore } from '../store/mirror-state';
import type { BridgeLink, LinkOpener } from './bridge-link';
import { LogStreams } from './log-streams';

/** A request main refused or failed, with the API server's code and reason when it was the cause. */
export class BridgeRequestError extends Error {
  override readonly name = 'BridgeRequestError';
  constructor(readonly error: ReplyError) {
    super(error.message);
  }
}

export interface ClientTimers {
  now(): number;
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface BridgeClientOptions {
  open: LinkOpener;
  scheduler: FrameScheduler;
  timers?: ClientTimers;
  initialRetryDelayMs?: number;
  maxRetryDelayMs?: number;
}

type RequestBody<T = ClientMessage> = T extends { requestId: number } ? Omit<T, 'requestId'> : never;

interface PendingRequest {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

const globalTimers: ClientTimers = {
  now: () => Date.now(),
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class BridgeClient {
  readonly store: MirrorStore;
  /** CPU and memory samples, beside the mirror rather than in it (see metrics-store.ts). */
  readonly metrics = new MetricsStore(
    undefined,
    (resource, time, held, signal) =>
      this.withdrawable<RecordedMetrics>(
        {
          type: 'historyMetrics',
          resource,
          time,
          ...(held?.keys === undefined ? {} : { heldKeys: held.keys }),
          ...(held?.answer === undefined ? {} : { heldAnswer: held.answer }),
        },
        signal,
      ).reply,
  );
  /** Main sends a big cluster's metrics in parts; the store receives them whole. */
  private readonly metricsParts = new MetricsPartJoiner();
  private readonly timers: ClientTimers;
  private readonly subscriptions = new Map<string, { gvr: GroupVersionResource; namespace?: string }>();
  private readonly pending = new Map<number, PendingRequest>();
  /** The parts of replies still to come (see reply-parts.ts), by request id. */
  private readonly replyParts = new Map<number, unknown[]>();
  private link: BridgeLink | undefined;
  private ready = false;
  private nextRequestId = 1;
  private nextSubscription = 1;
  private retryDelay: number;
  private retryTimer: unknown;
  /** The session main serves now (ContextList.session), and its context. */
  private session: { context: string; number: number } | undefined;
  private stopped = false;
  private nextReplay = 1;
  private readonly replays = new Set<string>();
  private readonly cursorListeners = new Set<(cursor: HistoryCursorMessage) => void>();
  /** The running history exports' progress listeners, by request id (removed with the reply). */
  private readonly exportProgress = new Map<number, (changes: number) => void>();
  private readonly logStreams = new LogStreams({
    request: (body) => this.request(body),
    sendIfReady: (message) => this.sendIfReady(message),
    now: () => this.timers.now(),
  });

  constructor(private readonly options: BridgeClientOptions) {
    this.timers = options.timers ?? globalTimers;
    this.retryDelay = options.initialRetryDelayMs ?? 500;
    this.store = new MirrorStore({
      scheduler: options.scheduler,
      onGap: (subscriptionId) => this.sendIfReady({ type: 'resnapshot', subscriptionId }),
      onApplied: (subscriptionId, seq) => this.sendIfReady({ type: 'ack', subscriptionId, seq }),
    });
  }

  /** UI state: connection, per-subscription revisions and sync states, kinds, contexts. */
  get state(): MirrorStateStore {
    return this.store.state;
  }

  /** Connects, and keeps reconnecting after every loss until close(). */
  start(): void {
    this.stopped = false;
    void this.connect();
  }

  /** Mirrors (gvr, namespace); resolves with the id whose rows store.mirror(id) holds. */
  async subscribe(gvr: GroupVersionResource, namespace?: string): Promise<string> {
    const subscriptionId = `s${this.nextSubscription++}`;
    this.subscriptions.set(subscriptionId, namespace ? { gvr, namespace } : { gvr });
    this.store.open(subscriptionId);
    if (this.ready) {
      try {
        await this.request({ type: 'subscribe', subscriptionId, gvr, ...(namespace ? { namespace } : {}) });
      } catch (error) {
        this.subscriptions.delete(subscriptionId);
        this.store.close(subscriptionId);
        throw error;
      }
    }
    return subscriptionId;
  }

  /** The kind a live subscription mirrors; undefined for replays and unknown ids. */
  subscribedResource(subscriptionId: string): GroupVersionResource | undefined {
    return this.subscriptions.get(subscriptionId)?.gvr;
  }

  unsubscribe(subscriptionId: string): void {
    if (!this.subscriptions.delete(subscriptionId)) return;
    this.store.close(subscriptionId);
    this.sendIfReady({ type: 'unsubscribe', subscriptionId });
  }

  /**
   * Opens a replay mirror: main fills it with historyState (the past as a snapshot) and historyPlay
   * (playback as live batches), through the same mirror and indexes as a live subscription. A moment
   * is shown only once whole (see replayHolds), so its snapshot is applied whole.
   */
  openReplay(): string {
    const subscriptionId = `replay${this.nextReplay++}`;
    this.replays.add(subscriptionId);
    this.store.open(subscriptionId, 0, { wholeSnapshots: true });
    return subscriptionId;
  }

  closeReplay(subscriptionId: string): void {
    if (!this.replays.delete(subscriptionId)) return;
    this.store.close(subscriptionId);
    this.sendIfReady({ type: 'unsubscribe', subscriptionId });
  }

  /**
   * Sends a history request (see shared/protocol/history-messages) and resolves with its reply value.
   * A moment asked for a kind this window also mirrors live is sent as its difference from the live
   * rows (HistoryStateMessage.base): a recent moment then costs the rows that changed since.
   */
  history<T>(body: RequestBody<HistoryClientMessage>): Promise<T> {
    if (body.type === 'historyState' && body.base === undefined) {
      const base = this.liveMirrorOf(body.gvr, body.namespace);
      if (base !== undefined) return this.request({ ...body, base }) as Promise<T>;
    }
    return this.request(body) as Promise<T>;
  }

  /**
   * A live subscription mirroring (gvr, namespace) whose first snapshot has ended, if any: what a
   * travel of that kind is sent against (see history), named ahead with the timeline's questions.
   */
  liveMirrorOf(gvr: GroupVersionResource, namespace: string | undefined): string | undefined {
    for (const [subscriptionId, subscribed] of this.subscriptions) {
      if ((subscribed.namespace ?? '') !== (namespace ?? '')) continue;
      const { group, version, resource } = subscribed.gvr;
      if (group !== gvr.group || version !== gvr.version || resource !== gvr.resource) continue;
      if (this.store.mirror(subscriptionId)?.hasSnapshot) return subscriptionId;
    }
    return undefined;
  }

  /**
   * Starts a history export: `onProgress` is told how many changes it has written so far, and cancel()
   * asks main to stop it (the reply then rejects saying so, and main leaves no file of it).
   */
  exportHistory(
    body: RequestBody<HistoryExportMessage>,
    onProgress: (changes: number) => void,
  ): { reply: Promise<HistoryExportReply | null>; cancel(): void } {
    const cancelled = new AbortController();
    const { requestId, reply } = this.withdrawable<HistoryExportReply | null>(body, cancelled.signal);
    if (requestId !== undefined) {
      this.exportProgress.set(requestId, onProgress);
      const ended = () => this.exportProgress.delete(requestId);
      reply.then(ended, ended);
    }
    return { reply, cancel: () => cancelled.abort() };
  }

  /**
   * Sends a request that `signal` withdraws while it is unanswered (historyWithdraw): main then
   * answers it with an error instead, unless it had answered already.
   */
  private withdrawable<T>(
    body: RequestBody,
    signal: AbortSignal | undefined,
  ): { requestId: number | undefined; reply: Promise<T> } {
    const { requestId, reply } = this.send(body);
    const sent = { requestId, reply: reply as Promise<T> };
    if (requestId === undefined || signal === undefined) return sent;
    const withdraw = () =>
      void this.request({ type: 'historyWithdraw', withdrawnRequestId: requestId }).catch(() => {});
    if (signal.aborted) withdraw();
    else {
      signal.addEventListener('abort', withdraw, { once: true });
      const answered = () => signal.removeEventListener('abort', withdraw);
      reply.then(answered, answered);
    }
    return sent;
  }

  /**
   * Told of every replay cursor as it arrives, before the batches ahead of it are applied (views read
   * store.state.replays instead, which is in step with the rows). Returns the unsubscriber.
   */
  onHistoryCursor(listener: (cursor: HistoryCursorMessage) => void): () => void {
    this.cursorListeners.add(listener);
    return () => this.cursorListeners.delete(listener);
  }

  /**
   * Opens a log stream; its lines, sources and notes go to `listener` until close(). `opened` settles
   * with main's reply (rejecting when main refused the stream). Main ends a connection's streams with
   * it, so after the link comes back each stream is opened again and `reopened` is called first: its
   * lines start over from the tail, and the caller clears what it held.
   */
  openLogs(
    target: LogTarget,
    options: LogOptions,
    listener: (message: LogServerMessage) => void,
    reopened: () => void = () => {},
  ): { opened: Promise<void>; close(): void } {
    return this.logStreams.open(target, options, listener, reopened);
  }

  resync(subscriptionId: string): Promise<void> {
    return this.request({ type: 'resync', subscriptionId }).then(() => undefined);
  }

  getObject(gvr: GroupVersionResource, namespace: string | undefined, name: string): Promise<KubeObject> {
    return this.request({
      type: 'getObject',
      gvr,
      name,
      ...(namespace ? { namespace } : {}),
    }) as Promise<KubeObject>;
  }

  /** One Secret value; the detail pane's Reveal control is its only caller. */
  revealSecretValue(namespace: string, name: string, key: string): Promise<RevealedSecretValue> {
    return this.request({ type: 'revealSecretValue', namespace, name, key }) as Promise<RevealedSecretValue>;
  }

  listEvents(involvedObject: InvolvedObject): Promise<KubeObject[]> {
    return this.request({ type: 'listEvents', involvedObject }) as Promise<KubeObject[]>;
  }

  listContexts(): Promise<ContextList> {
    return this.request({ type: 'listContexts' }) as Promise<ContextList>;
  }

  /** Replaces the namespaces the user added for the current context (main keeps them per context). */
  setNamespaces(namespaces: string[]): Promise<void> {
    return this.request({ type: 'setNamespaces', namespaces }).then(() => undefined);
  }

  switchContext(context: string): Promise<void> {
    return this.request({ type: 'switchContext', context }).then(() => undefined);
  }

  /** Sends a request and resolves with its reply's value; rejects when refused or the link drops. */
  request(body: RequestBody): Promise<unknown> {
    return this.send(body).reply;
  }

  /** Closes the link for good. */
  close(): void {
    this.stopped = true;
    if (this.retryTimer !== undefined) this.timers.clearTimeout(this.retryTimer);
    this.link?.close();
    this.setConnection({ phase: 'closed' });
  }

  /**
   * The network came back (the browser's `online` event): main re-establishes every watch at once
   * rather than waiting for dead connections to time out. `offlineSince` is when it went away.
   */
  networkRestored(offlineSince?: number): void {
    this.sendIfReady(
      offlineSince === undefined ? { type: 'reconnect' } : { type: 'reconnect', offlineSince },
    );
  }

  /** Sends a request; `requestId` is its id, undefined when it could not be sent. */
  private send(body: RequestBody): { requestId: number | undefined; reply: Promise<unknown> } {
    if (!this.ready || !this.link) {
      return { requestId: undefined, reply: Promise.reject(new Error('not connected to main')) };
    }
    const requestId = this.nextRequestId++;
    const link = this.link;
    const reply = new Promise((resolve, reject) => {
      this.pending.set(requestId, { resolve, reject });
      link.send({ ...body, requestId } as ClientMessage);
    });
    return { requestId, reply };
  }

  private sendIfReady(message: ClientMessage): void {
    if (this.ready) this.link?.send(message);
  }

  private async connect(): Promise<void> {
    this.retryTimer = undefined;
    if (this.stopped) return;
    this.setConnection({ phase: 'connecting' });
    let link: BridgeLink;
    try {
      link = await this.options.open();
    } catch (error) {
      this.scheduleReconnect(error instanceof Error ? error.message : String(error));
      return;
    }
    if (this.stopped) {
      link.close();
      return;
    }
    this.link = link;
    link.onMessage((message) => this.receive(message));
    link.onClose((reason) => this.lost(link, reason));
    const requestId = this.nextRequestId++;
    const hello = new Promise((resolve, reject) => this.pending.set(requestId, { resolve, reject }));
    const resume = this.resumeList();
    link.send({ type: 'hello', requestId, protocolVersion, resume });
    try {
      await hello;
    } catch (error) {
      link.close(`hello refused: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    this.ready = true;
    this.retryDelay = this.options.initialRetryDelayMs ?? 500;
    this.setConnection({ phase: 'open' });
    // Main resumes the hello's subscriptions before it answers, so their first batches (a snapshot's
    // first eight, main's unacknowledged bound) can be applied while hello is unanswered, when acks
    // are not sent: main then waits for them for ever, and the mirror never ends its snapshot (the
    // ui bench's Pods table stuck busy at 16,000 of 50,000 rows). What was applied is acknowledged
    // now; an ack main has already had changes nothing there.
    for (const { subscriptionId } of resume) {
      const lastSeq = this.store.mirror(subscriptionId)?.lastSeq ?? 0;
      if (lastSeq > 0) link.send({ type: 'ack', subscriptionId, seq: lastSeq });
    }
    this.logStreams.reopenAll();
    // Subscriptions made while hello was in flight were not in its resume list.
    const resumed = new Set(resume.map((entry) => entry.subscriptionId));
    for (const [subscriptionId, { gvr, namespace }] of this.subscriptions) {
      if (resumed.has(subscriptionId)) continue;
      this.request({ type: 'subscribe', subscriptionId, gvr, ...(namespace ? { namespace } : {}) }).catch(
        () => {},
      );
    }
  }

  private resumeList(): ResumedSubscription[] {
    return [...this.subscriptions].map(([subscriptionId, { gvr, namespace }]) => ({
      subscriptionId,
      gvr,
      ...(namespace ? { namespace } : {}),
      lastSeq: this.store.mirror(subscriptionId)?.lastSeq ?? 0,
    }));
  }

  private lost(link: BridgeLink, reason: string): void {
    if (this.link !== link) return;
    this.link = undefined;
    this.ready = false;
    for (const request of this.pending.values())
      request.reject(new Error(`connection to main lost: ${reason}`));
    this.pending.clear();
    this.replyParts.clear();
    this.logStreams.lost(reason);
    if (!this.stopped) this.scheduleReconnect(reason);
  }

  private scheduleReconnect(error: string): void {
    if (this.stopped) return;
    const delay = this.retryDelay;
    this.retryDelay = Math.min(delay * 2, this.options.maxRetryDelayMs ?? 10_000);
    this.setConnection({ phase: 'connecting', retryAt: this.timers.now() + delay, error });
    this.retryTimer = this.timers.setTimeout(() => void this.connect(), delay);
  }

  private receive(message: ServerMessage): void {
    switch (message.type) {
      case 'replyPart': {
        // Kept only for a request still waiting; parts come in order, ahead of their reply.
        if (!this.pending.has(message.requestId)) return;
        const parts = this.replyParts.get(message.requestId) ?? [];
        if (parts.length === message.index) parts.push(message.value);
        this.replyParts.set(message.requestId, parts);
        return;
      }
      case 'reply': {
        const parts = this.replyParts.get(message.requestId) ?? [];
        this.replyParts.delete(message.requestId);
        const request = this.pending.get(message.requestId);
        if (!request) return;
        this.pending.delete(message.requestId);
        if (!message.ok) request.reject(new BridgeRequestError(message.error));
        else {
          try {
            request.resolve(joinReplyValue(message.value, parts));
          } catch (error) {
            request.reject(error instanceof Error ? error : new Error(String(error)));
          }
        }
        return;
      }
      case 'rejected':
        console.warn(`main refused a message: ${message.reason}`);
        return;
      case 'historyCursor':
        for (const listener of this.cursorListeners) listener(message);
        // Also in order with the batches, so state.replays never runs ahead of the rows.
        this.store.receive(message);
        return;
      case 'historyExportProgress':
        this.exportProgress.get(message.requestId)?.(message.changes);
        return;
      case 'logLines':
      case 'logSources':
      case 'logNote':
        this.logStreams.receive(message);
        return;
      case 'contexts':
        this.sessionChanged(message.current, message.session);
        this.store.receive(message);
        return;
      case 'metrics': {
        const metrics = validateMetricsMessage(message);
        if (metrics instanceof Error) console.warn(`dropped a malformed metrics message: ${metrics.message}`);
        else {
          const whole = this.metricsParts.add(metrics);
          if (whole) this.metrics.receive(whole);
        }
        return;
      }
      default:
        this.store.receive(message);
    }
  }

  /**
   * After a context switch, or the context opened anew (its kubeconfig entry changed), main has
   * dropped every subscription and log stream: apply what was queued from the old session, then mirror
   * the same kinds afresh in the new one, and, for the same context, open its log streams again.
   */
  private sessionChanged(context: string, session: number): void {
    const previous = this.session;
    this.session = { context, number: session };
    if (previous === undefined || (previous.context === context && previous.number === session)) return;
    this.metrics.clear();
    this.metricsParts.clear();
    this.store.applyQueued();
    for (const [subscriptionId, { gvr, namespace }] of this.subscriptions) {
      this.store.close(subscriptionId);
      this.store.open(subscriptionId);
      this.request({ type: 'subscribe', subscriptionId, gvr, ...(namespace ? { namespace } : {}) }).catch(
        () => {},
      );
    }
    // Main ended the old session's log streams with it; the same context's pods are still there.
    if (previous.context === context) this.logStreams.reopenAll();
  }

  private setConnection(connection: {
    phase: 'connecting' | 'open' | 'closed';
    retryAt?: number;
    error?: string;
  }): void {
    this.store.state.setState({ connection });
  }
}
