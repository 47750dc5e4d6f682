// Where connection settings come from, found the way kubectl finds them: $KUBECONFIG (a list of files,
// merged), else ~/.kube/config, else the in-cluster service account. Parsing is @kubernetes/client-node's,
// with what it drops read beside it (kubectl-fields.ts); merging is ours, because client-node throws
// on a name defined in two files while kubectl keeps the first definition, and so is the oidc
// provider each connection of a user shares (oidc-auth-provider.ts). Nothing this file exports for the UI
// (ContextDescription) carries a token, key or password: credentials never leave main.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { Cluster, Context, User } from '@kubernetes/client-node';
import type { Clock } from '../cache/clock';
import { realClock } from '../cache/real-clock';
import { ClusterConnection } from './cluster-connection';
import { connectionEntry, serverEntry } from './connection-entry';
import type { ExecPluginRun } from './exec-plugin-run';
import {
  ContextNotFoundError,
  KubeconfigMalformedError,
  KubeconfigUnreadableError,
  messageOf,
} from './errors';
import type { Http2HealthSettings } from './http2-health-check';
import { IdentityProviderClient } from './identity-provider-client';
import { withKubectlFields } from './kubectl-fields';
import type { KubeconfigUser } from './kubectl-fields';
import { inPlaceAuthProviderFiles } from './kubeconfig-persister';
import type { AuthProviderFiles } from './kubeconfig-persister';
import { OidcAuthProvider, oidcConfigKeys } from './oidc-auth-provider';
import { describeProxy, proxyFor, ProxyConfigurationError } from './proxy-selection';
import type { ProxyEnvironment } from './proxy-selection';

/** How a context's user authenticates; for display only. */
export type AuthKind =
  | 'token'
  | 'token-file'
  | 'basic'
  | 'client-certificate'
  | 'exec'
  | 'oidc'
  | 'auth-provider'
  | 'in-cluster'
  | 'none';

/** A context as the UI may see it: names and addresses, never credentials. */
export interface ContextDescription {
  name: string;
  clusterName: string;
  server: string;
  namespace: string;
  userName: string;
  authKind: AuthKind;
  /** The cluster's proxy-url, as scheme://host:port (never its credentials). */
  proxy?: string;
}

/** Where to look; every field defaults to this process's environment. */
export interface KubeconfigEnvironment {
  /** The value of $KUBECONFIG. */
  kubeconfig?: string;
  homeDirectory?: string;
  /** Prepended to /var/run/secrets/kubernetes.io/serviceaccount (client-node's pathPrefix; for tests). */
  serviceAccountRoot?: string;
  serviceHost?: string;
}

const serviceAccountDirectory = '/var/run/secrets/kubernetes.io/serviceaccount';

function resolveEnvironment(environment: KubeconfigEnvironment = {}): Required<KubeconfigEnvironment> {
  return {
    kubeconfig: environment.kubeconfig ?? process.env.KUBECONFIG ?? '',
    homeDirectory: environment.homeDirectory ?? homedir(),
    serviceAccountRoot: environment.serviceAccountRoot ?? '',
    serviceHost: environment.serviceHost ?? process.env.KUBERNETES_SERVICE_HOST ?? '',
  };
}

/** The files kubectl would look for: $KUBECONFIG's entries, else ~/.kube/config; present or not. */
export function kubeconfigCandidates(environment?: KubeconfigEnvironment): string[] {
  const resolved = resolveEnvironment(environment);
  if (resolved.kubeconfig !== '')
    return resolved.kubeconfig.split(path.delimiter).filter((file) => file !== '');
  return [path.join(resolved.homeDirectory, '.kube', 'config')];
}

/** The files kubectl would read: the candidates that exist. */
export function kubeconfigPaths(environment?: KubeconfigEnvironment): string[] {
  return kubeconfigCandidates(environment).filter((file) => existsSync(file));
}

function inClusterAvailable(environment: Required<KubeconfigEnvironment>): boolean {
  return (
    environment.serviceHost !== '' &&
    existsSync(`${environment.serviceAccountRoot}${serviceAccountDirectory}/token`)
  );
}

/**
 * True when there is nothing to connect to: no kubeconfig file and not running in a cluster. The app
 * then starts the embedded cluster instead.
 */
export function noKubeconfigFound(environment?: KubeconfigEnvironment): boolean {
  const resolved = resolveEnvironment(environment);
  return kubeconfigPaths(resolved).length === 0 && !inClusterAvailable(resolved);
}

