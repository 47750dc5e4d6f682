// A failing feed's SyncError: the whole message for where there is room, and the reason alone (the
// summary) for the badge's one line, found through the cause chain the Reflector and REST client make.
import { describe, expect, it } from 'vitest';
import { syncErrorOf } from '../../../main/bridge/failure-state';
import { ForbiddenError, ServerUnreachableError, TlsVerificationError } from '../../../main/kube/errors';

/** As the Reflector wraps a list's failure (reflector-list.ts). */
const listFailed = (cause: Error) =>
  new Error(`failed to list /v1, Resource=pods: ${cause.message}`, { cause });

describe('syncErrorOf', () => {
  it('summarises an unreachable server as the reason, without the list and the request', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:6443'), { code: 'ECONNREFUSED' });
    const unreachable = new ServerUnreachableError(
      'https://10.0.0.1:6443',
      'GET /api/v1/pods (listing pods)',
      'ECONNREFUSED',
      refused,
    );
    const error = syncErrorOf(listFailed(unreachable));
    expect(error.message).toBe(`failed to list /v1, Resource=pods: ${unreachable.message}`);
    expect(error.summary).toMatch(/^cannot reach https:\/\/10\.0\.0\.1:6443 \(connection refused/);
  });

  it('summarises a refused certificate and an RBAC refusal alike, keeping the Status code', () => {
    const tls = new TlsVerificationError(
      'https://10.0.0.1:6443',
      'GET /api',
      'CERT',
      new Error('self-signed'),
    );
    expect(syncErrorOf(listFailed(tls)).summary).toMatch(
      /^TLS verification of https:\/\/10\.0\.0\.1:6443 failed/,
    );
    const status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'pods is forbidden',
      reason: 'Forbidden',
      code: 403,
    } as const;
    const forbidden = syncErrorOf(listFailed(new ForbiddenError(status, { verb: 'list', resource: 'pods' })));
    expect(forbidden).toMatchObject({ code: 403, reason: 'Forbidden' });
    expect(forbidden.summary).toBe(
      'your user lacks list permission on pods at cluster scope (pods is forbidden)',
    );
  });

  it('has no summary where none is shorter than the message', () => {
    expect(syncErrorOf(new Error('unable to sync list result'))).toEqual({
      message: 'unable to sync list result',
    });
  });
});
