// Our HTTP client for the API server (client-go's rest.RESTClient, the parts a viewer needs). Every
// request goes through the connection's transport (one HTTP/2 connection, or a keep-alive pool for
// HTTP/1.1 servers); every failure says which request failed:
// non-2xx replies become StatusError subclasses carrying the Status (so the Reflector can classify
// them), network failures name the server. Bodies are collected as Buffers and parsed once.
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { Clock, Timer } from '../cache/clock';
import { realClock } from '../cache/real-clock';
import { isStatus, newStatus } from '../../shared/kube/status';
import type { Status } from '../../shared/kube/status';
import type { AuthorizedRequest, ClusterConnection } from './cluster-connection';
import { ListReplyDecoder } from './list-reply-decoder';
import {
  ProxyTunnelError,
  ServerUnreachableError,
  TlsVerificationError,
  UnauthorizedError,
  describeRequest,
  reasonForCode,
  toApiStatusError,
} from './errors';
import type { RequestDescription } from './errors';
import type { HttpResponse } from './http-response';

/** Takes a reply's bytes chunk by chunk (ListReplyDecoder, or a post of them to a worker). */
export interface ReplyReader<T> {
  push(chunk: Buffer): void;
  finish(): T | Promise<T>;
}

export type QueryValue = string | number | boolean | undefined;

export interface RestRequest {
  /** The path under the server URL, e.g. /api/v1/namespaces/payments/pods. */
  path: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Undefined values are not sent. */
  query?: Record<string, QueryValue>;
  accept?: string;
  body?: unknown;
  contentType?: string;
  /** What the request does, for every error message. */
  description: RequestDescription;
  /** Aborting ends the request at once and rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface RestClientOptions {
  clock?: Clock;
  /**
   * No response headers, or for JSON replies no body bytes, for this long fails the request. Never a
   * whole-request deadline: a cluster-wide LIST may legitimately take 30 s and more to transfer.
   */
  inactivityTimeoutMs?: number;
  userAgent?: string;
}

const defaultInactivityTimeoutMs = 60_000;
const defaultUserAgent = 'kubetide/0.1 (node)';
const tlsErrorCodes = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'EPROTO',
]);

export class RestClient {
  private readonly clock: Clock;
  private readonly inactivityTimeoutMs: number;
  private readonly userAgent: string;

  constructor(
    readonly connection: ClusterConnection,
    options: RestClientOptions = {},
  ) {
    this.clock = options.clock ?? realClock;
    this.inactivityTimeoutMs = options.inactivityTimeoutMs ?? defaultInactivityTimeoutMs;
    this.userAgent = options.userAgent ?? defaultUserAgent;
  }

  /** Sends the request and parses the 2xx JSON reply. */
  async json<T>(request: RestRequest): Promise<T> {
    const response = await this.send({ ...request, accept: request.accept ?? 'application/json' }, true);
    const body = await this.readWhole(response, request);
    try {
      return JSON.parse(body.toString('utf8')) as T;
    } catch (error) {
      throw this.notJson(request, error);
    }
  }

  /**
   * Sends a LIST and decodes the 2xx JSON reply as it arrives (ListReplyDecoder): each item is parsed
   * (and given to `mapItem`) when its bytes are complete, so a reply of any size never holds the
   * thread for long. With `omitManagedFields` (the caller drops them) items' managedFields are cut out
   * unparsed.
   */
  async list<T>(
    request: RestRequest,
    mapItem?: (item: unknown) => unknown,
    omitManagedFields = false,
  ): Promise<T> {
    return (await this.listInto(request, new ListReplyDecoder(mapItem, omitManagedFields))) as T;
  }

  /**
   * Sends a LIST and hands the 2xx reply's bytes to `reader` as they arrive, each chunk a task of its
   * own; resolves with what `reader.finish` makes of them. A SyntaxError from the reader says the reply
   * is not JSON.
   */
  async listInto<T>(request: RestRequest, reader: ReplyReader<T>): Promise<T> {
    const response = await this.send({ ...request, accept: request.accept ?? 'application/json' }, true);
    try {
      await this.read(response, request, (chunk) => reader.push(chunk), true);
      return await reader.finish();
    } catch (error) {
      if (error instanceof SyntaxError) throw this.notJson(request, error);
      throw error;
    }
  }

  private notJson(request: RestRequest, error: unknown): Error {
    return new Error(`${this.prefix(request)}: the reply is not JSON (${(error as Error).message})`, {
      cause: error,
    });
  }

  /**
   * Sends the request and resolves with the 2xx response once its headers arrive, body unread: the
   * caller owns the body and must consume or destroy it (WatchStream does). The signal no longer
   * applies. The response says which protocol carried it (watches time out differently on each).
   */
  stream(request: RestRequest): Promise<HttpResponse> {
    return this.send(request, false);
  }

