// One renderer's end of the bridge in main: every message from the Transport is validated, refused
// with its reason, or served against the host's current ClusterSession. A connection must say hello
// first; after a context switch it is re-attached to the new session by the host. Each connection is
// held to its ConnectionLimits: a flood closes it, too many subscriptions or requests are refused with
// 429, and refusals are logged once per connection (then counted), so a hostile client costs main no
// more than a well-behaved one and never delays the others.
import { StatusError, newStatus } from '../../shared/kube/status';
import { protocolVersion } from '../../shared/protocol/client-messages';
import type { ClientMessage, HelloMessage } from '../../shared/protocol/client-messages';
import type { HistoryClientMessage } from '../../shared/protocol/history-messages';
import type { ContextList, HelloReply, ReplyError } from '../../shared/protocol/server-messages';
import { requestIdOf, validateClientMessage } from '../../shared/protocol/validate-client-message';
import type { ClusterSession } from './cluster-session';
import type { SessionConnection } from './session-connection';
import type { Transport } from './transport';
import { HistoryService } from './history-service';
import { LogService } from './log-service';
import type { FilePicker } from './history-service';
import type { HistoryTransfers } from './history-transfers';
import { MessageRateLimiter, defaultConnectionLimits } from './connection-limits';
import type { ConnectionLimits } from './connection-limits';

/** What a connection needs of the BridgeHost that owns it. */
export interface ConnectionHost {
  readonly session: ClusterSession;
  listContexts(): Promise<ContextList>;
  switchContext(context: string): Promise<void>;
  /** Re-establishes every watch at once (the renderer saw the network come back). */
  reconnect(reason: string, staleSince?: number): void;
  log(message: string): void;
  /** Main's file dialog, where there is one (Electron). */
  readonly pickFile?: FilePicker | undefined;
  /** Browser mode's history downloads and uploads. */
  readonly transfers?: HistoryTransfers | undefined;
  /** Per-connection limits (default: defaultConnectionLimits). */
  readonly limits?: ConnectionLimits | undefined;
}

/** Turns any failure into what a reply carries, keeping the API server's code and reason. */
export function replyErrorOf(error: unknown): ReplyError {
  if (error instanceof StatusError) return { code: error.code, reason: error.reason, message: error.message };
  return { message: error instanceof Error ? error.message : String(error) };
}

function tooManyRequests(message: string): StatusError {
  return new StatusError(newStatus(429, 'TooManyRequests', message));
}

export class BridgeConnection {
  private sessionConnection: SessionConnection | undefined;
  private history: HistoryService | undefined;
  private logs: LogService | undefined;
  private greeted = false;
  private closed = false;
  private readonly limits: ConnectionLimits;
  private readonly rate: MessageRateLimiter;
  private outstandingRequests = 0;
  private refusedMessages = 0;

  constructor(
    readonly transport: Transport,
    private readonly host: ConnectionHost,
    private readonly onClosed: (connection: BridgeConnection) => void,
  ) {
    this.limits = host.limits ?? defaultConnectionLimits;
    this.rate = new MessageRateLimiter(
      host.session.clock,
      this.limits.messagesPerSecond,
      this.limits.messageBurst,
    );
    transport.onMessage((message) => this.receive(message));
    transport.onClose(() => this.close());
  }

  /** Moves this connection to the host's new session and tells the renderer about it. */
  async rebind(): Promise<void> {
    if (!this.greeted || this.closed) return;
    this.history?.close();
    this.history = this.newHistory();
    this.logs?.close();
    this.logs = this.newLogs();
    this.sessionConnection = this.host.session.attach(this.transport);
    await this.pushState();
  }

  /** Tells the renderer the contexts as they are now (the kubeconfig changed). */
  async pushContexts(): Promise<void> {
    if (!this.greeted || this.closed) return;
    const contexts = await this.host.listContexts();
    if (!this.closed) this.transport.send({ type: 'contexts', ...contexts });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.sessionConnection?.close();
    this.history?.close();
    if (this.refusedMessages > 1) {
      this.host.log(`${this.transport.description}: refused ${this.refusedMessages} messages in all`);
    }
    this.logs?.close();
    this.onClosed(this);
  }

