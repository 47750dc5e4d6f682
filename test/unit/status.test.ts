import { describe, expect, it } from 'vitest';
import {
  StatusError,
  isConnectionRefused,
  isProbableEOF,
  isResourceExpired,
  isTooLargeResourceVersion,
  isTooManyRequests,
  newStatus,
  suggestsClientDelay,
} from '../../shared/kube/status';

describe('Status errors', () => {
  it('classifies 410 Expired and Gone as an expired resourceVersion', () => {
    expect(isResourceExpired(new StatusError(newStatus(410, 'Expired', 'too old')))).toBe(true);
    expect(isResourceExpired(new StatusError(newStatus(410, 'Gone', 'gone')))).toBe(true);
    expect(isResourceExpired(new StatusError(newStatus(500, 'InternalError', 'x')))).toBe(false);
    expect(isResourceExpired(new Error('410'))).toBe(false);
  });

  it('recognises every form of a too-large resourceVersion', () => {
    const byCause = newStatus(504, 'Timeout', 'x', { causes: [{ type: 'ResourceVersionTooLarge' }] });
    const byCauseMessage = newStatus(504, 'Timeout', 'x', {
      causes: [{ message: 'Too large resource version' }],
    });
    const byMessage = newStatus(504, 'Timeout', 'Too large resource version: 20, current: 10');
    expect(isTooLargeResourceVersion(new StatusError(byCause))).toBe(true);
    expect(isTooLargeResourceVersion(new StatusError(byCauseMessage))).toBe(true);
    expect(isTooLargeResourceVersion(new StatusError(byMessage))).toBe(true);
    expect(isTooLargeResourceVersion(new StatusError(newStatus(504, 'Timeout', 'slow')))).toBe(false);
  });

  it('finds 429 and connection refused, also when wrapped', () => {
    expect(isTooManyRequests(new StatusError(newStatus(429, 'TooManyRequests', 'slow down')))).toBe(true);
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(isConnectionRefused(new Error('fetch failed', { cause: refused }))).toBe(true);
    expect(isConnectionRefused(new Error('other'))).toBe(false);
  });

  it('finds a broken or timed-out connection (probable EOF), also when wrapped, but not a refused one', () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    expect(isProbableEOF(new Error('watching pods: cannot reach', { cause: reset }))).toBe(true);
    expect(isProbableEOF(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' }))).toBe(true);
    expect(isProbableEOF(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(isProbableEOF(Object.assign(new Error('no such host'), { code: 'ENOTFOUND' }))).toBe(false);
  });

  it('reads the delay a server suggests (Retry-After), and none when it gave none', () => {
    const throttled = newStatus(429, 'TooManyRequests', 'slow down', { retryAfterSeconds: 2 });
    expect(suggestsClientDelay(new StatusError(throttled))).toBe(2);
    expect(
      suggestsClientDelay(new StatusError(newStatus(429, 'TooManyRequests', 'slow down'))),
    ).toBeUndefined();
    expect(suggestsClientDelay(new Error('Retry-After: 2'))).toBeUndefined();
  });
});
