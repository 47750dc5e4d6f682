// An OpenID Connect provider for tests, as Dex or Keycloak answers a kubeconfig's oidc auth provider:
// its discovery document and a token endpoint for the refresh grant, over HTTPS with its own CA. It
// issues JWT id-tokens signed with HMAC-SHA256 (verified by `verify`, which a test gives the
// embedded cluster as its token authenticator, as kube-apiserver checks the issuer's signature), and
// rotates refresh-tokens when asked (a spent one is refused with invalid_grant, as Keycloak's
// "revoke refresh token" does). kubectl refreshes through it (kube-oidc.test.ts), so it speaks the
// protocol as kubectl's oauth2 client expects.
import { createHmac, randomBytes } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { servingCertificates } from '../../main/sim/certificates';

export interface TestIdentityProviderOptions {
  clientId: string;
  clientSecret?: string;
  /** How long an id-token lives, in seconds (default 3,600). */
  idTokenSeconds?: number;
  /** A refresh-token is spent by its use and a new one issued (default true). */
  rotateRefreshTokens?: boolean;
  /** How the client must authenticate: 'basic' refuses form credentials, 'form' refuses Basic. */
  clientAuthentication?: 'basic' | 'form' | 'either';
  /** Leave id_token out of the refresh answer (a provider that only returns access tokens). */
  omitIdToken?: boolean;
  /** The clock the tokens' exp is counted from (default Date.now). */
  now?: () => number;
}

export interface TestIdentityProvider {
  readonly issuer: string;
  /** The provider's CA certificate (PEM), for idp-certificate-authority-data. */
  readonly certificateAuthority: string;
  /** What was asked, in order: "GET /.well-known/openid-configuration", "POST /token (basic)". */
  readonly requests: string[];
  /** A fresh refresh-token for `subject` (what a login would have given). */
  login(subject: string): { idToken: string; refreshToken: string };
  /** An id-token for `subject` that expired `secondsAgo` seconds ago. */
  expiredIdToken(subject: string, secondsAgo?: number): string;
  /** The subject of an id-token this provider signed and that has not expired; else undefined. */
  verify(idToken: string): string | undefined;
  close(): Promise<void>;
}

export async function startIdentityProvider(
  options: TestIdentityProviderOptions,
): Promise<TestIdentityProvider> {
  const certificates = await servingCertificates();
  const signingKey = randomBytes(32);
  const now = options.now ?? Date.now;
  const lifetime = options.idTokenSeconds ?? 3_600;
  const refreshTokens = new Map<string, string>();
  const requests: string[] = [];
  let issuer = '';

  const sign = (claims: Record<string, unknown>) => {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`;
    return `${unsigned}.${createHmac('sha256', signingKey).update(unsigned).digest('base64url')}`;
  };
  const idTokenFor = (subject: string, expiresAt: number) =>
    sign({ iss: issuer, sub: subject, aud: options.clientId, iat: Math.floor(now() / 1000), exp: expiresAt });
  const newRefreshToken = (subject: string) => {
    const token = randomBytes(16).toString('hex');
    refreshTokens.set(token, subject);
    return token;
  };

  const server = https.createServer(
    { cert: certificates.certificate, key: certificates.privateKey },
    (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = new URL(request.url ?? '/', issuer).pathname;
        const json = (status: number, body: unknown) =>
          response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
        if (request.method === 'GET' && path === '/.well-known/openid-configuration') {
          requests.push(`GET ${path}`);
          return json(200, {
            issuer,
            token_endpoint: `${issuer}/token`,
            authorization_endpoint: `${issuer}/auth`,
            jwks_uri: `${issuer}/keys`,
            response_types_supported: ['code'],
          });
        }
        if (request.method !== 'POST' || path !== '/token') return json(404, { error: 'not_found' });
        const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
        const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? '');
        const [basicId, basicSecret] = basic
          ? Buffer.from(basic[1]!, 'base64')
              .toString('utf8')
              .split(':')
              .map((part) => decodeURIComponent(part.replace(/\+/g, ' ')))
          : [];
        const style = basic ? 'basic' : 'form';
        requests.push(`POST /token (${style})`);
        const allowed = options.clientAuthentication ?? 'either';
        const clientId = basic ? basicId : form.get('client_id');
        const clientSecret = (basic ? basicSecret : form.get('client_secret')) ?? '';
        if (
          (allowed !== 'either' && allowed !== style) ||
          clientId !== options.clientId ||
          clientSecret !== (options.clientSecret ?? '')
        ) {
          return json(401, { error: 'invalid_client' });
        }
        const presented = form.get('refresh_token') ?? '';
        const subject = refreshTokens.get(presented);
        if (form.get('grant_type') !== 'refresh_token' || subject === undefined)
          return json(400, {
            error: 'invalid_grant',
            error_description: 'refresh token is invalid or spent',
          });
        const rotate = options.rotateRefreshTokens ?? true;
        if (rotate) refreshTokens.delete(presented);
        return json(200, {
          access_token: randomBytes(16).toString('hex'),
          token_type: 'Bearer',
          expires_in: lifetime,
          ...(rotate ? { refresh_token: newRefreshToken(subject) } : {}),
          ...(options.omitIdToken
            ? {}
            : { id_token: idTokenFor(subject, Math.floor(now() / 1000) + lifetime) }),
        });
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    certificateAuthority: certificates.certificateAuthority,
    requests,
    login: (subject) => ({
      idToken: idTokenFor(subject, Math.floor(now() / 1000) + lifetime),
      refreshToken: newRefreshToken(subject),
    }),
    expiredIdToken: (subject, secondsAgo = 60) => idTokenFor(subject, Math.floor(now() / 1000) - secondsAgo),
    verify(idToken) {
      const [header, payload, signature] = idToken.split('.');
      if (!header || !payload || !signature) return undefined;
      const expected = createHmac('sha256', signingKey).update(`${header}.${payload}`).digest('base64url');
      if (expected !== signature) return undefined;
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
        sub: string;
        exp: number;
      };
      return claims.exp * 1000 > now() ? claims.sub : undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
