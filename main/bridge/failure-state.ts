// What a feed whose list or watch keeps failing shows while the Reflector backs off: reconnecting (at
// a known time) at first, stale once it has failed for staleAfterMs, or error at once for failures
// retrying cannot fix (401, 403, 404).
import type { StatusError } from '../../shared/kube/status';
import { ApiStatusError, describeRequest } from '../kube/errors';
import type { SyncError, SyncState } from '../../shared/protocol/sync-state';

/** Status codes retrying will not cure: the subscription shows `error` rather than `reconnecting`. */
const permanentCodes = new Set([401, 403, 404]);

/**
 * The error's message, with the code and reason of the first StatusError in its cause chain, and its
 * summary (see SyncError.summary) when the chain holds an error that names its request.
 */
export function syncErrorOf(error: unknown): SyncError {
  const message = error instanceof Error ? error.message : String(error);
  const summary = summaryOf(error);
  const described = summary !== undefined && summary !== message ? { summary } : {};
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const status = (current as Partial<StatusError>).status;
    if (status && typeof status.code === 'number')
      return { code: status.code, reason: status.reason, message, ...described };
  }
  return { message, ...described };
}

/**
 * The words of the innermost error in the chain that names the request it failed (main/kube's:
 * "GET /api/v1/pods (listing pods): cannot reach ...", "403 listing pods: your user lacks ..."),
 * without that request: the Reflector's "failed to list /v1, Resource=pods: " and the request before
 * them fill a one-line badge before the reason does.
 */
function summaryOf(error: unknown): string | undefined {
  let summary: string | undefined;
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const { request } = current as { request?: unknown };
    const prefix =
      typeof request === 'string'
        ? `${request}: `
        : current instanceof ApiStatusError
          ? `${current.status.code} ${describeRequest(current.request)}: `
          : undefined;
    if (prefix !== undefined && current.message.startsWith(prefix))
      summary = current.message.slice(prefix.length);
  }
  return summary;
}

/** The state of a feed failing since `firstFailureAt` with `lastError`, retrying at `retryAt`. */
export function failureState(
  lastError: unknown,
  firstFailureAt: number,
  retryAt: number,
  now: number,
  staleAfterMs: number,
): SyncState {
  const error = syncErrorOf(lastError);
  if (error.code !== undefined && permanentCodes.has(error.code))
    return { phase: 'error', since: firstFailureAt, retryAt, error };
  if (now - firstFailureAt >= staleAfterMs) return { phase: 'stale', since: firstFailureAt, retryAt, error };
  return { phase: 'reconnecting', since: firstFailureAt, retryAt, error };
}