  private async send(request: RestRequest, forJson: boolean, attempt = 0): Promise<HttpResponse> {
    request.signal?.throwIfAborted();
    const authorized = await this.connection.authorize();
    request.signal?.throwIfAborted();
    const response = await this.exchange(request, authorized, forJson);
    if (response.statusCode >= 200 && response.statusCode < 300) return response;
    const error = await this.statusError(response, request);
    if (error instanceof UnauthorizedError && attempt === 0 && this.connection.invalidateCredentials()) {
      return this.send(request, forJson, attempt + 1);
    }
    throw error;
  }

  private exchange(
    request: RestRequest,
    authorized: AuthorizedRequest,
    forJson: boolean,
  ): Promise<HttpResponse> {
    const url = this.connection.server + request.path + queryString(request.query);
    const headers: Record<string, string | string[]> = {
      ...authorized.headers,
      Accept: request.accept ?? 'application/json',
      'User-Agent': this.userAgent,
    };
    // Watches stay uncompressed: gzip would buffer events; big LIST replies shrink several-fold,
    // unless the kubeconfig's disable-compression says the link is worth more than the CPU.
    if (forJson && !this.connection.disableCompression) headers['Accept-Encoding'] = 'gzip';
    let payload: Buffer | undefined;
    if (request.body !== undefined) {
      payload = Buffer.from(JSON.stringify(request.body));
      headers['Content-Type'] = request.contentType ?? 'application/json';
      headers['Content-Length'] = String(payload.length);
    }
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        timer.stop();
        request.signal?.removeEventListener('abort', onAbort);
        outcome();
      };
      const outgoing = authorized.transport.start({
        url,
        method: request.method ?? 'GET',
        headers,
        payload,
      });
      const onAbort = () => {
        finish(() => reject(request.signal?.reason));
        outgoing.abort(request.signal?.reason as Error);
      };
      const timer = this.clock.setTimeout(() => {
        const error = Object.assign(new Error(`no response within ${this.inactivityTimeoutMs} ms`), {
          code: 'ETIMEDOUT',
        });
        finish(() => reject(this.networkError(request, error)));
        outgoing.abort(error);
      }, this.inactivityTimeoutMs);
      request.signal?.addEventListener('abort', onAbort, { once: true });
      outgoing.response.then(
        (response) => {
          finish(() => resolve(response));
          // A JSON body is still ours to abort; a stream belongs to its owner from here on.
          if (request.signal && forJson) {
            const onBodyAbort = () => response.body.destroy(request.signal?.reason as Error);
            request.signal.addEventListener('abort', onBodyAbort, { once: true });
            response.body.once('close', () => request.signal?.removeEventListener('abort', onBodyAbort));
          }
        },
        (error: unknown) => finish(() => reject(this.networkError(request, error))),
      );
    });
  }

  private networkError(request: RestRequest, error: unknown): Error {
    const code = (error as { code?: string }).code;
    const server = this.connection.server;
    const description = this.prefix(request);
    // A proxy's own failure (its certificate included) is not the API server's: said as the proxy's.
    if (error instanceof ProxyTunnelError)
      return new ServerUnreachableError(server, description, code, error);
    if (code && (tlsErrorCodes.has(code) || code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS'))) {
      return new TlsVerificationError(server, description, code, error);
    }
    return new ServerUnreachableError(server, description, code, error);
  }

  private async statusError(response: HttpResponse, request: RestRequest): Promise<Error> {
    const code = response.statusCode ?? 0;
    let body: Buffer;
    try {
      body = await this.readWhole(response, request);
    } catch {
      body = Buffer.alloc(0);
    }
    let status: Status | undefined;
    try {
      const parsed: unknown = JSON.parse(body.toString('utf8'));
      if (isStatus(parsed)) status = { ...parsed, code: parsed.code || code };
    } catch {
      // Not JSON (a proxy's HTML page, plain text): synthesized below from the HTTP status.
    }
    if (!status) {
      const text = body.toString('utf8').trim().slice(0, 200);
      status = newStatus(code, reasonForCode(code), text || response.statusMessage || `HTTP ${code}`);
    }
    const retryAfter = Number(response.headers['retry-after']);
    if (Number.isFinite(retryAfter) && retryAfter > 0 && status.details?.retryAfterSeconds === undefined) {
      status = { ...status, details: { ...status.details, retryAfterSeconds: retryAfter } };
    }
    return toApiStatusError(status, request.description);
  }

  /** readBody with this client's clock and inactivity timeout. */
  private read(
    response: HttpResponse,
    request: RestRequest,
    sink: (chunk: Buffer) => void,
    yieldBetweenChunks = false,
  ): Promise<void> {
    const prefix = this.prefix(request);
    return readBody(
      response,
      request,
      prefix,
      this.clock,
      this.inactivityTimeoutMs,
      sink,
      yieldBetweenChunks,
    );
  }

  /** The whole body in one Buffer. */
  private async readWhole(response: HttpResponse, request: RestRequest): Promise<Buffer> {
    const chunks: Buffer[] = [];
    await this.read(response, request, (chunk) => {
      chunks.push(chunk);
    });
    return Buffer.concat(chunks);
  }

  private prefix(request: RestRequest): string {
    return `${request.method ?? 'GET'} ${request.path} (${describeRequest(request.description)})`;
  }
}

