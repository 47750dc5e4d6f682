// One WebSocket to a browser's DevTools endpoint, spoken as the Chrome DevTools Protocol: numbered
// commands answered by id, and events, each either the browser's or one of a flattened target
// session's (Target.attachToTarget with flatten: every session's messages on this one socket, told
// apart by sessionId, as playwright-core does). It enables nothing by itself: a domain the bench never
// enables costs the page nothing (the Network domain's copy of every WebSocket frame, above all).
import { WebSocket } from 'ws';

type Listener = (params: unknown) => void;

interface Message {
  id?: number;
  method?: string;
  params?: unknown;
  sessionId?: string;
  result?: unknown;
  error?: { code: number; message: string; data?: string };
}

/** A target's commands and events (a page's, once attached), or the browser's when sessionId is absent. */
export interface CdpSession {
  /** Chromium's page metrics (ThreadTime, TaskDuration...: seconds), once Performance is enabled. */
  send(method: 'Performance.getMetrics'): Promise<{ metrics: { name: string; value: number }[] }>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- protocol results are typed by the caller
  send<T = any>(method: string, params?: object): Promise<T>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- protocol events are typed by the caller
  on(event: string, listener: (params: any) => void): void;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  once(event: string, listener: (params: any) => void): void;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  off(event: string, listener: (params: any) => void): void;
}

export class CdpConnection {
  private nextId = 0;
  private readonly pending = new Map<
    number,
    { method: string; resolve: (result: unknown) => void; reject: (error: Error) => void }
  >();
  /** Listeners by `sessionId event` ('' for the browser's own). */
  private readonly listeners = new Map<string, Set<Listener>>();
  private closedError: Error | undefined;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => this.receive(JSON.parse(data.toString()) as Message));
    socket.on('close', () => this.fail(new Error('the DevTools connection closed')));
    socket.on('error', (error) => this.fail(error));
  }

  static async open(url: string): Promise<CdpConnection> {
    // No compression: the endpoint is on loopback, and deflate would cost both sides CPU per message.
    const socket = new WebSocket(url, { perMessageDeflate: false, maxPayload: 1 << 30 });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new CdpConnection(socket);
  }

  /** The browser target's session (sessionId undefined) or an attached target's. */
  session(sessionId?: string): CdpSession {
    const key = (event: string) => `${sessionId ?? ''} ${event}`;
    return {
      send: (method: string, params?: object) => this.send<never>(method, params ?? {}, sessionId),
      on: (event, listener) => this.listen(key(event), listener),
      off: (event, listener) => this.listeners.get(key(event))?.delete(listener),
      once: (event, listener) => {
        const once: Listener = (params) => {
          this.listeners.get(key(event))?.delete(once);
          listener(params);
        };
        this.listen(key(event), once);
      },
    };
  }

  close(): void {
    this.socket.close();
  }

  private send<T>(method: string, params: object, sessionId: string | undefined): Promise<T> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (result: unknown) => void, reject });
      this.socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  private listen(key: string, listener: Listener): void {
    let set = this.listeners.get(key);
    if (!set) this.listeners.set(key, (set = new Set()));
    set.add(listener);
  }

  private receive(message: Message): void {
    if (message.id !== undefined) {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.error)
        waiting.reject(new Error(`${waiting.method}: ${message.error.message} ${message.error.data ?? ''}`));
      else waiting.resolve(message.result);
      return;
    }
    if (message.method === undefined) return;
    // A copy: a once-listener removes itself while the set is walked.
    for (const listener of [...(this.listeners.get(`${message.sessionId ?? ''} ${message.method}`) ?? [])])
      listener(message.params);
  }

  private fail(error: Error): void {
    this.closedError ??= error;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
