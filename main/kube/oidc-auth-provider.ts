// The kubeconfig's `auth-provider: {name: oidc}`, as client-go's oidc plugin runs it: the id-token is
// sent while it is valid (its exp more than 10 s away); otherwise the refresh-token buys a new one
// from the token endpoint the issuer's discovery document names (an OAuth2 refresh grant, the client's
// credentials in Basic auth, else in the form, as golang.org/x/oauth2 probes), and the new id-token,
// with the refresh-token if the provider rotated it, is written back to the kubeconfig the user came
// from, where kubectl reads it. Concurrent requests wait for one refresh. Before refreshing, the file is
// read again (Kubetide runs for days, kubectl for one command): tokens kubectl refreshed meanwhile are
// taken instead of presenting a refresh-token it may have spent.
//
// client-node's own provider is not used: it takes the access token's seconds-to-live for an
// expiry date, so after one refresh it refreshes before every request; it ignores the provider's CA;
// and it never writes the tokens back, so a provider that rotates refresh-tokens leaves kubectl's
// copy spent.
//
// One deviation: client-go fails the request, and forgets the new tokens, when it cannot write them
// back. Here they are kept and used (the write's failure is reported): a rotated refresh-token
// forgotten is a login lost, and a read-only kubeconfig should not stop a viewer.
import type { Clock } from '../cache/clock';
import { AuthProviderError, messageOf } from './errors';
import type { ProviderResponse } from './identity-provider-client';

/** The keys of the provider's config that client-go reads. */
export const oidcConfigKeys = {
  issuer: 'idp-issuer-url',
  clientId: 'client-id',
  clientSecret: 'client-secret',
  certificateAuthority: 'idp-certificate-authority',
  certificateAuthorityData: 'idp-certificate-authority-data',
  idToken: 'id-token',
  refreshToken: 'refresh-token',
} as const;

/** client-go's expiryDelta: a token this close to its exp is treated as expired (clock skew). */
export const expiryMarginMs = 10_000;

/** What the provider needs of the identity provider (IdentityProviderClient, one per refresh). */
export interface ProviderConnection {
  get(url: string): Promise<ProviderResponse>;
  postForm(url: string, form: URLSearchParams, headers?: Record<string, string>): Promise<ProviderResponse>;
  close(): void;
}

export interface OidcAuthProviderOptions {
  /** The auth provider's config as the kubeconfig holds it (copied). */
  config: Readonly<Record<string, string>>;
  clock: Clock;
  /** A connection to the identity provider for one refresh; closed after it. */
  connect(): ProviderConnection;
  /** Writes the refreshed config back where the user is defined (kubectl's persister). */
  persist(config: Readonly<Record<string, string>>): Promise<void>;
  /** Told when persist failed (the new tokens are used all the same). */
  onPersistFailure?(error: unknown): void;
  /**
   * The config as the kubeconfig file holds it now (undefined: unknown), read before a refresh: a
   * kubectl run meanwhile may have refreshed, spending the refresh-token held here if the provider
   * rotates them, and written its tokens back.
   */
  reload?(): Promise<Readonly<Record<string, string>> | undefined>;
}

type ClientAuthentication = 'header' | 'form';

export class OidcAuthProvider {
  private config: Record<string, string>;
  private refreshing: Promise<string> | undefined;
  /** How the token endpoint took the client's credentials, once it did (oauth2's AuthStyle cache). */
  private authentication: ClientAuthentication | undefined;

  constructor(private readonly options: OidcAuthProviderOptions) {
    this.config = { ...options.config };
  }