  private receive(raw: unknown): void {
    if (this.closed) return;
    if (!this.rate.take()) {
      this.abort(
        `sent messages faster than ${this.limits.messagesPerSecond} per second ` +
          `(bursts up to ${this.limits.messageBurst})`,
      );
      return;
    }
    const result = validateClientMessage(raw);
    if (!result.ok) {
      this.refuse(requestIdOf(raw), result.reason);
      return;
    }
    const message = result.message;
    if (!this.greeted && message.type !== 'hello') {
      this.refuse('requestId' in message ? message.requestId : undefined, `${message.type} before hello`);
      return;
    }
    const requestId = 'requestId' in message ? message.requestId : undefined;
    if (requestId !== undefined && this.outstandingRequests >= this.limits.maxOutstandingRequests) {
      this.transport.send({
        type: 'reply',
        requestId,
        ok: false,
        error: replyErrorOf(
          tooManyRequests(
            `${this.limits.maxOutstandingRequests} requests are already in progress on this connection; ` +
              'wait for their replies',
          ),
        ),
      });
      return;
    }
    if (requestId !== undefined) this.outstandingRequests++;
    const served = this.serve(message).finally(() => {
      if (requestId !== undefined) this.outstandingRequests--;
    });
    void served.then(
      (value) => {
        if (this.closed || !('requestId' in message) || message.requestId === undefined) return;
        this.transport.send({ type: 'reply', requestId: message.requestId, ok: true, value: value ?? null });
      },
      (error: unknown) => {
        const requestId = 'requestId' in message ? message.requestId : undefined;
        if (requestId === undefined) {
          this.host.log(
            `${this.transport.description}: ${message.type} failed: ${replyErrorOf(error).message}`,
          );
          return;
        }
        if (!this.closed)
          this.transport.send({ type: 'reply', requestId, ok: false, error: replyErrorOf(error) });
      },
    );
  }

  /**
   * Answers a message main will not act on. Only the first refusal of a connection is logged (the
   * total is logged when it closes): a flood of bad messages must not become a flood of log lines.
   * Past maxInvalidMessages the connection is closed.
   */
  private refuse(requestId: number | undefined, reason: string): void {
    this.refusedMessages++;
    if (this.refusedMessages === 1)
      this.host.log(`${this.transport.description}: refused a message: ${reason}`);
    if (this.refusedMessages > this.limits.maxInvalidMessages) {
      this.abort(`sent more than ${this.limits.maxInvalidMessages} invalid messages (the last: ${reason})`);
      return;
    }
    if (requestId !== undefined) {
      this.transport.send({
        type: 'reply',
        requestId,
        ok: false,
        error: { code: 400, reason: 'BadRequest', message: reason },
      });
    } else {
      this.transport.send({ type: 'rejected', reason });
    }
  }

  /** Ends a connection that broke a limit no reply can remedy, telling the client why. */
  private abort(reason: string): void {
    if (this.closed) return;
    this.host.log(`${this.transport.description}: closing the connection: it ${reason}`);
    this.transport.send({ type: 'rejected', reason: `connection closed: it ${reason}` });
    this.close();
    this.transport.close(`it ${reason}`);
  }

  /** Throws 429 when one more subscription would pass this connection's limit. */
  private checkSubscriptionLimit(): void {
    const held = (this.sessionConnection?.subscriptionIds().length ?? 0) + (this.history?.replayCount ?? 0);
    if (held >= this.limits.maxSubscriptions) {
      throw tooManyRequests(
        `this connection already holds ${held} subscriptions, the most one connection may hold; ` +
          'unsubscribe from some first',
      );
    }
  }

