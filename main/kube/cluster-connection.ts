// One context's cluster as our own HTTP requests need it: the server URL, one ClusterTransport (one
// HTTP/2 connection for every LIST and WATCH where the server speaks h2, a keep-alive pool otherwise;
// unlike client-node's connection per request), and the user's credentials, refreshed when they
// expire. client-node applies the kubeconfig's static auth (token, basic, client certificates, `as`,
// auth providers other than oidc); exec plugins run through ExecCredentialProvider so that failures
// are typed and a 401 can force a refresh; the oidc provider runs through OidcAuthProvider, which
// writes refreshed tokens back as kubectl does; and what client-node drops is applied here
// (kubectl-fields.ts: tokenFile, as-groups, as-uid, as-user-extra). Requests go
// through the cluster's proxy-url, or the environment's HTTPS_PROXY / HTTP_PROXY / NO_PROXY, as
// client-go's do (proxy-selection.ts).
import { readFileSync } from 'node:fs';
import type https from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import type { Cluster, User } from '@kubernetes/client-node';
import type { Clock } from '../cache/clock';
import { ClusterTransport } from './cluster-transport';
import type { TlsMaterial } from './cluster-transport';
import { ExecCredentialProvider } from './exec-credential';
import type { ExecConfig } from './exec-credential';
import type { ExecPluginRun } from './exec-plugin-run';
import type { HttpProtocol } from './http-response';
import type { OidcAuthProvider } from './oidc-auth-provider';
import { http2HealthSettings } from './http2-health-check';
import type { Http2HealthSettings } from './http2-health-check';
import type { ContextDescription } from './kubeconfig';
import type { Impersonation, KubeconfigCluster, KubeconfigUser } from './kubectl-fields';
import { TokenFile } from './token-file';
import { proxyFor } from './proxy-selection';
import type { ProxyEnvironment } from './proxy-selection';

/** What one request needs: headers carrying the credentials, and the transport to send it through. */
export interface AuthorizedRequest {
  /** Impersonate-Group and Impersonate-Extra-* repeat: one header per value. */
  headers: Record<string, string | string[]>;
  transport: ClusterTransport;
}

export interface ClusterConnectionOptions {
  description: ContextDescription;
  cluster: Cluster;
  user: User;
  clock: Clock;
  /** HTTP/2 health-check timings (default: client-go's, or its environment overrides). */
  health?: Http2HealthSettings;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (default process.env). */
  proxyEnvironment?: ProxyEnvironment;
  /** The user's oidc auth provider (see oidc-auth-provider.ts), shared by the user's connections. */
  oidc?: OidcAuthProvider;
  /** Told of an exec plugin's run that lasts (a login waiting for the user), undefined at its end. */
  onExecRun?: (run: ExecPluginRun | undefined) => void;
}

/** Who connects: all a connection takes from the kubeconfig's user entry, replaced whole (adoptCredentials). */
interface Credentials {
  user: User;
  /** A private single-context KubeConfig for client-node's static auth (see the constructor). */
  config: KubeConfig;
  exec: ExecCredentialProvider | undefined;
  tokenFile: TokenFile | undefined;
  oidc: OidcAuthProvider | undefined;
}

export class ClusterConnection {
  readonly contextName: string;
  /** The API server's base URL without a trailing slash (it may carry a path prefix, as behind Rancher). */
  readonly server: string;
  /** The context's namespace ("default" when unset). */
  readonly namespace: string;
  /** The proxy requests go through (its URL may carry credentials: never shown whole). */
  readonly proxy: URL | undefined;
  /** The cluster's disable-compression: never ask this server for gzip (client-go's DisableCompression). */
  readonly disableCompression: boolean;
  private credentials: Credentials;
  private readonly secure: boolean;
  private transport: ClusterTransport | undefined;
  private transportMaterial: TlsMaterial | undefined;
  /** Transports replaced after a certificate rotation; their in-flight watches end on their own. */
  private readonly retiredTransports: ClusterTransport[] = [];
  private closed = false;

  constructor(private readonly options: ClusterConnectionOptions) {
    const { cluster, description } = options;
    this.contextName = description.name;
    this.server = cluster.server.replace(/\/+$/, '');
    this.namespace = description.namespace;
    this.secure = !this.server.startsWith('http:');
    // Throws ProxyConfigurationError for a proxy-url client-go would refuse, as kubectl fails then.
    this.proxy = proxyFor(this.server, cluster.proxyUrl, options.proxyEnvironment);
    this.disableCompression = (cluster as KubeconfigCluster).disableCompression === true;
    this.credentials = this.credentialsOf(options.user, options.oidc);
  }

