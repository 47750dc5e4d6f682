// The OIDC identity provider as the oidc auth provider reaches it: its discovery document and its token
// endpoint. client-go builds this client with rest.TransportFor from the provider's own CA alone
// (idp-certificate-authority or -data; the system's roots without one), so its proxy is the
// environment's (HTTPS_PROXY / NO_PROXY), never the cluster's proxy-url, which names the way to the API
// server. Each host gets a ClusterTransport (HTTP/2 or HTTP/1.1, the dial deadline, tunnels), opened
// for one refresh and closed after it: refreshes come once an id-token's life (an hour, commonly).
import type { Clock, Timer } from '../cache/clock';
import { ClusterTransport } from './cluster-transport';
import { http2HealthSettings } from './http2-health-check';
import { proxyFor } from './proxy-selection';
import type { ProxyEnvironment } from './proxy-selection';

export interface IdentityProviderClientOptions {
  /** The provider's CA (PEM); undefined: the system's roots. */
  ca: Buffer | undefined;
  clock: Clock;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (default process.env). */
  proxyEnvironment?: ProxyEnvironment;
}

export interface ProviderResponse {
  readonly statusCode: number;
  /** The media type, without parameters, lower case ("application/json"). */
  readonly mediaType: string;
  readonly body: string;
}

/**
 * client-go's http.Client here has no overall timeout, so a provider that accepts and never answers
 * would hold every request to the cluster behind it for ever; a minute is well past any real answer.
 */
export const providerRequestTimeoutMs = 60_000;
/** golang.org/x/oauth2 reads at most 1 MiB of a token response; discovery documents are a few KiB. */
const maxBodyBytes = 1 << 20;

export class IdentityProviderClient {
  private readonly transports = new Map<string, ClusterTransport>();

  constructor(private readonly options: IdentityProviderClientOptions) {}

  get(url: string): Promise<ProviderResponse> {
    return this.send(url, 'GET', { Accept: 'application/json' });
  }

  /** A POST of `form` as application/x-www-form-urlencoded, with `headers` beside. */
  postForm(
    url: string,
    form: URLSearchParams,
    headers: Record<string, string> = {},
  ): Promise<ProviderResponse> {
    return this.send(
      url,
      'POST',
      { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
      Buffer.from(form.toString()),
    );
  }

  /** Ends every connection this client opened. */
  close(): void {
    for (const transport of this.transports.values()) transport.close();
    this.transports.clear();
  }

  private async send(
    url: string,
    method: string,
    headers: Record<string, string>,
    payload?: Buffer,
  ): Promise<ProviderResponse> {
    const request = this.transportFor(url).start({ url, method, headers, payload });
    const timeout = new Error(`${method} ${url}: no answer within ${providerRequestTimeoutMs / 1000} s`);
    let timer: Timer | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = this.options.clock.setTimeout(() => {
        request.abort(timeout);
        reject(timeout);
      }, providerRequestTimeoutMs);
    });
    try {
      return await Promise.race([this.read(request.response, url), expired]);
    } finally {
      timer?.stop();
    }
  }

  private async read(pending: ReturnType<ClusterTransport['start']>['response'], url: string) {
    const response = await pending;
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > maxBodyBytes) {
        response.body.destroy();
        throw new Error(`${url}: the answer is over ${maxBodyBytes} bytes`);
      }
      chunks.push(chunk);
    }
    const contentType = String(response.headers['content-type'] ?? '');
    return {
      statusCode: response.statusCode,
      mediaType: contentType.split(';')[0]!.trim().toLowerCase(),
      body: Buffer.concat(chunks).toString('utf8'),
    };
  }

  private transportFor(url: string): ClusterTransport {
    const origin = new URL(url).origin;
    let transport = this.transports.get(origin);
    if (!transport) {
      const proxy = proxyFor(origin, undefined, this.options.proxyEnvironment);
      transport = new ClusterTransport({
        server: origin,
        tls: origin.startsWith('https:')
          ? { ...(this.options.ca ? { ca: this.options.ca } : {}) }
          : undefined,
        clock: this.options.clock,
        health: http2HealthSettings(),
        ...(proxy ? { proxy } : {}),
      });
      this.transports.set(origin, transport);
    }
    return transport;
  }
}
