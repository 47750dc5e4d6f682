// A past moment's samples read as the live ones are, from the answer's columns; an answer laid out by
// the keys of the one before (a playback's next moment) reads through that one's index, extended by
// the keys it adds, not a new one.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SamplesIndexing } from '../../../renderer/store/recorded-samples';
import type { RecordedSamples } from '../../../renderer/store/recorded-samples';
import type { RecordedMetrics } from '../../../shared/protocol/history-messages';

/** `recorded`'s samples, its keys indexed whole at once (PastMetrics indexes them in parts). */
function samplesOf(recorded: RecordedMetrics, before?: RecordedSamples): RecordedSamples {
  const indexing = new SamplesIndexing(recorded, before);
  indexing.step(() => true);
  return indexing.samples();
}

describe('RecordedSamples', () => {
  it("reads each key's sample from the answer's columns, the later of a repeated key winning", () => {
    const samples = samplesOf({
      timestamp: 5_000,
      windowMs: 15_000,
      keys: ['default/web-1', 'default/web-2', 'default/web-1'],
      cpu: [0.1, 0.2, 0.3],
      memory: [1, 2, 3],
    });
    expect(samples.size).toBe(2);
    expect(samples.get('default/web-1')).toEqual({ time: 5_000, cpu: 0.3, memory: 3 });
    expect(samples.get('default/web-2')).toEqual({ time: 5_000, cpu: 0.2, memory: 2 });
    expect(samples.has('default/web-2')).toBe(true);
    expect(samples.get('default/web-3')).toBeUndefined();
    expect(samples.has('default/web-3')).toBe(false);
  });

  afterEach(() => vi.restoreAllMocks());

  const keys = Array.from({ length: 1_000 }, (_, at) => `default/web-${at}`);
  // Digests as main makes them are opaque here: only their equality counts.
  const answer = (cpu: number, keysDigest = 'first') => ({
    timestamp: cpu,
    keys: [...keys],
    cpu: keys.map(() => cpu),
    memory: keys.map(() => cpu * 2),
    keysDigest,
  });

  it("reads an answer laid out by the keys held through the answer before's index, extended by its added keys", () => {
    const before = samplesOf(answer(1));
    expect(before.keysDigest).toBe('first');
    const sets = vi.spyOn(Map.prototype, 'set');
    // web-0 gone (null), web-1000 new (appended): one key indexed, not a thousand.
    const cpu = [null, ...keys.slice(1).map(() => 2), 2];
    const next = samplesOf(
      {
        timestamp: 2,
        keys: [],
        keysFrom: 'first',
        addedKeys: ['default/web-1000'],
        cpu,
        memory: cpu.map((value) => (value === null ? null : 4)),
        keysDigest: 'second',
      },
      before,
    );
    expect(sets).toHaveBeenCalledTimes(1);
    expect(next.get('default/web-7')).toEqual({ time: 2, cpu: 2, memory: 4 });
    expect(next.get('default/web-1000')).toEqual({ time: 2, cpu: 2, memory: 4 });
    expect(next.get('default/web-0')).toBeUndefined();
    expect(next.has('default/web-0')).toBe(false);
    expect(next.size).toBe(1_000);
    // The answer before still reads its own samples, and not the key added after it.
    expect(before.get('default/web-0')).toEqual({ time: 1, cpu: 1, memory: 2 });
    expect(before.has('default/web-1000')).toBe(false);
    expect(before.size).toBe(1_000);
    // A fresh layout: an index of its own.
    const fresh = samplesOf({ ...answer(3, 'fresh'), keys: [...keys.slice(1), keys[0]!] }, next);
    expect(sets).toHaveBeenCalledTimes(1_001);
    expect(fresh.get('default/web-0')).toEqual({ time: 3, cpu: 3, memory: 6 });
    expect(fresh.has('default/web-1000')).toBe(false);
  });

  it('refuses an answer laid out by keys that are not the ones held', () => {
    const before = samplesOf(answer(1, 'before'));
    const laidOut = { ...answer(2, 'next'), keys: [], keysFrom: 'other', addedKeys: [] };
    expect(() => samplesOf(laidOut, before)).toThrow(/keys this page does not hold/);
    expect(() => samplesOf(laidOut)).toThrow(/does not hold/);
  });
});