/** Parses one kubeconfig file; relative certificate and key paths are resolved against its folder. */
function parseFile(file: string): KubeConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new KubeconfigUnreadableError(file, error);
  }
  return parseText(text, file);
}

function parseText(text: string, origin: string): KubeConfig {
  const config = new KubeConfig();
  // client-node reads an empty document as undefined and fails on `.clusters` with a TypeError.
  if (text.trim() === '') throw new KubeconfigMalformedError(origin, 'the file is empty');
  try {
    config.loadFromString(text);
    config.makePathsAbsolute(path.dirname(origin));
  } catch (error) {
    // No cause attached: the YAML parser's error carries the source lines around the fault.
    throw new KubeconfigMalformedError(origin, parseFailure(error));
  }
  return withKubectlFields(config, text, path.dirname(origin));
}

/**
 * Why a kubeconfig did not parse, by reason and position only. The YAML parser's message quotes the
 * lines around the fault, and in a kubeconfig those hold tokens, passwords and keys: an error that is
 * logged or shown must never echo them.
 */
function parseFailure(error: unknown): string {
  const yamlError = error as { reason?: unknown; mark?: { line?: unknown; column?: unknown } };
  if (typeof yamlError?.reason === 'string' && typeof yamlError.mark?.line === 'number') {
    const column = typeof yamlError.mark.column === 'number' ? `, column ${yamlError.mark.column + 1}` : '';
    return `${yamlError.reason} (line ${yamlError.mark.line + 1}${column})`;
  }
  return messageOf(error).split('\n')[0];
}

/**
 * kubectl's merge: the first file that sets current-context wins, and so does the first definition of a
 * name. `userOrigins`, when given, is filled with the file each kept user came from (`origins`, by
 * index), where a refreshed auth provider's tokens are written back.
 */
function merge(
  configs: KubeConfig[],
  origins: readonly string[] = [],
  userOrigins?: Map<string, string>,
): KubeConfig {
  const clusters = new Map<string, Cluster>();
  const users = new Map<string, User>();
  const contexts = new Map<string, Context>();
  let currentContext: string | undefined;
  for (const [index, config] of configs.entries()) {
    currentContext ||= config.getCurrentContext();
    for (const cluster of config.getClusters())
      if (!clusters.has(cluster.name)) clusters.set(cluster.name, cluster);
    for (const user of config.getUsers()) {
      if (users.has(user.name)) continue;
      users.set(user.name, user);
      const origin = origins[index];
      if (origin !== undefined) userOrigins?.set(user.name, origin);
    }
    for (const context of config.getContexts())
      if (!contexts.has(context.name)) contexts.set(context.name, context);
  }
  const merged = new KubeConfig();
  merged.loadFromOptions({
    clusters: [...clusters.values()],
    users: [...users.values()],
    contexts: [...contexts.values()],
    currentContext: currentContext ?? '',
  });
  return merged;
}

/** A merged reading of kubeconfig files as plain data (structured-clonable). */
export interface KubeconfigData {
  readonly clusters: Cluster[];
  readonly users: User[];
  readonly contexts: Context[];
  readonly currentContext: string;
  readonly sources: readonly string[];
  /** User name -> the file that defined it. */
  readonly userOrigins: readonly (readonly [string, string])[];
}

/** The merged kubeconfig: its contexts, the one in use, and connections to their clusters. */
export class Kubeconfig {
  private current: string;
  /** One oidc provider per cluster, issuer and client, shared by every connection (client-go's cache). */
  private readonly oidcProviders = new Map<string, OidcAuthProvider>();

  private constructor(
    private readonly config: KubeConfig,
    /** The files it was read from ("in-cluster" or a label for a string). */
    readonly sources: readonly string[],
    private readonly inCluster = false,
    /** The file each user was defined in (only for users read from files). */
    private readonly userOrigins: ReadonlyMap<string, string> = new Map(),
  ) {
    this.current = config.getCurrentContext() ?? '';
  }

  /** kubectl's lookup. Throws KubeconfigUnreadableError/MalformedError; see noKubeconfigFound(). */
  static load(environment?: KubeconfigEnvironment): Kubeconfig {
    const resolved = resolveEnvironment(environment);
    const files = kubeconfigPaths(resolved);
    if (files.length > 0) return Kubeconfig.fromFiles(files);
    if (inClusterAvailable(resolved)) {
      const config = new KubeConfig();
      config.loadFromCluster(resolved.serviceAccountRoot);
      return new Kubeconfig(config, ['in-cluster'], true);
    }
    return new Kubeconfig(merge([]), []);
  }

