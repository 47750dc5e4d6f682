// An empty table says "none" only once a list answered; before, it says what is under way or failing.
import { describe, expect, it } from 'vitest';
import { emptyTableMessage } from '../../../renderer/views/empty-table-message';
import type { SyncState } from '../../../shared/protocol';

const refused = 'GET /api/v1/pods (listing pods): cannot reach https://10.0.0.1:6443 (connection refused)';
const table = (sync: SyncState | undefined, more: { hasSnapshot?: boolean; filtered?: boolean } = {}) =>
  emptyTableMessage({
    title: 'pods',
    sync,
    hasSnapshot: more.hasSnapshot ?? true,
    filtered: more.filtered ?? false,
  });

describe('emptyTableMessage', () => {
  it('tells a list that keeps failing from an empty cluster, though main sent an empty snapshot', () => {
    const reconnecting: SyncState = { phase: 'reconnecting', retryAt: 5, error: { message: refused } };
    expect(table(reconnecting)).toBe(`No pods listed: ${refused}. Retrying (see the badge above).`);
    expect(table({ ...reconnecting, phase: 'stale', since: 1 })).toBe(
      `No pods listed: ${refused}. Retrying (see the badge above).`,
    );
  });

  it('gives the reason alone where the error has one, the whole message being in the badge', () => {
    const summary = 'cannot reach https://10.0.0.1:6443 (connection refused)';
    const message = `failed to list /v1, Resource=pods: ${refused}`;
    expect(table({ phase: 'reconnecting', retryAt: 5, error: { message, summary } })).toBe(
      `No pods listed: ${summary}. Retrying (see the badge above).`,
    );
  });

  it('says a refused login is retried, and that a new one in the kubeconfig is used', () => {
    const summary = "the server rejected your credentials (Unauthorized); check the user's token";
    const error = {
      code: 401,
      message: `failed to list /v1, Resource=pods: 401 listing pods: ${summary}`,
      summary,
    };
    expect(table({ phase: 'error', retryAt: 5, error })).toBe(
      `Cannot list pods: ${summary}. Retrying; a new login written to the kubeconfig is used.`,
    );
  });

  it('says a list is under way, with its progress, filtered or not', () => {
    expect(table({ phase: 'listing', listed: 16000, total: 50076 })).toBe('Listing pods: 16,000 of 50,076…');
    expect(table({ phase: 'listing' }, { hasSnapshot: false })).toBe('Listing pods…');
    expect(table({ phase: 'listing', listed: 10, total: 20 }, { filtered: true })).toBe(
      'No pods match the filter so far (listing: 10 of 20)…',
    );
  });

  it('says none only once synced', () => {
    expect(table({ phase: 'synced' })).toBe('No pods in the selected namespaces.');
    expect(table({ phase: 'synced' }, { filtered: true })).toBe(
      'No pods match the filter. Press Esc, then clear it with /.',
    );
    expect(table(undefined, { hasSnapshot: false })).toBe('Listing pods…');
  });

  it('names a refusal, and a moment of the past being rebuilt wins', () => {
    expect(table({ phase: 'error', error: { code: 403, message: 'pods is forbidden' } })).toBe(
      'No access to pods: pods is forbidden',
    );
    expect(
      emptyTableMessage({
        title: 'pods',
        sync: undefined,
        hasSnapshot: false,
        filtered: false,
        pending: 'Rebuilding',
      }),
    ).toBe('Rebuilding');
  });
});
