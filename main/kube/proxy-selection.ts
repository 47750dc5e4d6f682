// Which proxy, if any, requests to an API server go through, chosen as client-go chooses it: the
// cluster's `proxy-url` from the kubeconfig when set (clientcmd's parseProxyURL: http, https or socks5,
// used for every request to that cluster, NO_PROXY notwithstanding), else Go's
// http.ProxyFromEnvironment: HTTPS_PROXY for an https:// server, HTTP_PROXY for an http:// one (the
// upper-case name first), never for localhost or a loopback address, and not for a host NO_PROXY
// names (golang.org/x/net/http/httpproxy's matching: "*", IPs, CIDRs, domains with their subdomains,
// ".domain" for subdomains only, each with an optional port).
import { BlockList, isIP } from 'node:net';

/** The proxy variables of an environment (process.env by default). */
export type ProxyEnvironment = Readonly<Record<string, string | undefined>>;

export type ProxyScheme = 'http:' | 'https:' | 'socks5:';

/** A kubeconfig's proxy-url that client-go would refuse: the connection fails with this, naming it. */
export class ProxyConfigurationError extends Error {
  override readonly name = 'ProxyConfigurationError';
}

/** The proxy for `server` (an API server's base URL), or undefined to connect directly. */
export function proxyFor(
  server: string,
  clusterProxyUrl: string | undefined,
  environment: ProxyEnvironment = process.env,
): URL | undefined {
  if (clusterProxyUrl) return parseClusterProxyUrl(clusterProxyUrl);
  const target = new URL(server);
  const secure = target.protocol === 'https:';
  const value = secure
    ? (environment.HTTPS_PROXY ?? environment.https_proxy)
    : (environment.HTTP_PROXY ?? environment.http_proxy);
  const proxy = parseEnvironmentProxy(value);
  if (!proxy) return undefined;
  const host = bareHost(target).toLowerCase();
  const port = target.port || (secure ? '443' : '80');
  if (!useProxy(host, port, environment.NO_PROXY ?? environment.no_proxy ?? '')) return undefined;
  return proxy;
}

/** A URL's host as sockets take it: an IPv6 address without its brackets. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** The proxy's address for messages: its scheme, host and port, never its credentials. */
export function describeProxy(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}

/** The port a proxy URL without one is reached on, as Go's transport defaults it. */
export function proxyPort(proxy: URL): number {
  if (proxy.port) return Number(proxy.port);
  return proxy.protocol === 'https:' ? 443 : proxy.protocol === 'socks5:' ? 1080 : 80;
}

function parseClusterProxyUrl(text: string): URL {
  let proxy: URL;
  try {
    proxy = new URL(text);
  } catch {
    throw new ProxyConfigurationError(`the cluster's proxy-url could not be parsed: ${redact(text)}`);
  }
  if (!['http:', 'https:', 'socks5:'].includes(proxy.protocol))
    throw new ProxyConfigurationError(
      `the cluster's proxy-url has the unsupported scheme "${proxy.protocol.slice(0, -1)}", must be http, https, or socks5`,
    );
  return proxy;
}

/** As Go's httpproxy parseProxy: a value without a scheme (or that does not parse) is tried as http://. */
function parseEnvironmentProxy(value: string | undefined): URL | undefined {
  if (!value) return undefined;
  try {
    const proxy = new URL(value);
    if (proxy.host !== '' && ['http:', 'https:', 'socks5:'].includes(proxy.protocol)) return proxy;
  } catch {
    // Tried with http:// below.
  }
  try {
    return new URL(`http://${value}`);
  } catch {
    throw new ProxyConfigurationError(`the proxy variable's value is not an address: ${redact(value)}`);
  }
}

/** httpproxy's useProxy: false for localhost, loopback addresses, and what NO_PROXY matches. */
function useProxy(host: string, port: string, noProxy: string): boolean {
  if (host === 'localhost') return false;
  const family = isIP(host);
  if (family !== 0 && isLoopback(host, family)) return false;
  for (const raw of noProxy.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return false;
    if (family !== 0 && cidrContains(entry, host, family)) return false;
    const [entryHost, entryPort] = splitHostPort(entry);
    if (entryHost === '') continue;
    if (isIP(entryHost) !== 0) {
      if (family !== 0 && sameAddress(entryHost, host) && (entryPort === '' || entryPort === port))
        return false;
      continue;
    }
    if (domainMatches(entryHost, host) && (entryPort === '' || entryPort === port)) return false;
  }
  return true;
}

/** "foo.com" matches foo.com and its subdomains; ".foo.com" and "*.foo.com" its subdomains only. */
function domainMatches(entry: string, host: string): boolean {
  const name = host.replace(/\.$/, '');
  const pattern = entry.startsWith('*.') ? entry.slice(1) : entry;
  if (pattern.startsWith('.')) return name.endsWith(pattern);
  return name === pattern || name.endsWith(`.${pattern}`);
}

function splitHostPort(entry: string): [string, string] {
  const bracketed = /^\[([^\]]*)\](?::(\d*))?$/.exec(entry);
  if (bracketed) return [bracketed[1]!, bracketed[2] ?? ''];
  // A bare IPv6 address has colons of its own and no port.
  if (isIP(entry) === 6) return [entry, ''];
  const colon = entry.lastIndexOf(':');
  if (colon === -1) return [entry, ''];
  return [entry.slice(0, colon), entry.slice(colon + 1)];
}

function cidrContains(entry: string, host: string, family: number): boolean {
  const slash = entry.indexOf('/');
  if (slash === -1) return false;
  const network = entry.slice(0, slash);
  const prefix = Number(entry.slice(slash + 1));
  const networkFamily = isIP(network);
  if (networkFamily === 0 || !Number.isInteger(prefix)) return false;
  const list = new BlockList();
  try {
    list.addSubnet(network, prefix, networkFamily === 6 ? 'ipv6' : 'ipv4');
  } catch {
    return false;
  }
  return list.check(host, family === 6 ? 'ipv6' : 'ipv4');
}

function sameAddress(left: string, right: string): boolean {
  const family = isIP(left);
  if (family !== isIP(right)) return false;
  const list = new BlockList();
  list.addAddress(left, family === 6 ? 'ipv6' : 'ipv4');
  return list.check(right, family === 6 ? 'ipv6' : 'ipv4');
}

function isLoopback(host: string, family: number): boolean {
  if (family === 4) return host.startsWith('127.');
  const list = new BlockList();
  list.addAddress('::1', 'ipv6');
  list.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');
  return list.check(host, 'ipv6');
}

/** A URL-ish text with any user:password@ cut out, for an error message. */
function redact(text: string): string {
  return text.replace(/\/\/[^/@]*@/, '//');
}