  /** Reads and merges `files` in order (earlier files win). */
  static fromFiles(files: readonly string[]): Kubeconfig {
    return Kubeconfig.fromData(Kubeconfig.dataOfFiles(files));
  }

  /**
   * What a reading of `files` holds, as plain data a worker thread can post back: parsing a large
   * kubeconfig takes main well past a frame (500 contexts: ~150 ms here), so a reading taken while the
   * app runs is parsed off main's thread (kubeconfig-worker.ts) and rebuilt with fromData.
   */
  static dataOfFiles(files: readonly string[]): KubeconfigData {
    const userOrigins = new Map<string, string>();
    const config = merge(files.map(parseFile), files, userOrigins);
    return {
      clusters: config.getClusters(),
      users: config.getUsers(),
      contexts: config.getContexts(),
      currentContext: config.getCurrentContext(),
      sources: [...files],
      userOrigins: [...userOrigins],
    };
  }

  /** A reading rebuilt from dataOfFiles' data (cheap: no parsing). */
  static fromData(data: KubeconfigData): Kubeconfig {
    const config = new KubeConfig();
    config.loadFromOptions({
      clusters: data.clusters,
      users: data.users,
      contexts: data.contexts,
      currentContext: data.currentContext,
    });
    return new Kubeconfig(config, data.sources, false, new Map(data.userOrigins));
  }

  /** Parses kubeconfig YAML; `origin` names it in errors and anchors relative paths. */
  static fromString(text: string, origin = 'kubeconfig'): Kubeconfig {
    return new Kubeconfig(merge([parseText(text, origin)]), [origin]);
  }

  get currentContext(): string {
    return this.current;
  }

  listContexts(): ContextDescription[] {
    return this.config.getContexts().map((context) => this.describe(context));
  }

  /** Switches the current context (in memory; the file is not written). */
  useContext(name: string): void {
    this.requireContext(name);
    this.current = name;
  }

  describeContext(name: string = this.current): ContextDescription {
    return this.describe(this.requireContext(name));
  }

  /**
   * What a connection to context `name` is made from, as text (connection-entry.ts): equal in two
   * readings when they connect alike. Undefined when the context is not defined.
   */
  connectionEntry(name: string): string | undefined {
    const context = this.findContext(name);
    if (!context) return undefined;
    const { cluster, user } = this.entriesOf(context);
    return connectionEntry(context, cluster, user);
  }

  /** The server part of context `name`'s entry (connection-entry.ts); undefined when not defined. */
  serverEntry(name: string): string | undefined {
    const context = this.findContext(name);
    return context ? serverEntry(context, this.entriesOf(context).cluster) : undefined;
  }

  /**
   * A connection to the context's cluster, with its own transport (HTTP/2 connection or keep-alive
   * pool) and credential cache. The caller owns it and must close() it.
   */
  connect(
    name: string = this.current,
    options: {
      clock?: Clock;
      health?: Http2HealthSettings;
      proxyEnvironment?: ProxyEnvironment;
      log?: (message: string) => void;
      /** Where an oidc user's refreshed tokens are written back and read again (default: in place). */
      authProviderFiles?: AuthProviderFiles;
      /** Told of an exec plugin's run that lasts (a login waiting for the user), undefined at its end. */
      onExecRun?: (run: ExecPluginRun | undefined) => void;
    } = {},
  ): ClusterConnection {
    const context = this.requireContext(name);
    const { cluster, user } = this.entriesOf(context);
    if (!cluster) {
      throw new ContextNotFoundError(
        name,
        this.contextNames(),
        `refers to cluster "${context.cluster}", which is not defined`,
      );
    }
    const clock = options.clock ?? realClock;
    const oidc = user ? this.oidcProvider(cluster, user, clock, options) : undefined;
    return new ClusterConnection({
      description: this.describe(context),
      cluster,
      user: user ?? { name: context.user ?? '' },
      clock,
      health: options.health,
      ...(options.proxyEnvironment ? { proxyEnvironment: options.proxyEnvironment } : {}),
      ...(oidc ? { oidc } : {}),
      ...(options.onExecRun ? { onExecRun: options.onExecRun } : {}),
    });
  }

