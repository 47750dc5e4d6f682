// A LIST's body compressed as kube-apiserver compresses it (APIResponseCompression, on by default since
// 1.16): when the client accepts gzip and the body is over 128 KiB, at gzip level 1
// (responsewriters/writers.go: defaultGzipThresholdBytes, and defaultGzipContentEncodingLevel, chosen
// in kubernetes#112296 for the least CPU at ratios within 1.1-1.3x of higher levels). A streamed list's
// first 128 KiB are held until the body is known to pass the threshold, so a small list goes plain as
// it would from the API server; watches are never compressed. The embedded cluster compresses only when
// asked (compressResponses): on one machine it costs both ends CPU and saves nothing, but a real
// cluster's LIST of 150,000 pods arrives as ~20 MB of gzip rather than 329 MB of JSON (level 1 makes
// the embedded cluster's pods 16.5x smaller), and a client that reads only plain replies has never
// been tried against one.
import { createGzip } from 'node:zlib';
import type { Gzip } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ChunkedWriter, cutResponse } from './http-io';

/** A body larger than this many bytes is compressed when the client accepts gzip. */
export const gzipThresholdBytes = 128 * 1024;
/** gzip's fastest level: kube-apiserver's. */
export const gzipLevel = 1;

/** A cluster's response compression: whom it gzips for, and how many bodies it has gzipped. */
export class ResponseCompression {
  private count = 0;

  /** This compression when the request accepts gzip, else undefined (its body goes plain). */
  for(request: IncomingMessage): ResponseCompression | undefined {
    return acceptsGzip(request.headers['accept-encoding']) ? this : undefined;
  }

  /** Bodies gzipped so far (GET /_sim/stats: compressedResponses). */
  get compressed(): number {
    return this.count;
  }

  counted(): void {
    this.count++;
  }
}

/** Whether an Accept-Encoding header accepts gzip (listed, and not with q=0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [coding = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (coding !== 'gzip') return false;
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    return quality === undefined || Number(quality.slice(2)) > 0;
  });
}

/**
 * A 200 response's body written in pieces: plain, or, given a `compression` (the request accepts
 * gzip), gzipped once its first pieces pass gzipThresholdBytes (its headers wait until then). push()
 * returns a promise only when the caller must wait for the client to read.
 */
export class ResponseBody {
  private held: string[] = [];
  private heldBytes = 0;
  private writer: ChunkedWriter | undefined;
  private gzip: Gzip | undefined;

  constructor(
    private readonly response: ServerResponse,
    private readonly headers: Record<string, string>,
    private readonly compression: ResponseCompression | undefined,
  ) {
    if (!compression) void this.begin(false);
  }

  push(text: string): Promise<void> | undefined {
    if (this.writer) return this.writer.push(text);
    this.held.push(text);
    this.heldBytes += Buffer.byteLength(text);
    return this.heldBytes > gzipThresholdBytes ? this.begin(true) : undefined;
  }

  /** Writes what is left and ends the response; resolves once it is all handed to the connection. */
  async end(): Promise<void> {
    if (!this.writer) await this.begin(false);
    await this.writer!.flush();
    if (!this.gzip) {
      this.response.end();
      return;
    }
    // The gzip stream ends the response when its last bytes are through (pipe).
    const response = this.response;
    const ended = new Promise<void>((resolve, reject) => {
      response.once('finish', resolve);
      response.once('close', () =>
        response.writableFinished ? resolve() : reject(new Error('client closed the connection')),
      );
    });
    this.gzip.end();
    await ended;
  }

  private begin(compressed: boolean): Promise<void> | undefined {
    const headers = compressed
      ? { ...this.headers, 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' }
      : this.headers;
    this.response.writeHead(200, headers);
    if (compressed) {
      const gzip = createGzip({ level: gzipLevel });
      gzip.pipe(this.response);
      // A client that went away takes the compressor with it (pipe does not); a compressor that
      // fails cuts the response, as a dying API server's would be.
      this.response.once('close', () => gzip.destroy());
      gzip.once('error', () => cutResponse(this.response));
      this.gzip = gzip;
      this.compression?.counted();
    }
    this.writer = new ChunkedWriter(this.response, this.gzip);
    const held = this.held.join('');
    this.held = [];
    return held ? this.writer.push(held) : undefined;
  }
}
