import { describe, expect, it } from 'vitest';
import { validateClientMessage } from '../../../shared/protocol/validate-client-message';

const pods = { group: '', version: 'v1', resource: 'pods' };

function accepted(message: unknown): unknown {
  const result = validateClientMessage(message);
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.message;
}

function refusal(message: unknown): string {
  const result = validateClientMessage(message);
  if (result.ok) throw new Error('accepted');
  return result.reason;
}

describe('history messages are validated like the rest of the protocol', () => {
  it('accepts each history request in its documented shape', () => {
    const messages = [
      { type: 'historyTimeline', requestId: 1, buckets: 200, from: 1, to: 2 },
      { type: 'historyState', requestId: 2, subscriptionId: 'replay1', gvr: pods, namespace: 'ns', time: 5 },
      { type: 'historyState', requestId: 15, subscriptionId: 'replay1', gvr: pods, time: 5, base: 's1' },
      { type: 'historyPlay', requestId: 3, subscriptionId: 'replay1', speed: 100 },
      { type: 'historyStop', requestId: 4, subscriptionId: 'replay1' },
      { type: 'historyVersions', requestId: 5, object: { gvr: pods, namespace: 'ns', name: 'web-1' } },
      { type: 'historyDiff', requestId: 6, object: { uid: 'abc-123' }, olderId: 1, newerId: 9 },
      { type: 'historyObject', requestId: 7, object: { uid: 'abc-123' }, time: 10 },
      { type: 'historyAdjacent', requestId: 8, object: { uid: 'abc' }, time: 10, direction: 'next' },
      {
        type: 'historyExport',
        requestId: 9,
        from: 1,
        to: 2,
        namespaces: ['ns'],
        gvrs: [pods],
        destination: 'download',
      },
      { type: 'historyImport', requestId: 10, source: { upload: 'a'.repeat(32) } },
      { type: 'historyImport', requestId: 12, source: 'dialog' },
      { type: 'historyExport', requestId: 13, from: 1, to: 2, destination: 'dialog' },
      { type: 'historyLive', requestId: 11 },
      { type: 'historyWithdraw', requestId: 14, withdrawnRequestId: 9 },
    ];
    for (const message of messages) expect(accepted(message)).toEqual(message);
  });

  it('refuses playback speeds outside 1x..100x', () => {
    expect(refusal({ type: 'historyPlay', requestId: 1, subscriptionId: 'r', speed: 0 })).toMatch(/speed/);
    expect(refusal({ type: 'historyPlay', requestId: 1, subscriptionId: 'r', speed: 101 })).toMatch(
      /at most 100/,
    );
  });

  it('refuses a moment whose base is not a subscription id', () => {
    const state = { type: 'historyState', requestId: 1, subscriptionId: 'r', gvr: pods, time: 1 };
    expect(refusal({ ...state, base: 7 })).toMatch(/subscriptionId|string/);
    expect(refusal({ ...state, base: 'x'.repeat(1_000) })).toMatch(/subscriptionId|long|at most/);
  });

  it('refuses negative or fractional moments', () => {
    expect(refusal({ type: 'historyState', requestId: 1, subscriptionId: 'r', gvr: pods, time: -1 })).toMatch(
      /time/,
    );
    expect(refusal({ type: 'historyObject', requestId: 1, object: { uid: 'u' }, time: 1.5 })).toMatch(/time/);
  });

  it('refuses an export whose range ends before it starts', () => {
    expect(refusal({ type: 'historyExport', requestId: 1, from: 5, to: 4, destination: 'dialog' })).toMatch(
      /before from/,
    );
  });

  it('refuses a withdrawal without a valid request id to withdraw', () => {
    expect(refusal({ type: 'historyWithdraw', requestId: 1 })).toMatch(/withdrawnRequestId/);
    expect(refusal({ type: 'historyWithdraw', requestId: 1, withdrawnRequestId: -1 })).toMatch(
      /withdrawnRequestId/,
    );
    expect(refusal({ type: 'historyWithdraw', requestId: 1, withdrawnRequestId: 2, path: '/x' })).toMatch(
      /unknown field "path"/,
    );
  });

  it('refuses unknown fields, in the message and in the object reference', () => {
    expect(refusal({ type: 'historyLive', requestId: 1, extra: true })).toMatch(/unknown field "extra"/);
    expect(refusal({ type: 'historyVersions', requestId: 1, object: { uid: 'u', name: 'x' } })).toMatch(
      /unknown field "name"/,
    );
  });

  it('refuses a bad direction, a timeline without buckets, and any file path from the renderer', () => {
    expect(
      refusal({ type: 'historyAdjacent', requestId: 1, object: { uid: 'u' }, time: 1, direction: 'up' }),
    ).toMatch(/direction/);
    expect(refusal({ type: 'historyTimeline', requestId: 1 })).toMatch(/buckets/);
    const path = '/home/user/.ssh/authorized_keys/x.kubetide';
    expect(refusal({ type: 'historyImport', requestId: 1, path })).toMatch(/unknown field "path"/);
    expect(refusal({ type: 'historyImport', requestId: 1, source: { path } })).toMatch(
      /unknown field "path"/,
    );
    expect(refusal({ type: 'historyImport', requestId: 1, source: { upload: '../x' } })).toMatch(/malformed/);
    expect(refusal({ type: 'historyExport', requestId: 1, from: 1, to: 2, destination: path })).toMatch(
      /destination must be/,
    );
    expect(
      refusal({ type: 'historyExport', requestId: 1, from: 1, to: 2, destination: 'dialog', path }),
    ).toMatch(/unknown field "path"/);
  });

  it('accepts Events and counts at a moment, and refuses a malformed object or moment in them', () => {
    const events = {
      type: 'historyEvents',
      requestId: 1,
      involvedObject: { kind: 'Pod', namespace: 'ns', name: 'web-1', uid: 'abc' },
      time: 5,
    };
    expect(accepted(events)).toEqual(events);
    expect(accepted({ type: 'historyCounts', requestId: 2, time: 5 })).toEqual({
      type: 'historyCounts',
      requestId: 2,
      time: 5,
    });
    expect(refusal({ ...events, involvedObject: { kind: 'Pod/x', name: 'web-1' } })).toMatch(/kind/);
    expect(refusal({ ...events, time: -1 })).toMatch(/time/);
    expect(refusal({ type: 'historyCounts', requestId: 2 })).toMatch(/time/);
    expect(refusal({ type: 'historyCounts', requestId: 2, time: 1, gvr: 'pods' })).toMatch(
      /unknown field "gvr"/,
    );
  });

  it("accepts a pod's crash logs at a moment, and refuses a malformed uid or moment, or a file named by the renderer", () => {
    const crashLogs = {
      type: 'historyCrashLogs',
      requestId: 3,
      uid: '31fb5986-3455-4094-9dee-4e748f58bd8e',
      time: 5,
    };
    expect(accepted(crashLogs)).toEqual(crashLogs);
    expect(refusal({ ...crashLogs, uid: 'a uid' })).toMatch(/uid/);
    expect(refusal({ ...crashLogs, uid: 'x'.repeat(1000) })).toMatch(/uid/);
    expect(refusal({ ...crashLogs, time: -1 })).toMatch(/time/);
    expect(refusal({ ...crashLogs, file: '/tmp/other.kubetide' })).toMatch(/unknown field "file"/);
  });

  it('accepts recorded metrics of a moment and a usage subject, and refuses another resource, kind or a node namespace', () => {
    const metrics = { type: 'historyMetrics', requestId: 4, resource: 'pods', time: 5 };
    expect(accepted(metrics)).toEqual(metrics);
    expect(refusal({ ...metrics, resource: 'deployments' })).toMatch(/resource/);
    expect(refusal({ ...metrics, time: 1.5 })).toMatch(/time/);
    // The answer held, by its digests (SHA-1 in hex), and nothing else there.
    const held = { ...metrics, heldKeys: 'a'.repeat(40), heldAnswer: '0'.repeat(40) };
    expect(accepted(held)).toEqual(held);
    expect(refusal({ ...metrics, heldKeys: 'A'.repeat(40) })).toMatch(/heldKeys/);
    expect(refusal({ ...metrics, heldKeys: 'a'.repeat(41) })).toMatch(/heldKeys/);
    expect(refusal({ ...metrics, heldAnswer: 7 })).toMatch(/heldAnswer/);
    expect(refusal({ ...metrics, heldAnswer: '../etc' })).toMatch(/heldAnswer/);
    const usage = {
      type: 'historyUsage',
      requestId: 5,
      subject: { kind: 'Deployment', namespace: 'default', name: 'web' },
      points: 300,
    };
    expect(accepted(usage)).toEqual(usage);
    expect(accepted({ ...usage, points: 1e9 })).toEqual({ ...usage, points: 2000 });
    expect(refusal({ ...usage, subject: { ...usage.subject, kind: 'ReplicaSet' } })).toMatch(/subject.kind/);
    expect(refusal({ ...usage, subject: { kind: 'Node', namespace: 'default', name: 'n' } })).toMatch(
      /namespace/,
    );
    expect(refusal({ ...usage, subject: { ...usage.subject, name: '../x' } })).toMatch(/subject.name/);
    expect(refusal({ ...usage, points: 0 })).toMatch(/points/);
  });
});
