import { describe, expect, it } from 'vitest';
import {
  StatusError,
  isConnectionRefused,
  isResourceExpired,
  isTooLargeResourceVersion,
  isTooManyRequests,
  newStatus,
} from '../../shared/kube/status';

describe('Status errors', () => {
  it('classifies 410 Expired and Gone as an expired resourceVersion', () => {
    expect(isResourceExpired(new StatusError(newStatus(410, 'Expired', 'too old')))).toBe(true);
    expect(isResourceExpired(new StatusError(newStatus(410, 'Gone', 'gone')))).toBe(true);
    expect(isResourceExpired(new StatusError(newStatus(500, 'InternalError', 'x')))).toBe(false);
    expect(isResourceExpired(new Error('410'))).toBe(false);
  });

  it('recognises both forms of a too-large resourceVersion', () => {
    const byCause = newStatus(504, 'Timeout', 'x', { causes: [{ type: 'ResourceVersionTooLarge' }] });
    const byMessage = newStatus(504, 'Timeout', 'Too large resource version: 20, current: 10');
    expect(isTooLargeResourceVersion(new StatusError(byCause))).toBe(true);
    expect(isTooLargeResourceVersion(new StatusError(byMessage))).toBe(true);
    expect(isTooLargeResourceVersion(new StatusError(newStatus(504, 'Timeout', 'slow')))).toBe(false);
  });

  it('finds 429 and connection refused, also when wrapped', () => {
    expect(isTooManyRequests(new StatusError(newStatus(429, 'TooManyRequests', 'slow down')))).toBe(true);
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(isConnectionRefused(new Error('fetch failed', { cause: refused }))).toBe(true);
    expect(isConnectionRefused(new Error('other'))).toBe(false);
  });
});
