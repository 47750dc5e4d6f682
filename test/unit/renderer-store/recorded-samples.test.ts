// A past moment's samples read as the live ones are, from the answer's columns.
import { describe, expect, it } from 'vitest';
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
});