  /**
   * Takes `other`'s credentials from now on (the kubeconfig's user entry changed, and the API server
   * knows the new one as the same user): requests in flight finish with the old ones; a changed client
   * certificate moves the next requests to a new transport, as a rotation does. `other` must be made
   * from the same cluster entry; its own transport is not taken (the caller closes `other`).
   */
  adoptCredentials(other: ClusterConnection): void {
    if (other.server !== this.server)
      throw new Error(`credentials for ${other.server} cannot be used for ${this.server}`);
    this.credentials = other.credentials;
  }

  private credentialsOf(user: User, oidc: OidcAuthProvider | undefined): Credentials {
    const { cluster } = this.options;
    // A private single-context KubeConfig: client-node's authenticators keep per-instance state (token
    // caches, OIDC expiry), which must not be shared between users. Exec is ours, so client-node does
    // not see it; plain-HTTP servers are marked skip-verify only because client-node refuses http://
    // otherwise (there is no TLS to verify). The proxy is ours too (ClusterTransport): client-node
    // would otherwise build an agent for it that our requests never use.
    const { exec, ...userWithoutExec } = user as User & { exec?: ExecConfig };
    // The oidc provider is ours too (its tokens written back; see oidc-auth-provider.ts).
    if (oidc) delete userWithoutExec.authProvider;
    const config = new KubeConfig();
    config.loadFromOptions({
      clusters: [{ ...cluster, skipTLSVerify: cluster.skipTLSVerify || !this.secure, proxyUrl: undefined }],
      users: [userWithoutExec],
      contexts: [{ name: 'connection', cluster: cluster.name, user: user.name }],
      currentContext: 'connection',
    });
    const { tokenFile } = user as KubeconfigUser;
    return {
      user,
      config,
      oidc,
      tokenFile: tokenFile ? new TokenFile(tokenFile, this.options.clock) : undefined,
      exec: exec?.command
        ? new ExecCredentialProvider(
            exec,
            this.options.clock,
            {
              server: this.server,
              certificateAuthorityData: cluster.caData ?? fileAsBase64(cluster.caFile),
              insecureSkipTlsVerify: cluster.skipTLSVerify,
              tlsServerName: cluster.tlsServerName,
              proxyUrl: cluster.proxyUrl,
              disableCompression: this.disableCompression,
            },
            this.options.onExecRun,
          )
        : undefined,
    };
  }

  /** The protocol requests go over now: 'h2' once a connection negotiated it; undefined before any. */
  get protocol(): HttpProtocol | undefined {
    return this.transport?.protocol;
  }

  describe(): ContextDescription {
    return { ...this.options.description };
  }