  /**
   * The oidc provider for `user` on `cluster` when its auth-provider is oidc: made once per cluster,
   * issuer and client, so that a reconnect, or another context of the same user, reuses the tokens
   * a refresh got instead of spending a rotated refresh-token again. Refreshed tokens are written to
   * the file that defined the user.
   */
  private oidcProvider(
    cluster: Cluster,
    user: User,
    clock: Clock,
    options: {
      proxyEnvironment?: ProxyEnvironment;
      log?: (message: string) => void;
      authProviderFiles?: AuthProviderFiles;
    },
  ): OidcAuthProvider | undefined {
    const provider = user.authProvider as { name?: string; config?: Record<string, string> } | undefined;
    if (provider?.name !== 'oidc') return undefined;
    const config = provider.config ?? {};
    const key = JSON.stringify([
      cluster.server,
      config[oidcConfigKeys.issuer],
      config[oidcConfigKeys.clientId],
    ]);
    const existing = this.oidcProviders.get(key);
    if (existing) return existing;
    const origin = this.userOrigins.get(user.name);
    const log = options.log ?? console.warn;
    const files = options.authProviderFiles ?? inPlaceAuthProviderFiles(clock);
    const created = new OidcAuthProvider({
      config,
      clock,
      connect: () =>
        new IdentityProviderClient({
          ca: identityProviderCa(config),
          clock,
          ...(options.proxyEnvironment ? { proxyEnvironment: options.proxyEnvironment } : {}),
        }),
      persist: (updated) => (origin ? files.persist(origin, user.name, updated) : Promise.resolve()),
      ...(origin ? { reload: () => files.read(origin, user.name) } : {}),
      onPersistFailure: (error) =>
        log(
          `kubetide: the refreshed oidc tokens of user "${user.name}" are in use but could not be written to ${origin}: ${messageOf(error)}`,
        ),
    });
    this.oidcProviders.set(key, created);
    return created;
  }

  private contextNames(): string[] {
    return this.config.getContexts().map((context) => context.name);
  }

  /** Context `name`; null when it is not defined (or empty: no current-context). */
  private findContext(name: string): Context | null {
    return name === '' ? null : this.config.getContextObject(name);
  }

  /** The cluster and user entries `context` names (null where it names none, or one not defined). */
  private entriesOf(context: Context): { cluster: Cluster | null; user: User | null } {
    return {
      cluster: this.config.getCluster(context.cluster),
      user: context.user ? this.config.getUser(context.user) : null,
    };
  }

  private requireContext(name: string): Context {
    const context = this.findContext(name);
    if (!context) {
      throw new ContextNotFoundError(
        name,
        this.contextNames(),
        name === '' ? 'is empty: no current-context is set' : undefined,
      );
    }
    return context;
  }

  private describe(context: Context): ContextDescription {
    const { cluster, user } = this.entriesOf(context);
    return {
      name: context.name,
      clusterName: context.cluster,
      server: cluster?.server ?? '',
      namespace: context.namespace ?? 'default',
      userName: context.user ?? '',
      authKind: this.inCluster ? 'in-cluster' : authKindOf(user),
      ...proxyDescription(cluster),
    };
  }
}

/**
 * The proxy a cluster's own entry names (proxy-url), for the context list; one client-go refuses says
 * so. The environment's proxies are the session's, alike for every context, so they are not listed.
 */
function proxyDescription(cluster: Cluster | null): { proxy?: string } {
  if (!cluster?.server || !cluster.proxyUrl) return {};
  try {
    const proxy = proxyFor(cluster.server, cluster.proxyUrl);
    return proxy ? { proxy: describeProxy(proxy) } : {};
  } catch (error) {
    if (error instanceof ProxyConfigurationError) return { proxy: 'invalid proxy-url' };
    return {};
  }
}

export function authKindOf(user: User | null | undefined): AuthKind {
  if (!user) return 'none';
  if (user.exec) return 'exec';
  if (user.authProvider) {
    const provider = user.authProvider as { name?: string; config?: { tokenFile?: string } };
    if (provider.name === 'oidc') return 'oidc';
    if (provider.config?.tokenFile) return 'token-file';
    return 'auth-provider';
  }
  if ((user as KubeconfigUser).tokenFile) return 'token-file';
  if (user.token) return 'token';
  if (user.username) return 'basic';
  if (user.certData || user.certFile) return 'client-certificate';
  return 'none';
}

/**
 * The identity provider's CA: idp-certificate-authority-data (base64 PEM) first, as client-go's
 * TLSClientConfig prefers data to a file, else the file; undefined for the system's roots.
 */
function identityProviderCa(config: Readonly<Record<string, string>>): Buffer | undefined {
  const data = config[oidcConfigKeys.certificateAuthorityData];
  if (data) return Buffer.from(data, 'base64');
  const file = config[oidcConfigKeys.certificateAuthority];
  return file ? readFileSync(file) : undefined;
}
