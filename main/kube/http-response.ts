// A response as RestClient reads it, whichever protocol carried it: HTTP/1.1's IncomingMessage or an
// HTTP/2 stream. Both bodies are Readables that end cleanly only when the server finished the body.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { ClientHttp2Stream, IncomingHttpHeaders as Http2Headers } from 'node:http2';
import type { Readable } from 'node:stream';

export type HttpProtocol = 'h2' | 'http/1.1';

export interface HttpResponse {
  readonly protocol: HttpProtocol;
  readonly statusCode: number;
  readonly statusMessage: string;
  readonly headers: IncomingHttpHeaders;
  /** The body; destroying it ends the request (on HTTP/2, only its stream). */
  readonly body: Readable;
  /** Whether the server sent the whole body (false when the connection or stream ended it early). */
  complete(): boolean;
}

/** A request on its way: its response once the headers arrive, and a way to end it. */
export interface OutgoingRequest {
  /** Rejects with the network's error (refused, reset, TLS, a lost connection). */
  readonly response: Promise<HttpResponse>;
  /** Ends the request now, before or after its response arrived. */
  abort(error: Error): void;
}

export function http1Response(message: IncomingMessage): HttpResponse {
  return {
    protocol: 'http/1.1',
    statusCode: message.statusCode ?? 0,
    statusMessage: message.statusMessage ?? '',
    headers: message.headers,
    body: message,
    complete: () => message.complete,
  };
}

/** `headers` are the stream's response headers (':status' and the rest). */
export function http2Response(stream: ClientHttp2Stream, headers: Http2Headers): HttpResponse {
  // Node pushes the end of the readable only when END_STREAM arrives (or the server reset the
  // stream with NO_ERROR/CANCEL, which kube-apiserver does not send mid-body); errors destroy it.
  let ended = false;
  stream.once('end', () => {
    ended = true;
  });
  const { ':status': status, ...rest } = headers;
  return {
    protocol: 'h2',
    statusCode: Number(status ?? 0),
    statusMessage: '',
    headers: rest as IncomingHttpHeaders,
    body: stream,
    complete: () => ended,
  };
}
