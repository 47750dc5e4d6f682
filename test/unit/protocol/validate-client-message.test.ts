import { describe, expect, it } from 'vitest';
import { requestIdOf, validateClientMessage } from '../../../shared/protocol/validate-client-message';
import { seededRandom } from '../bridge/fixtures';

const pods = { group: '', version: 'v1', resource: 'pods' };
const deployments = { group: 'apps', version: 'v1', resource: 'deployments' };

function reasonFor(message: unknown): string {
  const result = validateClientMessage(message);
  if (result.ok) throw new Error(`accepted ${JSON.stringify(message)}`);
  return result.reason;
}

describe('validateClientMessage', () => {
  it('accepts every well-formed message type', () => {
    const messages = [
      { type: 'hello', requestId: 1, protocolVersion: 1 },
      {
        type: 'hello',
        requestId: 1,
        protocolVersion: 1,
        resume: [{ subscriptionId: 's1', gvr: pods, lastSeq: 7 }],
      },
      { type: 'subscribe', requestId: 2, subscriptionId: 's1', gvr: deployments, namespace: 'default' },
      { type: 'unsubscribe', subscriptionId: 's1' },
      { type: 'resnapshot', subscriptionId: 's1' },
      { type: 'ack', subscriptionId: 's1', seq: 3 },
      { type: 'resync', requestId: 3, subscriptionId: 's1' },
      { type: 'getObject', requestId: 4, gvr: pods, namespace: 'default', name: 'web-1' },
      { type: 'revealSecretValue', requestId: 8, namespace: 'default', name: 'db', key: 'tls.crt' },
      { type: 'listContexts', requestId: 5 },
      { type: 'switchContext', requestId: 6, context: 'arn:aws:eks:eu-west-1:1234:cluster/prod' },
      {
        type: 'listEvents',
        requestId: 7,
        involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-1' },
      },
      { type: 'setNamespaces', requestId: 8, namespaces: ['default', 'payments'] },
      { type: 'setNamespaces', requestId: 9, namespaces: [] },
    ];
    for (const message of messages) expect(validateClientMessage(message)).toEqual({ ok: true, message });
  });

  it('accepts CRD groups and versions', () => {
    const gvr = { group: 'monitoring.coreos.com', version: 'v1alpha1', resource: 'servicemonitors' };
    expect(validateClientMessage({ type: 'subscribe', requestId: 1, subscriptionId: 'x', gvr }).ok).toBe(
      true,
    );
  });

  it('refuses non-objects and unknown types', () => {
    expect(reasonFor(null)).toBe('message must be an object');
    expect(reasonFor([1])).toBe('message must be an object');
    expect(reasonFor({ type: 'exec', requestId: 1 })).toBe('unknown message type "exec"');
    expect(reasonFor({ requestId: 1 })).toBe('message.type must be a string');
  });

  it('refuses unknown fields, naming them', () => {
    expect(reasonFor({ type: 'listContexts', requestId: 1, token: 'x' })).toBe(
      'listContexts has unknown field "token"',
    );
  });

  it('refuses missing or mistyped fields, naming them', () => {
    expect(reasonFor({ type: 'subscribe', requestId: 1, gvr: pods })).toBe('subscriptionId must be a string');
    expect(reasonFor({ type: 'listContexts', requestId: -1 })).toBe(
      'requestId must be an integer of at least 0',
    );
    expect(reasonFor({ type: 'listContexts', requestId: 1.5 })).toBe(
      'requestId must be an integer of at least 0',
    );
    expect(reasonFor({ type: 'getObject', requestId: 1, gvr: pods, name: 'a', reveal: true })).toBe(
      'getObject has unknown field "reveal"',
    );
    expect(reasonFor({ type: 'revealSecretValue', requestId: 1, name: 'db', key: 'k' })).toBe(
      'namespace is required: a Secret is namespaced',
    );
    expect(
      reasonFor({ type: 'revealSecretValue', requestId: 1, namespace: 'a', name: 'db', key: 'a/b' }),
    ).toBe('key "a/b" is malformed');
  });

  it('refuses malformed group, version, resource and namespace', () => {
    const subscribe = (gvr: unknown, namespace?: unknown) => ({
      type: 'subscribe',
      requestId: 1,
      subscriptionId: 's',
      gvr,
      namespace,
    });
    expect(reasonFor(subscribe({ ...pods, resource: 'Pods' }))).toBe('gvr.resource "Pods" is malformed');
    expect(reasonFor(subscribe({ ...pods, version: '1' }))).toBe('gvr.version "1" is malformed');
    expect(reasonFor(subscribe({ ...pods, group: '../etc' }))).toBe('gvr.group "../etc" is malformed');
    expect(reasonFor(subscribe({ version: 'v1', resource: 'pods' }))).toBe('gvr.group must be a string');
    expect(reasonFor(subscribe(pods, 'Default'))).toBe('namespace "Default" is malformed');
  });

  it('refuses object names with a slash or control characters', () => {
    const get = (name: string) => ({ type: 'getObject', requestId: 1, gvr: pods, name });
    expect(reasonFor(get('a/b'))).toBe('name "a/b" is malformed');
    expect(reasonFor(get('a\nb'))).toMatch(/^name ".*" is malformed$/s);
  });

  it('refuses strings over their length limit', () => {
    expect(reasonFor({ type: 'resnapshot', subscriptionId: 'x'.repeat(129) })).toBe(
      'subscriptionId is longer than 128 characters',
    );
    expect(reasonFor({ type: 'getObject', requestId: 1, gvr: pods, name: 'a'.repeat(254) })).toBe(
      'name is longer than 253 characters',
    );
  });

  it('refuses an oversized resume list', () => {
    const resume = Array.from({ length: 1001 }, (_, index) => ({
      subscriptionId: `s${index}`,
      gvr: pods,
      lastSeq: 0,
    }));
    expect(reasonFor({ type: 'hello', requestId: 1, protocolVersion: 1, resume })).toBe(
      'resume lists more than 1000 subscriptions',
    );
  });

  it('returns a copy holding only validated fields, not the caller object', () => {
    const message = { type: 'subscribe', requestId: 1, subscriptionId: 's', gvr: { ...pods } };
    const result = validateClientMessage(message);
    expect(result.ok && result.message).not.toBe(message);
    expect(result.ok && 'gvr' in result.message && result.message.gvr).not.toBe(message.gvr);
  });

  it('finds the requestId of a refused message so main can reply to it', () => {
    expect(requestIdOf({ type: 'nope', requestId: 9 })).toBe(9);
    expect(requestIdOf({ type: 'nope', requestId: '9' })).toBeUndefined();
  });

  it('fuzz: never throws on random junk and refuses it with a reason', () => {
    const random = seededRandom(2026);
    const atoms = [null, undefined, true, 0, -1, 1e308, NaN, '', 'x', 'pods', [], {}, 'hello', 'subscribe'];
    const junk = (depth: number): unknown => {
      const choice = random();
      if (depth > 3 || choice < 0.4) return atoms[Math.floor(random() * atoms.length)];
      if (choice < 0.6) return Array.from({ length: Math.floor(random() * 4) }, () => junk(depth + 1));
      const fields = [
        'type',
        'requestId',
        'subscriptionId',
        'gvr',
        'group',
        'version',
        'resource',
        'name',
        'resume',
      ];
      const value: Record<string, unknown> = {};
      for (const field of fields) if (random() < 0.4) value[field] = junk(depth + 1);
      if (random() < 0.5)
        value.type = ['hello', 'subscribe', 'getObject', 'ack', 'listEvents'][Math.floor(random() * 5)];
      return value;
    };
    for (let trial = 0; trial < 3_000; trial++) {
      const result = validateClientMessage(junk(0));
      if (!result.ok && result.reason.length === 0)
        throw new Error(`trial ${trial}: refused without a reason`);
    }
  });

  it('accepts a network reconnect, with or without the time it went offline', () => {
    expect(validateClientMessage({ type: 'reconnect' })).toEqual({
      ok: true,
      message: { type: 'reconnect' },
    });
    expect(validateClientMessage({ type: 'reconnect', offlineSince: 1_000 })).toEqual({
      ok: true,
      message: { type: 'reconnect', offlineSince: 1_000 },
    });
    expect(reasonFor({ type: 'reconnect', offlineSince: -5 })).toMatch(/offlineSince/);
    expect(reasonFor({ type: 'reconnect', token: 'x' })).toMatch(/token/);
  });

  it('refuses a namespace list that is not DNS labels, or too long', () => {
    expect(reasonFor({ type: 'setNamespaces', requestId: 1, namespaces: 'default' })).toBe(
      'namespaces must be an array',
    );
    expect(reasonFor({ type: 'setNamespaces', requestId: 1, namespaces: ['ok', 'Not/OK'] })).toMatch(
      /^namespaces\[1\]/,
    );
    expect(reasonFor({ type: 'setNamespaces', requestId: 1, namespaces: Array(101).fill('a') })).toBe(
      'namespaces lists more than 100 names',
    );
  });
});
