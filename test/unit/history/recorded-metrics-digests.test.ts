// A recorded moment's metrics answered without what the asker holds: the keys' digest names the keys
// in their order, the answer's names all of it, and only what is the held answer's is left out.
import { describe, expect, it } from 'vitest';
import { metricsKeysDigest, withDigests } from '../../../main/history/recorded-metrics-digests';
import { metricsDigestFormat } from '../../../shared/protocol/validation-rules';

const metrics = {
  timestamp: 5_000,
  windowMs: 15_000,
  keys: ['a/web-1', 'a/web-2'],
  cpu: [1, 2],
  memory: [3, 4],
};

describe('recorded metrics digests', () => {
  it('name the same keys in the same order alike, another order or split otherwise', () => {
    const digest = metricsKeysDigest(['a/web-1', 'a/web-2']);
    expect(digest).toMatch(metricsDigestFormat);
    expect(metricsKeysDigest(['a/web-1', 'a/web-2'])).toBe(digest);
    expect(metricsKeysDigest(['a/web-2', 'a/web-1'])).not.toBe(digest);
    // Keys are not joined: no two lists share a text.
    expect(metricsKeysDigest(['a', 'b'])).not.toBe(metricsKeysDigest(['a","b']));
  });

  it('leave out the whole answer when it is the one held, the keys when only they are', () => {
    const full = withDigests(metrics, {});
    const { keysDigest, answerDigest } = full;
    expect(full).toEqual({ ...metrics, keysDigest, answerDigest });
    expect(keysDigest).toBe(metricsKeysDigest(metrics.keys));
    expect(answerDigest).toMatch(metricsDigestFormat);
    expect(answerDigest).not.toBe(keysDigest);
    // The same moment again (the same polls): nothing but the digests and what the moment is.
    expect(withDigests(metrics, { keys: keysDigest, answer: answerDigest })).toEqual({
      timestamp: 5_000,
      windowMs: 15_000,
      keys: [],
      cpu: [],
      memory: [],
      keysDigest,
      answerDigest,
      unchanged: true,
    });
    // The next poll of the same series: new values, the keys left out.
    const next = { ...metrics, timestamp: 20_000, cpu: [5, 6] };
    const nextDigests = withDigests(next, {});
    expect(nextDigests.keysDigest).toBe(keysDigest);
    expect(nextDigests.answerDigest).not.toBe(answerDigest);
    expect(withDigests(next, { keys: keysDigest, answer: answerDigest })).toEqual({
      ...next,
      keys: [],
      keysDigest,
      answerDigest: nextDigests.answerDigest,
      keysHeld: true,
    });
    // Other keys held: all of it.
    expect(withDigests(next, { keys: metricsKeysDigest(['a/web-1']) })).toEqual(nextDigests);
    // Any value or the timestamp alone moves the answer's digest.
    expect(withDigests({ ...metrics, memory: [3, 5] }, {}).answerDigest).not.toBe(answerDigest);
    expect(withDigests({ ...metrics, timestamp: 5_001 }, {}).answerDigest).not.toBe(answerDigest);
  });

  it('say nothing of a moment without samples (nothing to hold)', () => {
    const none = { keys: [], cpu: [], memory: [] };
    expect(withDigests(none, { keys: metricsKeysDigest([]) })).toBe(none);
  });
});
