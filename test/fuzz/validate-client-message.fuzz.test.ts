// Every message from the renderer passes validateClientMessage before main acts on it, so it must
// answer anything: never throw, refuse with a reason, and accept only messages that re-validate to
// themselves (the copy it returns holds known fields only).
import { describe, expect, it } from 'vitest';
import { validateClientMessage } from '../../shared/protocol/validate-client-message';
import { seededRandom } from '../support/seeded-random';
import { randomValue } from './fuzz-inputs';

const messageTypes = [
  'hello',
  'subscribe',
  'unsubscribe',
  'resnapshot',
  'ack',
  'resync',
  'getObject',
  'listContexts',
  'switchContext',
  'listEvents',
  'setNamespaces',
  'constructor',
  '',
];

describe('validateClientMessage under random messages', () => {
  it('never throws, refuses with a reason, and accepts only stable copies', () => {
    const random = seededRandom(71);
    let accepted = 0;
    for (let iteration = 0; iteration < 10_000; iteration++) {
      const value = randomValue(random);
      if (typeof value === 'object' && value !== null && !Array.isArray(value) && random.chance(0.8)) {
        (value as Record<string, unknown>).type = random.pick(messageTypes);
        if (random.chance(0.7)) (value as Record<string, unknown>).requestId = random.integer(100);
        if (random.chance(0.5)) {
          (value as Record<string, unknown>).gvr = {
            group: random.pick(['', 'apps', 'Apps', 'a/b']),
            version: random.pick(['v1', '', 'V1']),
            resource: random.pick(['pods', 'deployments', '', 'pods/../secrets']),
          };
        }
      }
      const result = validateClientMessage(value);
      if (result.ok) {
        accepted++;
        expect(validateClientMessage(structuredClone(result.message))).toEqual(result);
      } else {
        expect(typeof result.reason).toBe('string');
        expect(result.reason.length).toBeGreaterThan(0);
      }
    }
    expect(accepted).toBeGreaterThan(0);
  });

  it('refuses values no JSON channel can carry without throwing', () => {
    const cyclic: Record<string, unknown> = { type: 'subscribe', requestId: 1 };
    cyclic.gvr = cyclic;
    const hostile = [
      cyclic,
      Object.create(null),
      new Proxy(
        {},
        {
          get: () => {
            throw new Error('trap');
          },
        },
      ),
      {
        type: 'getObject',
        requestId: 1,
        get gvr() {
          throw new Error('getter');
        },
      },
      Symbol('x'),
      () => 1,
      10n,
    ];
    for (const value of hostile) {
      const result = validateClientMessage(value);
      expect(result.ok).toBe(false);
    }
  });
});
