// The bridge's top: accepts renderer connections from any Transport, holds the current cluster
// session, and switches it when a renderer asks for another context, or opens the context anew when
// its kubeconfig entry changed. Every connected renderer moves with the new session (they share one
// main), is told of it, and resubscribes.
import type { ContextDescription, ContextList } from '../../shared/protocol/server-messages';
import { BridgeConnection } from './bridge-connection';
import type { ConnectionHost } from './bridge-connection';
import type { ClusterSession } from './cluster-session';
import type { Transport } from './transport';
import type { FilePicker } from './history-service';
import { defaultConnectionLimits } from './connection-limits';
import type { ConnectionLimits } from './connection-limits';
import type { HistoryTransfers } from './history-transfers';

export interface BridgeHostOptions {
  /** The session to serve first. */
  session: ClusterSession;
  /**
   * Contexts the user may switch to (the kubeconfig's, plus the embedded cluster), `current` among
   * them even when the kubeconfig no longer defines it.
   */
  listContexts: (current: ClusterSession) => ContextDescription[] | Promise<ContextDescription[]>;
  /** Opens a session for a context; rejects when the context is unknown or unreachable. */
  openSession: (context: string) => Promise<ClusterSession>;
  /** Where refusals and failures are reported (default console.warn). */
  log?: (message: string) => void;
  /** Main's file dialog (Electron), for history exports and imports the user picks a file for. */
  pickFile?: FilePicker;
  /** What each renderer connection may ask (default: defaultConnectionLimits). */
  limits?: ConnectionLimits;
  /** Browser mode's history downloads and uploads. */
  transfers?: HistoryTransfers;
}

/**
 * Opens a session to replace `previous`, or returns `previous` itself, changed in place (see
 * BridgeHost.renewSession).
 */
export type SessionOpener = (previous: ClusterSession) => Promise<ClusterSession>;

export class BridgeHost implements ConnectionHost {
  private current: ClusterSession;
  private readonly connections = new Set<BridgeConnection>();
  private switching: Promise<void> = Promise.resolve();
  /** ContextList.session: grows with every session opened after the first. */
  private sessionNumber = 1;

  constructor(private readonly options: BridgeHostOptions) {
    this.current = options.session;
  }

  get session(): ClusterSession {
    return this.current;
  }

  /**
   * Serves a renderer on `transport` until either side closes it; undefined when main already serves
   * as many connections as it will (each holds subscriptions, replays and buffers of its own).
   */
  accept(transport: Transport): BridgeConnection | undefined {
    const limit = this.limits?.maxConnections ?? defaultConnectionLimits.maxConnections;
    if (this.connections.size >= limit) {
      const reason = `main already serves ${limit} connections, the most it accepts; close a window or tab`;
      this.log(`kubetide: refused ${transport.description}: ${reason}`);
      transport.send({ type: 'rejected', reason });
      transport.close(reason);
      return undefined;
    }
    const connection = new BridgeConnection(transport, this, (closed) => this.connections.delete(closed));
    this.connections.add(connection);
    return connection;
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  async listContexts(): Promise<ContextList> {
    return {
      current: this.current.context,
      session: this.sessionNumber,
      contexts: await this.options.listContexts(this.current),
    };
  }

  /** Tells every renderer the contexts as they are now: the kubeconfig changed. */
  async pushContexts(): Promise<void> {
    await Promise.all([...this.connections].map((connection) => connection.pushContexts()));
  }

  /**
   * Opens `context` first and only then closes the current session, so a failed switch leaves the
   * user where they were. Switches are serialized.
   */
  switchContext(context: string): Promise<void> {
    return this.inTurn(async () => {
      if (context === this.current.context) return;
      await this.replace(await this.options.openSession(context));
    });
  }

  /**
   * Opens the current context anew, when `renewal` returns how: asked in turn with the switches, it
   * sees the session as it is then, and returns undefined to keep it. The opener is handed the session
   * it replaces, to close when its new session must take something of it over (the recording, which
   * one writer holds at a time); it is closed afterwards in any case. An opener that could renew the
   * session in place (new credentials of the same user) returns it: nothing changes for the
   * renderers. A failed opener leaves the current session serving, unless it closed it.
   */
  renewSession(renewal: (current: ClusterSession) => SessionOpener | undefined): Promise<void> {
    return this.inTurn(async () => {
      const open = renewal(this.current);
      if (!open) return;
      const opened = await open(this.current);
      if (opened !== this.current) await this.replace(opened);
    });
  }

  /** Makes `opened` current, closes the session it replaces, and moves every renderer to it. */
  private async replace(opened: ClusterSession): Promise<void> {
    const previous = this.current;
    this.current = opened;
    this.sessionNumber += 1;
    await previous.close();
    await Promise.all([...this.connections].map((connection) => connection.rebind()));
  }

  /** Runs `work` after the switches and renewals asked before it (one at a time). */
  private inTurn(work: () => Promise<void>): Promise<void> {
    const next = this.switching.then(work);
    this.switching = next.catch(() => undefined);
    return next;
  }

  /**
   * Re-establishes every watch of the current session at once: after the machine resumed from sleep
   * or the network came back. `staleSince` is when the data stopped being live (default: now).
   */
  reconnect(reason: string, staleSince?: number): void {
    const session = this.current;
    this.log(`kubetide: ${reason}; re-establishing every watch of context ${session.context}`);
    session.reconnectAll(reason, staleSince ?? session.clock.now());
  }

  log(message: string): void {
    (this.options.log ?? console.warn)(message);
  }

  get pickFile(): FilePicker | undefined {
    return this.options.pickFile;
  }

  get limits(): ConnectionLimits | undefined {
    return this.options.limits;
  }

  get transfers(): HistoryTransfers | undefined {
    return this.options.transfers;
  }

  /** Closes every connection and the session. */
  async close(): Promise<void> {
    for (const connection of [...this.connections]) {
      connection.close();
      connection.transport.close('main is shutting down');
    }
    await this.current.close();
  }
}
