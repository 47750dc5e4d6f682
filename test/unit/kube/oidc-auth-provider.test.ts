// OidcAuthProvider against a scripted identity provider, on a fake clock: client-go's 10 s margin on
// an id-token's exp, one refresh for concurrent callers, a refresh-token kept when the provider does
// not rotate it, and what is written back.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { ProviderConnection } from '../../../main/kube/oidc-auth-provider';
import { OidcAuthProvider, expiryMarginMs } from '../../../main/kube/oidc-auth-provider';

function jwt(exp: number): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'none' })}.${encode({ sub: 'alice', exp })}.signature`;
}

function scripted(answers: Record<string, unknown>[]) {
  const asked: string[] = [];
  const connection: ProviderConnection = {
    get: async (url) => {
      asked.push(`GET ${url}`);
      return {
        statusCode: 200,
        mediaType: 'application/json',
        body: JSON.stringify({ token_endpoint: 'https://idp/token' }),
      };
    },
    postForm: async (url, form) => {
      asked.push(`POST ${url} ${form.get('refresh_token')}`);
      return { statusCode: 200, mediaType: 'application/json', body: JSON.stringify(answers.shift()) };
    },
    close: () => undefined,
  };
  return { asked, connect: () => connection };
}

const base = { 'idp-issuer-url': 'https://idp/', 'client-id': 'kubetide' };

describe('OidcAuthProvider', () => {
  it('uses an id-token until 10 s before its exp, then refreshes once for every caller', async () => {
    const clock = new FakeClock();
    const exp = Math.floor(clock.now() / 1000) + 60;
    const fresh = jwt(exp + 3_600);
    const idp = scripted([{ access_token: 'a', id_token: fresh }]);
    const written: Record<string, string>[] = [];
    const provider = new OidcAuthProvider({
      config: { ...base, 'id-token': jwt(exp), 'refresh-token': 'r1' },
      clock,
      connect: idp.connect,
      persist: async (config) => void written.push({ ...config }),
    });
    clock.setTime(exp * 1000 - expiryMarginMs - 1);
    expect(await provider.idToken()).toBe(jwt(exp));
    clock.setTime(exp * 1000 - expiryMarginMs);
    expect(await Promise.all([provider.idToken(), provider.idToken(), provider.idToken()])).toEqual([
      fresh,
      fresh,
      fresh,
    ]);
    expect(idp.asked).toEqual([
      'GET https://idp/.well-known/openid-configuration',
      'POST https://idp/token r1',
    ]);
    // No rotation offered: the refresh-token stays.
    expect(written).toEqual([{ ...base, 'id-token': fresh, 'refresh-token': 'r1' }]);
    expect(await provider.idToken()).toBe(fresh);
    expect(idp.asked).toHaveLength(2);
  });

  it('keeps the new tokens when they cannot be written back, and says so', async () => {
    const clock = new FakeClock();
    const fresh = jwt(Math.floor(clock.now() / 1000) + 3_600);
    const idp = scripted([{ access_token: 'a', id_token: fresh, refresh_token: 'r2' }]);
    const failures: unknown[] = [];
    const provider = new OidcAuthProvider({
      config: { ...base, 'refresh-token': 'r1' },
      clock,
      connect: idp.connect,
      persist: () => Promise.reject(new Error('read-only file system')),
      onPersistFailure: (error) => failures.push(error),
    });
    expect(await provider.idToken()).toBe(fresh);
    expect(failures).toHaveLength(1);
    clock.step(3_600_000);
    // The rotated refresh-token is the one presented next.
    await provider.idToken().catch(() => undefined);
    expect(idp.asked.at(-1)).toBe('POST https://idp/token r2');
  });

  it('requires an issuer and a client id, as client-go', async () => {
    const provider = new OidcAuthProvider({
      config: { 'client-id': 'x' },
      clock: new FakeClock(),
      connect: scripted([]).connect,
      persist: async () => undefined,
    });
    await expect(provider.idToken()).rejects.toThrow('Must provide idp-issuer-url');
  });
});