  /** Credentials for the next request; runs the exec plugin if its credential is missing or expired. */
  async authorize(): Promise<AuthorizedRequest> {
    if (this.closed) throw new Error(`connection to ${this.server} (context ${this.contextName}) is closed`);
    // Read once: a request is made with one user's credentials, even if they are replaced meanwhile.
    const { config, tokenFile, exec, oidc, user } = this.credentials;
    const requestOptions: https.RequestOptions = { headers: {} };
    await config.applyToHTTPSOptions(requestOptions);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(requestOptions.headers ?? {})) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    if (requestOptions.auth)
      headers.Authorization = `Basic ${Buffer.from(requestOptions.auth).toString('base64')}`;
    // client-go: the file's token, once read, wins over a static `token` beside it.
    if (tokenFile) headers.Authorization = `Bearer ${await tokenFile.current()}`;
    Object.assign(headers, impersonationHeaders((user as KubeconfigUser).impersonation));
    const material: TlsMaterial = {
      ca: requestOptions.ca as TlsMaterial['ca'],
      cert: requestOptions.cert as TlsMaterial['cert'],
      key: requestOptions.key as TlsMaterial['key'],
      rejectUnauthorized: this.options.cluster.skipTLSVerify ? false : undefined,
      servername: this.options.cluster.tlsServerName,
    };
    if (oidc) headers.Authorization = `Bearer ${await oidc.idToken()}`;
    if (exec) {
      const credential = await exec.credential();
      if (credential.token) headers.Authorization = `Bearer ${credential.token}`;
      if (credential.clientCertificateData && credential.clientKeyData) {
        material.cert = credential.clientCertificateData;
        material.key = credential.clientKeyData;
      }
    }
    return { headers, transport: this.transportFor(material) };
  }

  /**
   * Called after a 401: drops cached credentials. True when fresh ones may differ (an exec plugin),
   * so that retrying the request once is worthwhile.
   */
  invalidateCredentials(): boolean {
    const { tokenFile, exec } = this.credentials;
    tokenFile?.reset();
    exec?.invalidate();
    return exec !== undefined || tokenFile !== undefined;
  }

  /**
   * Fails every request in flight and drops every connection, so that the next requests open fresh
   * ones at once: after sleep or a network change the old ones are most likely dead, and would
   * otherwise be found so only by the health check (HTTP/2) or the watch silence limit (HTTP/1.1).
   */
  resetConnections(reason: string): void {
    this.transport?.resetConnections(reason);
    for (const transport of this.retiredTransports) transport.close();
    this.retiredTransports.length = 0;
  }

  /** Closes every connection, in-flight requests included. */
  close(): void {
    this.closed = true;
    this.transport?.close();
    for (const transport of this.retiredTransports) transport.close();
    this.transport = undefined;
    this.retiredTransports.length = 0;
  }

  private transportFor(material: TlsMaterial): ClusterTransport {
    if (this.transport && (!this.secure || sameMaterial(this.transportMaterial, material)))
      return this.transport;
    if (this.transport) {
      this.transport.retire();
      this.retiredTransports.push(this.transport);
    }
    this.transport = new ClusterTransport({
      server: this.server,
      tls: this.secure ? material : undefined,
      clock: this.options.clock,
      health: this.options.health ?? http2HealthSettings(),
      disableHttp2: Boolean(process.env.DISABLE_HTTP2),
      ...(this.proxy ? { proxy: this.proxy } : {}),
    });
    this.transportMaterial = material;
    return this.transport;
  }
}

/**
 * client-go's ImpersonatingRoundTripper headers beyond Impersonate-User (which client-node sets from
 * `as`): one Impersonate-Group per group, Impersonate-Uid, and Impersonate-Extra-<key> per value, the
 * key percent-encoded where a header name cannot hold it (headerKeyEscape).
 */
function impersonationHeaders(impersonation: Impersonation | undefined): Record<string, string | string[]> {
  if (!impersonation) return {};
  const headers: Record<string, string | string[]> = {};
  if (impersonation.uid) headers['Impersonate-Uid'] = impersonation.uid;
  if (impersonation.groups) headers['Impersonate-Group'] = [...impersonation.groups];
  for (const [key, values] of Object.entries(impersonation.extra ?? {}))
    headers[`Impersonate-Extra-${headerKeyEscape(key)}`] = [...values];
  return headers;
}

/** RFC 7230's token characters stay; every other byte, and "%", as %XX (client-go's headerKeyEscape). */
function headerKeyEscape(key: string): string {
  let escaped = '';
  for (const byte of Buffer.from(key, 'utf8')) {
    const character = String.fromCharCode(byte);
    escaped += /^[A-Za-z0-9!#$&'*+\-.^_`|~]$/.test(character)
      ? character
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return escaped;
}

/** A CA file's content as base64, as client-go hands it to an exec plugin; undefined if unreadable. */
function fileAsBase64(file: string | undefined): string | undefined {
  if (!file) return undefined;
  try {
    return readFileSync(file).toString('base64');
  } catch {
    // The connection's own TLS setup reports an unreadable CA; the plugin just goes without it.
    return undefined;
  }
}

function sameMaterial(left: TlsMaterial | undefined, right: TlsMaterial): boolean {
  if (!left) return false;
  return (
    sameBytes(left.ca, right.ca) &&
    sameBytes(left.cert, right.cert) &&
    sameBytes(left.key, right.key) &&
    left.rejectUnauthorized === right.rejectUnauthorized &&
    left.servername === right.servername
  );
}

function sameBytes(left: string | Buffer | undefined, right: string | Buffer | undefined): boolean {
  if (left === undefined || right === undefined) return left === right;
  return Buffer.from(left).equals(Buffer.from(right));
}
