// A past moment's samples read as the live ones are, from the answer's columns; an answer with the
// keys of the one before (a playback's next moment, its keys' digest the same, or its keys left out
// as held) reads through that one's index, not a new one.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RecordedSamples } from '../../../renderer/store/recorded-samples';

describe('RecordedSamples', () => {
  it("reads each key's sample from the answer's columns, the later of a repeated key winning", () => {
    const samples = new RecordedSamples({
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
  const answer = (cpu: number, keysDigest = 'same') => ({
    timestamp: cpu,
    keys: [...keys],
    cpu: keys.map(() => cpu),
    memory: keys.map(() => cpu * 2),
    keysDigest,
  });

  it("reads an answer with the same keys through the answer before's index, its own values", () => {
    const before = new RecordedSamples(answer(1));
    expect(before.keysDigest).toBe('same');
    const sets = vi.spyOn(Map.prototype, 'set');
    const next = new RecordedSamples(answer(2), before);
    expect(sets).not.toHaveBeenCalled();
    expect(next.get('default/web-7')).toEqual({ time: 2, cpu: 2, memory: 4 });
    expect(next.size).toBe(1_000);
    // Its keys left out as held: the same, read through the index before.
    const held = new RecordedSamples({ ...answer(3), keys: [], keysHeld: true }, next);
    expect(sets).not.toHaveBeenCalled();
    expect(held.get('default/web-999')).toEqual({ time: 3, cpu: 3, memory: 6 });
    expect(held.size).toBe(1_000);
    // Other keys (another digest: a pod gone, one new, or the same keys in another order): an index
    // of its own.
    const moved = { ...answer(4, 'moved'), keys: [...keys.slice(1), keys[0]!] };
    const reordered = new RecordedSamples(moved, held);
    expect(sets).toHaveBeenCalledTimes(1_000);
    expect(reordered.get('default/web-0')).toEqual({ time: 4, cpu: 4, memory: 8 });
    expect(
      new RecordedSamples({ ...answer(5, 'fewer'), keys: keys.slice(1) }, held).has('default/web-0'),
    ).toBe(false);
  });

  it('refuses an answer whose keys were left out as held when they are not the ones held', () => {
    const before = new RecordedSamples(answer(1, 'before'));
    expect(() => new RecordedSamples({ ...answer(2, 'other'), keys: [], keysHeld: true }, before)).toThrow(
      /keys this page does not hold/,
    );
    expect(() => new RecordedSamples({ ...answer(2), keys: [], keysHeld: true })).toThrow(/does not hold/);
  });
});
