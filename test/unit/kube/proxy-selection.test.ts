// The proxy chosen for a server, against client-go's rules: the kubeconfig's proxy-url first (NO_PROXY
// does not apply to it), else Go's http.ProxyFromEnvironment with golang.org/x/net/http/httpproxy's
// NO_PROXY matching. Cases follow httpproxy's own proxy_test.go where they overlap.
import { describe, expect, it } from 'vitest';
import {
  describeProxy,
  proxyFor,
  proxyPort,
  ProxyConfigurationError,
} from '../../../main/kube/proxy-selection';

const proxied = (server: string, environment: Record<string, string>, proxyUrl?: string) =>
  proxyFor(server, proxyUrl, environment)?.toString();

describe("the kubeconfig's proxy-url", () => {
  it('is used for every request to its cluster, NO_PROXY and loopback notwithstanding', () => {
    expect(proxied('https://127.0.0.1:6443', { NO_PROXY: '*' }, 'socks5://bastion:1080')).toBe(
      'socks5://bastion:1080',
    );
    expect(proxied('https://api.example.com', { HTTPS_PROXY: 'http://other:3128' }, 'http://p:8080')).toBe(
      'http://p:8080/',
    );
  });

  it('refuses schemes other than http, https and socks5, as clientcmd does', () => {
    for (const url of ['socks4://p:1080', 'socks5h://p:1080', 'ftp://p'])
      expect(() => proxyFor('https://api', url, {})).toThrow(ProxyConfigurationError);
    expect(() => proxyFor('https://api', 'not a url', {})).toThrow('could not be parsed');
  });

  it('is never described with its credentials', () => {
    expect(describeProxy(new URL('http://ada:secret@p:3128'))).toBe('http://p:3128');
    expect(() => proxyFor('https://api', 'nope://ada:secret@p', {})).not.toThrow('secret');
  });
});

describe('the environment', () => {
  it('takes HTTPS_PROXY for https servers and HTTP_PROXY for http ones, the upper-case name first', () => {
    const environment = {
      HTTPS_PROXY: 'http://secure:1',
      https_proxy: 'http://lower:1',
      HTTP_PROXY: 'http://plain:1',
    };
    expect(proxied('https://api.example.com', environment)).toBe('http://secure:1/');
    expect(proxied('http://api.example.com', environment)).toBe('http://plain:1/');
    expect(proxied('https://api.example.com', { https_proxy: 'http://lower:1' })).toBe('http://lower:1/');
    expect(proxied('http://api.example.com', { HTTPS_PROXY: 'http://secure:1' })).toBeUndefined();
  });

  it('reads a value without a scheme as http://', () => {
    expect(proxied('https://api.example.com', { HTTPS_PROXY: 'cache.corp:3128' })).toBe(
      'http://cache.corp:3128/',
    );
    expect(proxied('https://api.example.com', { HTTPS_PROXY: 'socks5://s:1080' })).toBe('socks5://s:1080');
  });

  it('never proxies localhost or a loopback address', () => {
    const environment = { HTTPS_PROXY: 'http://p:1' };
    for (const server of [
      'https://localhost:6443',
      'https://127.0.0.1:6443',
      'https://127.1.2.3',
      'https://[::1]:6443',
    ])
      expect(proxied(server, environment)).toBeUndefined();
    expect(proxied('https://10.0.0.1:6443', environment)).toBe('http://p:1/');
  });

  const noProxy = (server: string, list: string) =>
    proxied(server, { HTTPS_PROXY: 'http://p:1', NO_PROXY: list });

  it('matches NO_PROXY domains as httpproxy does', () => {
    // "foo.com" names the domain and its subdomains.
    expect(noProxy('https://foo.com', 'foo.com')).toBeUndefined();
    expect(noProxy('https://api.foo.com', 'foo.com')).toBeUndefined();
    expect(noProxy('https://barfoo.com', 'foo.com')).toBe('http://p:1/');
    // ".foo.com" and "*.foo.com" only its subdomains.
    expect(noProxy('https://foo.com', '.foo.com')).toBe('http://p:1/');
    expect(noProxy('https://api.foo.com', '.foo.com')).toBeUndefined();
    expect(noProxy('https://foo.com', '*.foo.com')).toBe('http://p:1/');
    expect(noProxy('https://api.foo.com', '*.foo.com')).toBeUndefined();
    // Case, spaces and empty entries.
    expect(noProxy('https://API.Foo.COM', ' , other.org , FOO.com')).toBeUndefined();
    expect(noProxy('https://anything.example', '*')).toBeUndefined();
  });

  it('matches NO_PROXY ports, addresses and CIDRs', () => {
    expect(noProxy('https://foo.com:6443', 'foo.com:6443')).toBeUndefined();
    expect(noProxy('https://foo.com:443', 'foo.com:6443')).toBe('http://p:1/');
    // A server without a port is on 443.
    expect(noProxy('https://foo.com', 'foo.com:443')).toBeUndefined();
    expect(noProxy('https://10.1.2.3:6443', '10.1.2.3')).toBeUndefined();
    expect(noProxy('https://10.1.2.3:6443', '10.1.2.3:443')).toBe('http://p:1/');
    expect(noProxy('https://10.1.2.3:6443', '10.0.0.0/8')).toBeUndefined();
    expect(noProxy('https://11.1.2.3:6443', '10.0.0.0/8')).toBe('http://p:1/');
    expect(noProxy('https://[fd00::5]:6443', 'fd00::/8')).toBeUndefined();
    expect(noProxy('https://[fd00::5]:6443', '[fd00::5]:6443')).toBeUndefined();
    // A CIDR says nothing of a name.
    expect(noProxy('https://foo.com', '10.0.0.0/8')).toBe('http://p:1/');
  });

  it('gives a proxy without a port its scheme default', () => {
    expect(proxyPort(new URL('http://p'))).toBe(80);
    expect(proxyPort(new URL('https://p'))).toBe(443);
    expect(proxyPort(new URL('socks5://p'))).toBe(1080);
    expect(proxyPort(new URL('http://p:3128'))).toBe(3128);
  });
});