  /** A valid id-token, refreshed first if the one held is expired. */
  async idToken(): Promise<string> {
    for (const key of [oidcConfigKeys.issuer, oidcConfigKeys.clientId]) {
      if (!this.config[key]) throw new AuthProviderError('oidc', `Must provide ${key}`);
    }
    const held = this.config[oidcConfigKeys.idToken];
    if (held && this.valid(held)) return held;
    this.refreshing ??= this.refresh().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private valid(idToken: string): boolean {
    const expiry = tokenExpiry(idToken);
    return this.options.clock.now() + expiryMarginMs < expiry * 1000;
  }

  private async refresh(): Promise<string> {
    const adopted = await this.adoptWrittenTokens();
    if (adopted) return adopted;
    const refreshToken = this.config[oidcConfigKeys.refreshToken];
    if (!refreshToken) {
      throw new AuthProviderError('oidc', 'No valid id-token, and cannot refresh without refresh-token');
    }
    let connection: ProviderConnection | undefined;
    let answer: Record<string, unknown>;
    try {
      connection = this.options.connect();
      const tokenUrl = await tokenEndpoint(connection, this.config[oidcConfigKeys.issuer]!);
      answer = await this.grant(connection, tokenUrl, refreshToken);
    } catch (error) {
      if (error instanceof AuthProviderError) throw error;
      throw new AuthProviderError('oidc', `failed to refresh token: ${messageOf(error)}`, error);
    } finally {
      connection?.close();
    }
    const idToken = answer.id_token;
    if (typeof idToken !== 'string' || idToken === '') {
      throw new AuthProviderError(
        'oidc',
        'token response did not contain an id_token, either the scope "openid" wasn\'t requested upon login, or the provider doesn\'t support id_tokens as part of the refresh response',
      );
    }
    const updated: Record<string, string> = { ...this.config, [oidcConfigKeys.idToken]: idToken };
    const rotated = answer.refresh_token;
    if (typeof rotated === 'string' && rotated !== '' && rotated !== refreshToken)
      updated[oidcConfigKeys.refreshToken] = rotated;
    this.config = updated;
    try {
      await this.options.persist(updated);
    } catch (error) {
      this.options.onPersistFailure?.(error);
    }
    return idToken;
  }

  /**
   * Takes the tokens the kubeconfig file holds now when another client wrote newer ones (the same
   * issuer and client): its id-token if still valid, else its refresh-token for the refresh about to
   * run. client-go, which lives for one kubectl command, reads the file at start only; a viewer open
   * for days would otherwise present a refresh-token kubectl has spent.
   */
  private async adoptWrittenTokens(): Promise<string | undefined> {
    let written: Readonly<Record<string, string>> | undefined;
    try {
      written = await this.options.reload?.();
    } catch {
      // Unreadable now (being rewritten, removed): refresh with what is held.
      return undefined;
    }
    if (!written) return undefined;
    const same = [oidcConfigKeys.issuer, oidcConfigKeys.clientId].every(
      (key) => written[key] === this.config[key],
    );
    if (!same) return undefined;
    const idToken = written[oidcConfigKeys.idToken];
    const refreshToken = written[oidcConfigKeys.refreshToken];
    if (idToken && idToken !== this.config[oidcConfigKeys.idToken] && this.validOrFalse(idToken)) {
      this.config = {
        ...this.config,
        [oidcConfigKeys.idToken]: idToken,
        ...(refreshToken ? { [oidcConfigKeys.refreshToken]: refreshToken } : {}),
      };
      return idToken;
    }
    if (refreshToken) this.config = { ...this.config, [oidcConfigKeys.refreshToken]: refreshToken };
    return undefined;
  }

  /** valid(), with a token that is not a JWT read as not valid rather than thrown. */
  private validOrFalse(idToken: string): boolean {
    try {
      return this.valid(idToken);
    } catch {
      return false;
    }
  }

  /** The refresh grant; the client authenticates as oauth2's AuthStyleAutoDetect finds it must. */
  private async grant(
    connection: ProviderConnection,
    tokenUrl: string,
    refreshToken: string,
  ): Promise<Record<string, unknown>> {
    if (this.authentication) return this.grantWith(this.authentication, connection, tokenUrl, refreshToken);
    try {
      const answer = await this.grantWith('header', connection, tokenUrl, refreshToken);
      this.authentication = 'header';
      return answer;
    } catch {
      const answer = await this.grantWith('form', connection, tokenUrl, refreshToken);
      this.authentication = 'form';
      return answer;
    }
  }

  private async grantWith(
    authentication: ClientAuthentication,
    connection: ProviderConnection,
    tokenUrl: string,
    refreshToken: string,
  ): Promise<Record<string, unknown>> {
    const clientId = this.config[oidcConfigKeys.clientId]!;
    const clientSecret = this.config[oidcConfigKeys.clientSecret] ?? '';
    const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken });
    const headers: Record<string, string> = {};
    if (authentication === 'header') {
      // RFC 6749 2.3.1: each part form-encoded before the Basic encoding, as oauth2 does.
      const user = `${formEncode(clientId)}:${formEncode(clientSecret)}`;
      headers.Authorization = `Basic ${Buffer.from(user).toString('base64')}`;
    } else {
      form.set('client_id', clientId);
      if (clientSecret !== '') form.set('client_secret', clientSecret);
    }
    return tokenAnswer(await connection.postForm(tokenUrl, form, headers));
  }
}

