// A past moment's samples read as the live ones are, from the answer's columns; an answer with the
// keys of the one before (a playback's next moment) reads through that one's index, not a new one.
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

  it("reads an answer with the same keys through the answer before's index, its own values", () => {
    const keys = Array.from({ length: 1_000 }, (_, at) => `default/web-${at}`);
    const answer = (cpu: number) => ({
      timestamp: cpu,
      keys: [...keys],
      cpu: keys.map(() => cpu),
      memory: keys.map(() => cpu * 2),
    });
    const before = new RecordedSamples(answer(1));
    const sets = vi.spyOn(Map.prototype, 'set');
    const next = new RecordedSamples(answer(2), before);
    expect(sets).not.toHaveBeenCalled();
    expect(next.get('default/web-7')).toEqual({ time: 2, cpu: 2, memory: 4 });
    expect(next.size).toBe(1_000);
    // Other keys (a pod gone, one new, or the same keys in another order): an index of its own.
    const moved = { ...answer(3), keys: [...keys.slice(1), keys[0]] };
    const reordered = new RecordedSamples(moved, before);
    expect(sets).toHaveBeenCalledTimes(1_000);
    expect(reordered.get('default/web-0')).toEqual({ time: 3, cpu: 3, memory: 6 });
    expect(reordered.get('default/web-1')).toEqual({ time: 3, cpu: 3, memory: 6 });
    expect(new RecordedSamples({ ...answer(4), keys: keys.slice(1) }, before).has('default/web-0')).toBe(
      false,
    );
  });
});
