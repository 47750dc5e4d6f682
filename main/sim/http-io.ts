// Small HTTP helpers shared by the handlers: JSON and Status replies, request bodies, and writes
// that wait for 'drain' so a big LIST body streams out instead of piling up in memory.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import { constants as http2Constants } from 'node:http2';
import type { ServerHttp2Stream } from 'node:http2';
import type { Status } from '../../shared/kube/status';
import { StatusError, newStatus } from '../../shared/kube/status';

export function sendJson(
  response: ServerResponse,
  code: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendText(response, code, JSON.stringify(body), headers);
}

export function sendText(
  response: ServerResponse,
  code: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(code, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

export function sendStatus(
  response: ServerResponse,
  status: Status,
  headers: Record<string, string> = {},
): void {
  if (response.headersSent) {
    cutResponse(response);
    return;
  }
  const retryAfter = status.details?.retryAfterSeconds;
  sendJson(
    response,
    status.code,
    status,
    retryAfter !== undefined ? { 'Retry-After': String(retryAfter), ...headers } : headers,
  );
}

/** Any thrown value as a Status: StatusErrors keep theirs, anything else is a 500. */
export function statusOfError(error: unknown): Status {
  if (error instanceof StatusError) return error.status;
  const message = error instanceof Error ? error.message : String(error);
  return newStatus(500, 'InternalError', `Internal error occurred: ${message}`);
}

const maximumBodyBytes = 8 * 1024 * 1024;

export async function readBody(request: IncomingMessage): Promise<string> {
  return (await readBodyBytes(request)).toString('utf8');
}

/** The request body as bytes, for the binary (protobuf) media types. */
export async function readBodyBytes(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maximumBodyBytes)
      throw new StatusError(
        newStatus(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 8388608'),
      );
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Whether the client went away or the response was cut. Over HTTP/2 the response is node:http2's
 * compatibility Http2ServerResponse, which has no `destroyed` of its own; its stream has.
 */
export function responseGone(response: ServerResponse): boolean {
  const stream = (response as { stream?: { destroyed: boolean } }).stream;
  return stream ? stream.destroyed : response.destroyed;
}

/**
 * Cuts the response without a proper end, as a dying API server does. Over HTTP/1.1 the connection is
 * destroyed. Over HTTP/2 the stream is reset with INTERNAL_ERROR: destroying it would reset it with
 * CANCEL, which the client's HTTP/2 stack reports as a clean end of the body.
 */
export function cutResponse(response: ServerResponse): void {
  const stream = (response as { stream?: ServerHttp2Stream }).stream;
  if (stream) stream.close(http2Constants.NGHTTP2_INTERNAL_ERROR);
  else response.destroy();
}

/**
 * Writes a chunk to the response (or to `sink` in front of it: its compressor) and waits for 'drain'
 * when the buffer is full; rejects if the client went away.
 */
export function writeChunk(
  response: ServerResponse,
  chunk: string,
  sink: Writable = response,
): Promise<void> | undefined {
  if (responseGone(response)) return Promise.reject(new Error('client closed the connection'));
  if (sink.write(chunk)) return undefined;
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      sink.off('drain', onDrain);
      response.off('close', onClose);
    };
    const onDrain = () => {
      cleanup();
      resolve();
    };
    const onClose = () => {
      cleanup();
      reject(new Error('client closed the connection'));
    };
    sink.on('drain', onDrain);
    response.on('close', onClose);
  });
}

/** Buffers small strings into ~64 KiB writes, awaiting drain between them. */
export class ChunkedWriter {
  private buffer: string[] = [];
  private size = 0;

  /** `sink`: what the chunks go through on their way to the response (its compressor), if anything. */
  constructor(
    private readonly response: ServerResponse,
    private readonly sink: Writable = response,
  ) {}

  /** Returns a promise only when the caller must wait for the socket to drain (no per-item promise). */
  push(text: string): Promise<void> | undefined {
    this.buffer.push(text);
    this.size += text.length;
    return this.size >= 65_536 ? this.flush() : undefined;
  }

  flush(): Promise<void> | undefined {
    if (this.buffer.length === 0) return undefined;
    const chunk = this.buffer.join('');
    this.buffer = [];
    this.size = 0;
    return writeChunk(this.response, chunk, this.sink);
  }
}