export function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') parameters.set(name, String(value));
  }
  const text = parameters.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * The most of a body the sink is handed in one task: what the socket hands over of a reply sent as it
 * is (64 KiB reads), so a gzipped LIST (a real API server compresses replies over 128 KiB) is decoded
 * in as many tasks, each as long, as a plain one.
 */
export const sinkPieceBytes = 64 * 1024;

/**
 * How much inflated output gunzip hands back to main's loop at a time, cut into sinkPieceBytes pieces
 * there. Each handover is a round trip through main's loop before zlib inflates on, and main took one
 * per turn: at zlib's default 16 KiB, ~21,000 turns for a 150,000-pod LIST's 329 MiB (a 13 MB reply
 * with the loop busy 2 ms a turn: 1.6 s, 0.4 s at 64 KiB, 0.11 s at 256 KiB). At 64 KiB inflating and
 * decoding still took turns: that LIST served gzipped from memory synced 0.5-0.7 s later than plain,
 * with main's CPU the same and idle between pieces.
 */
export const gunzipChunkBytes = 256 * 1024;

/**
 * Hands the body to `sink` chunk by chunk (gunzipped if it came compressed), failing if it stalls; a
 * sink that throws ends the reply with that error. With `yieldBetweenChunks` each chunk is a task of
 * its own: the socket can deliver dozens of chunks in one turn of the event loop, and a sink that
 * parses them would otherwise hold the loop (timers, other replies, IPC) for all of them.
 */
function readBody(
  response: HttpResponse,
  request: RestRequest,
  prefix: string,
  clock: Clock,
  inactivityTimeoutMs: number,
  sink: (chunk: Buffer) => void,
  yieldBetweenChunks = false,
): Promise<void> {
  const source = response.body;
  return new Promise((resolve, reject) => {
    let lastActivity = clock.now();
    let timer: Timer | undefined;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      timer?.stop();
      reject(error);
      source.destroy();
    };
    const arm = (delayMs: number) => {
      timer = clock.setTimeout(() => {
        const idle = clock.now() - lastActivity;
        if (idle < inactivityTimeoutMs) return arm(inactivityTimeoutMs - idle);
        source.destroy(new Error(`the reply stalled for ${inactivityTimeoutMs} ms`));
      }, delayMs);
    };
    arm(inactivityTimeoutMs);
    source.on('data', () => {
      lastActivity = clock.now();
    });
    const body: Readable =
      response.headers['content-encoding'] === 'gzip'
        ? source.pipe(createGunzip({ chunkSize: gunzipChunkBytes }))
        : source;
    const deliver = (piece: Buffer): boolean => {
      try {
        sink(piece);
        return true;
      } catch (error) {
        fail(error);
        return false;
      }
    };
    // Pieces of a chunk not yet handed over, one a task (a gunzipped chunk is several); the body's end
    // may come before the last of them, and the reply is read only once they are all handed over.
    const waiting: Buffer[] = [];
    let handing = false;
    let ended = false;
    const finish = () => {
      timer?.stop();
      resolve();
    };
    const handOver = () => {
      if (failed) return;
      const piece = waiting.shift();
      if (piece === undefined) {
        handing = false;
        if (ended) finish();
        else body.resume();
        return;
      }
      if (deliver(piece)) setImmediate(handOver);
    };
    body.on('data', (chunk: Buffer) => {
      if (failed) return;
      if (!yieldBetweenChunks) {
        deliver(chunk);
        return;
      }
      body.pause();
      for (let at = 0; at < chunk.length; at += sinkPieceBytes)
        waiting.push(chunk.subarray(at, at + sinkPieceBytes));
      handing = true;
      handOver();
    });
    if (body !== source) body.on('error', (error) => fail(error));
    source.on('error', (error) => {
      fail(
        request.signal?.aborted
          ? request.signal.reason
          : new Error(`${prefix}: ${error.message}`, { cause: error }),
      );
    });
    body.on('end', () => {
      if (failed) return;
      ended = true;
      if (!handing) finish();
    });
    source.on('close', () => {
      timer?.stop();
      if (!response.complete())
        fail(request.signal?.reason ?? new Error(`${prefix}: connection closed mid-reply`));
    });
  });
}
