// One context's cluster as our own HTTP requests need it: the server URL, one keep-alive Agent (so
// every LIST and WATCH reuses connections, unlike client-node's connection per request), and the
// user's credentials, refreshed when they expire. client-node applies the kubeconfig's auth (token,
// token file, basic, client certificates, OIDC, auth providers, impersonation); exec plugins run
// through ExecCredentialProvider so that failures are typed and a 401 can force a refresh.
import http from 'node:http';
import https from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import type { Cluster, User } from '@kubernetes/client-node';
import type { Clock } from '../cache/clock';
import { ExecCredentialProvider } from './exec-credential';
import type { ExecConfig } from './exec-credential';
import type { ContextDescription } from './kubeconfig';

/** What one request needs: headers carrying the credentials, and the agent to send it through. */
export interface AuthorizedRequest {
  headers: Record<string, string>;
  agent: http.Agent;
}

export interface ClusterConnectionOptions {
  description: ContextDescription;
  cluster: Cluster;
  user: User;
  clock: Clock;
}

/**
 * Watches hold a socket each for their whole life (HTTP/1.1), so the cap must sit well above the
 * number of concurrent watches, or LISTs would queue behind them; it still bounds a runaway caller.
 */
const maxSockets = 256;
/** Idle connections kept for reuse; more are closed. */
const maxFreeSockets = 16;

interface TlsMaterial {
  ca?: string | Buffer;
  cert?: string | Buffer;
  key?: string | Buffer;
  rejectUnauthorized?: boolean;
  servername?: string;
}

export class ClusterConnection {
  readonly contextName: string;
  /** The API server's base URL without a trailing slash (it may carry a path prefix, as behind Rancher). */
  readonly server: string;
  /** The context's namespace ("default" when unset). */
  readonly namespace: string;
  private readonly config: KubeConfig;
  private readonly exec: ExecCredentialProvider | undefined;
  private readonly secure: boolean;
  private agent: http.Agent | undefined;
  private agentMaterial: TlsMaterial | undefined;
  /** Agents replaced after a certificate rotation; their in-flight watches end on their own. */
  private readonly retiredAgents: http.Agent[] = [];
  private closed = false;

  constructor(private readonly options: ClusterConnectionOptions) {
    const { cluster, user, description } = options;
    this.contextName = description.name;
    this.server = cluster.server.replace(/\/+$/, '');
    this.namespace = description.namespace;
    this.secure = !this.server.startsWith('http:');
    // A private single-context KubeConfig: client-node's authenticators keep per-instance state (token
    // caches, OIDC expiry), which must not be shared between users. Exec is ours, so client-node does
    // not see it; plain-HTTP servers are marked skip-verify only because client-node refuses http://
    // otherwise (there is no TLS to verify).
    const { exec, ...userWithoutExec } = user as User & { exec?: ExecConfig };
    this.config = new KubeConfig();
    this.config.loadFromOptions({
      clusters: [{ ...cluster, skipTLSVerify: cluster.skipTLSVerify || !this.secure, proxyUrl: undefined }],
      users: [userWithoutExec],
      contexts: [{ name: 'connection', cluster: cluster.name, user: user.name }],
      currentContext: 'connection',
    });
    this.exec = exec?.command
      ? new ExecCredentialProvider(exec, options.clock, {
          server: this.server,
          certificateAuthorityData: cluster.caData,
          insecureSkipTlsVerify: cluster.skipTLSVerify,
        })
      : undefined;
  }

  describe(): ContextDescription {
    return { ...this.options.description };
  }

  /** Credentials for the next request; runs the exec plugin if its credential is missing or expired. */
  async authorize(): Promise<AuthorizedRequest> {
    if (this.closed) throw new Error(`connection to ${this.server} (context ${this.contextName}) is closed`);
    const requestOptions: https.RequestOptions = { headers: {} };
    await this.config.applyToHTTPSOptions(requestOptions);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(requestOptions.headers ?? {})) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    if (requestOptions.auth)
      headers.Authorization = `Basic ${Buffer.from(requestOptions.auth).toString('base64')}`;
    const material: TlsMaterial = {
      ca: requestOptions.ca as TlsMaterial['ca'],
      cert: requestOptions.cert as TlsMaterial['cert'],
      key: requestOptions.key as TlsMaterial['key'],
      rejectUnauthorized: this.options.cluster.skipTLSVerify ? false : undefined,
      servername: this.options.cluster.tlsServerName,
    };
    if (this.exec) {
      const credential = await this.exec.credential();
      if (credential.token) headers.Authorization = `Bearer ${credential.token}`;
      if (credential.clientCertificateData && credential.clientKeyData) {
        material.cert = credential.clientCertificateData;
        material.key = credential.clientKeyData;
      }
    }
    return { headers, agent: this.agentFor(material) };
  }

  /**
   * Called after a 401: drops cached credentials. True when fresh ones may differ (an exec plugin),
   * so that retrying the request once is worthwhile.
   */
  invalidateCredentials(): boolean {
    if (!this.exec) return false;
    this.exec.invalidate();
    return true;
  }

  /** Closes every connection, in-flight requests included. */
  close(): void {
    this.closed = true;
    this.agent?.destroy();
    for (const agent of this.retiredAgents) agent.destroy();
    this.agent = undefined;
    this.retiredAgents.length = 0;
  }

  private agentFor(material: TlsMaterial): http.Agent {
    if (this.agent && (!this.secure || sameMaterial(this.agentMaterial, material))) return this.agent;
    if (this.agent) this.retiredAgents.push(this.agent);
    const common = { keepAlive: true, maxSockets, maxFreeSockets, scheduling: 'lifo' as const };
    this.agent = this.secure
      ? new https.Agent({ ...common, ...definedOnly(material) })
      : new http.Agent(common);
    this.agentMaterial = material;
    return this.agent;
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

function definedOnly(material: TlsMaterial): https.AgentOptions {
  return Object.fromEntries(Object.entries(material).filter(([, value]) => value !== undefined));
}