  private async serve(message: ClientMessage): Promise<unknown> {
    const session = this.host.session;
    const subscriptions = this.sessionConnection;
    const history = this.history;
    if (message.type.startsWith('history')) {
      if (!history) throw new Error('history is not available before hello');
      if (message.type === 'historyState' && !history.has(message.subscriptionId)) {
        this.checkSubscriptionLimit();
      }
      return history.serve(message as HistoryClientMessage);
    }
    if (message.type === 'openLogs' || message.type === 'closeLogs') {
      if (!this.logs) throw new Error('logs are not available before hello');
      return this.logs.serve(message);
    }
    switch (message.type) {
      case 'hello':
        return this.hello(message);
      case 'subscribe':
        this.checkSubscriptionLimit();
        subscriptions?.subscribe(message.subscriptionId, message.gvr, message.namespace ?? '');
        return null;
      case 'unsubscribe':
        if (!history?.unsubscribe(message.subscriptionId)) subscriptions?.unsubscribe(message.subscriptionId);
        return null;
      case 'resnapshot':
        if (history?.has(message.subscriptionId)) history.resnapshot(message.subscriptionId);
        else subscriptions?.resnapshot(message.subscriptionId);
        return null;
      case 'ack':
        if (history?.has(message.subscriptionId)) history.acknowledge(message.subscriptionId, message.seq);
        else subscriptions?.acknowledge(message.subscriptionId, message.seq);
        return null;
      case 'reconnect':
        this.host.reconnect('network is back', message.offlineSince);
        return null;
      case 'resync':
        if (!(await subscriptions?.resync(message.subscriptionId))) {
          throw new Error(`no subscription ${message.subscriptionId}`);
        }
        return null;
      case 'getObject':
        return session.getObject(message.gvr, message.namespace ?? '', message.name);
      case 'revealSecretValue':
        return session.revealSecretValue(message.namespace, message.name, message.key);
      case 'listEvents':
        return session.listEvents(message.involvedObject);
      case 'listContexts':
        return this.host.listContexts();
      case 'switchContext':
        await this.host.switchContext(message.context);
        return null;
      case 'setNamespaces':
        session.setAddedNamespaces(message.namespaces);
        return null;
    }
  }

  private async hello(message: HelloMessage): Promise<HelloReply> {
    if (message.protocolVersion !== protocolVersion) {
      throw new Error(
        `protocol version ${message.protocolVersion} is not supported; this main speaks ${protocolVersion}`,
      );
    }
    if (this.greeted) throw new Error('hello was already received on this connection');
    this.greeted = true;
    this.sessionConnection = this.host.session.attach(this.transport);
    this.history = this.newHistory();
    this.logs = this.newLogs();
    await this.pushState();
    for (const resumed of message.resume ?? []) {
      try {
        this.checkSubscriptionLimit();
        this.sessionConnection.subscribe(
          resumed.subscriptionId,
          resumed.gvr,
          resumed.namespace ?? '',
          resumed.lastSeq,
        );
      } catch (error) {
        this.host.log(
          `${this.transport.description}: could not resume ${resumed.subscriptionId}: ${replyErrorOf(error).message}`,
        );
      }
    }
    return { protocolVersion };
  }

  private newHistory(): HistoryService {
    const transport = this.transport;
    return new HistoryService({
      session: () => this.host.session,
      send: (message) => {
        if (!this.closed) transport.send(message);
      },
      clock: this.host.session.clock,
      liveRows: (subscriptionId, gvr, namespace) =>
        this.sessionConnection?.baseRows(subscriptionId, gvr, namespace),
      liveJournal: (subscriptionId) => this.sessionConnection?.liveJournal(subscriptionId),
      ...(this.host.pickFile ? { pickFile: this.host.pickFile } : {}),
      ...(this.host.transfers ? { transfers: this.host.transfers } : {}),
      ...(transport.bufferedAmount ? { bufferedBytes: () => transport.bufferedAmount!() } : {}),
    });
  }

  private newLogs(): LogService {
    const transport = this.transport;
    return new LogService({
      session: () => this.host.session,
      clock: this.host.session.clock,
      send: (message) => {
        if (!this.closed) transport.send(message);
      },
    });
  }

  private async pushState(): Promise<void> {
    await this.pushContexts();
    if (this.closed) return;
    const namespaces = this.host.session.namespaceChoices();
    this.transport.send({
      type: 'kinds',
      kinds: this.host.session.kinds(),
      ...(namespaces ? { namespaces } : {}),
    });
  }
}
