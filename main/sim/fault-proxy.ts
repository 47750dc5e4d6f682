// A TCP proxy in front of the embedded cluster, for the one network fault the server cannot fake
// itself: a connection that goes silent in both directions for ever, as when a NAT or a proxy drops
// its state without telling either end. Nothing is sent (no FIN, no RST, no byte; HTTP/2 PINGs go
// unanswered), and nothing is closed. It works below TLS and HTTP, so it hangs HTTP/1.1 and HTTP/2
// connections alike. Connections opened afterwards are served normally.
import net from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

interface ProxiedConnection {
  client: Socket;
  upstream: Socket;
}

export class FaultProxy {
  private readonly open = new Set<ProxiedConnection>();
  /** Blackholed pairs: kept (so nothing is closed) until the proxy closes. */
  private readonly hung = new Set<ProxiedConnection>();
  private acceptedCount = 0;

  private constructor(
    private readonly server: net.Server,
    private readonly targetPort: number,
  ) {}

  /** Listens on 127.0.0.1:`port` (0: ephemeral) and forwards to 127.0.0.1:`targetPort`. */
  static async start(targetPort: number, port = 0): Promise<FaultProxy> {
    const server = net.createServer();
    const proxy = new FaultProxy(server, targetPort);
    server.on('connection', (client) => proxy.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return proxy;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Client connections accepted since start. */
  get accepted(): number {
    return this.acceptedCount;
  }

  /**
   * Every connection open now goes silent both ways, for ever, after `delayMs` (0: at once; later
   * connections are not touched either way); returns how many.
   */
  blackholeConnections(delayMs = 0): number {
    const chosen = [...this.open];
    if (delayMs === 0) this.hang(chosen);
    else setTimeout(() => this.hang(chosen.filter((connection) => this.open.has(connection))), delayMs);
    return chosen.length;
  }

  private hang(connections: readonly ProxiedConnection[]): void {
    for (const connection of connections) {
      const { client, upstream } = connection;
      // Bytes already read are dropped, and nothing more is read: each end's writes pile up in the
      // kernel's buffers, unacknowledged by the application, as in front of a dead NAT entry.
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
      // A hung pair reports nothing either: errors and closes of one side are not passed on.
      client.removeAllListeners('close');
      upstream.removeAllListeners('close');
      this.open.delete(connection);
      this.hung.add(connection);
    }
  }

  async close(): Promise<void> {
    for (const { client, upstream } of [...this.open, ...this.hung]) {
      client.destroy();
      upstream.destroy();
    }
    this.open.clear();
    this.hung.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    this.acceptedCount++;
    const upstream = net.connect(this.targetPort, '127.0.0.1');
    const connection = { client, upstream };
    this.open.add(connection);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    client.pipe(upstream);
    upstream.pipe(client);
    const closeBoth = () => {
      this.open.delete(connection);
      client.destroy();
      upstream.destroy();
    };
    // Errors end the pair like a close does; the hung set keeps a blackholed pair quiet.
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
    client.on('close', closeBoth);
    upstream.on('close', closeBoth);
  }
}
