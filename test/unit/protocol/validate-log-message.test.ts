// The gate in front of openLogs/closeLogs: well-formed targets and options pass as fresh copies,
// anything else is refused with the field and the rule it broke.
import { describe, expect, it } from 'vitest';
import { validateClientMessage } from '../../../shared/protocol/validate-client-message';

const open = (target: unknown, options: unknown = { follow: true, previous: false }) => ({
  type: 'openLogs',
  requestId: 1,
  streamId: 'logs-1',
  target,
  options,
});

describe('log message validation', () => {
  it('accepts a pod container, a workload and a label selector', () => {
    for (const target of [
      { kind: 'pod', namespace: 'shop', name: 'web-1', container: 'web' },
      {
        kind: 'workload',
        gvr: { group: 'apps', version: 'v1', resource: 'deployments' },
        namespace: 'shop',
        name: 'web',
      },
      { kind: 'selector', namespace: 'shop', labelSelector: 'app=web,tier in (a,b)', container: 'web' },
    ])
      expect(
        validateClientMessage(
          open(target, { follow: true, previous: true, tailLines: 100, sinceSeconds: 60 }),
        ),
      ).toEqual({
        ok: true,
        message: open(target, { follow: true, previous: true, tailLines: 100, sinceSeconds: 60 }),
      });
    expect(validateClientMessage({ type: 'closeLogs', streamId: 'logs-1' }).ok).toBe(true);
  });

  it('refuses what main must not act on, saying why', () => {
    const reason = (message: unknown) => {
      const result = validateClientMessage(message);
      return result.ok ? 'accepted' : result.reason;
    };
    expect(reason(open({ kind: 'pod', namespace: 'shop', name: 'web-1' }))).toBe(
      'target.container must be given for a pod',
    );
    expect(reason(open({ kind: 'selector', namespace: 'shop', labelSelector: 'app in (' }))).toMatch(
      /^target.labelSelector is invalid/,
    );
    expect(reason(open({ kind: 'node', name: 'n' }))).toBe(
      'target.kind must be "pod", "workload" or "selector"',
    );
    expect(reason(open({ kind: 'pod', namespace: 'Shop!', name: 'a', container: 'b' }))).toMatch(/namespace/);
    expect(
      reason(
        open(
          { kind: 'pod', namespace: 'shop', name: 'a', container: 'b' },
          { follow: 'yes', previous: false },
        ),
      ),
    ).toBe('options.follow must be a boolean');
    expect(
      reason(
        open(
          { kind: 'pod', namespace: 'shop', name: 'a', container: 'b' },
          { follow: true, previous: false, tailLines: -1 },
        ),
      ),
    ).toBe('options.tailLines must be an integer of at least 0');
    expect(
      reason({ ...open({ kind: 'pod', namespace: 'shop', name: 'a', container: 'b' }), token: 'x' }),
    ).toBe('openLogs has unknown field "token"');
  });
});