/** The token endpoint of `issuer`'s OpenID discovery document. */
async function tokenEndpoint(connection: ProviderConnection, issuer: string): Promise<string> {
  const wellKnown = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const response = await connection.get(wellKnown);
  if (response.statusCode !== 200) {
    throw new AuthProviderError(
      'oidc',
      `failed to query metadata endpoint ${wellKnown}: ${response.statusCode} ${JSON.stringify(shortened(response.body))}`,
    );
  }
  let metadata: { token_endpoint?: unknown };
  try {
    metadata = JSON.parse(response.body) as { token_endpoint?: unknown };
  } catch (error) {
    throw new AuthProviderError('oidc', `failed to decode provider discovery object: ${messageOf(error)}`);
  }
  if (typeof metadata?.token_endpoint !== 'string' || metadata.token_endpoint === '') {
    throw new AuthProviderError('oidc', "discovery object doesn't contain a token_endpoint");
  }
  return metadata.token_endpoint;
}

/** A token endpoint's answer as oauth2 reads it: JSON, or a form for text/plain and form types. */
function tokenAnswer(response: ProviderResponse): Record<string, unknown> {
  if (response.statusCode < 200 || response.statusCode > 299) {
    throw new Error(`cannot fetch token: ${response.statusCode}: ${shortened(response.body)}`);
  }
  let answer: Record<string, unknown>;
  if (response.mediaType === 'application/x-www-form-urlencoded' || response.mediaType === 'text/plain') {
    answer = Object.fromEntries(new URLSearchParams(response.body));
  } else {
    try {
      answer = JSON.parse(response.body) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`cannot parse json: ${messageOf(error)}`);
    }
  }
  if (typeof answer?.access_token !== 'string' || answer.access_token === '')
    throw new Error('server response missing access_token');
  return answer;
}

/**
 * A JWT's exp claim, in seconds since the epoch (a number or a numeric string, as Go's json.Number
 * takes it); throws AuthProviderError when the token is not a JWT, as client-go's idTokenExpired.
 */
export function tokenExpiry(idToken: string): number {
  const parts = idToken.split('.');
  if (parts.length !== 3) throw new AuthProviderError('oidc', 'ID Token is not a valid JWT');
  let claims: { exp?: unknown };
  try {
    claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as { exp?: unknown };
  } catch (error) {
    throw new AuthProviderError('oidc', `parsing claims: ${messageOf(error)}`);
  }
  const expiry = Number(claims?.exp ?? 0);
  if (!Number.isFinite(expiry)) throw new AuthProviderError('oidc', 'parsing claims: exp is not a number');
  // Go truncates a fractional exp to whole seconds.
  return Math.trunc(expiry);
}

/** Go's url.QueryEscape: a space as "+", the rest as URLSearchParams encodes it. */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/** At most 80 characters of a body, as client-go quotes a discovery failure (not a whole HTML page). */
function shortened(body: string): string {
  return body.length > 80 ? `${body.slice(0, 80)}...` : body;
}
