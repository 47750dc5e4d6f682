import { describe, expect, it } from 'vitest';
import { parseChaosArguments } from '../../chaos/chaos-arguments';
import { describeSchedule, drawSchedule, faultKinds } from '../../chaos/fault-schedule';
import type { ScheduleOptions } from '../../chaos/fault-schedule';
import { seededRandom } from '../../support/seeded-random';

const options: ScheduleOptions = {
  kinds: faultKinds,
  durationMs: 2_500,
  minimumFaults: 3,
  maximumFaults: 8,
  stallMs: 4_000,
};

describe('chaos fault schedule', () => {
  it('is the same for the same seed, so a failure replays with --seed S --runs 1', () => {
    expect(drawSchedule(seededRandom(1040), options)).toEqual(drawSchedule(seededRandom(1040), options));
    expect(drawSchedule(seededRandom(1040), options)).not.toEqual(drawSchedule(seededRandom(1041), options));
  });

  it('stays within the fault phase, in time order, with the requested number of faults', () => {
    for (let seed = 0; seed < 200; seed++) {
      const schedule = drawSchedule(seededRandom(seed), options);
      expect(schedule.length).toBeGreaterThanOrEqual(3);
      expect(schedule.length).toBeLessThanOrEqual(8);
      const times = schedule.map((fault) => fault.atMs);
      expect(times).toEqual([...times].sort((left, right) => left - right));
      expect(times.every((time) => time >= 0 && time < options.durationMs)).toBe(true);
    }
  });

  it('draws every fault kind over enough seeds, and only the kinds asked for', () => {
    const seen = new Set<string>();
    for (let seed = 0; seed < 100; seed++)
      for (const fault of drawSchedule(seededRandom(seed), options)) seen.add(fault.kind);
    expect([...seen].sort()).toEqual([...faultKinds].sort());
    const only = drawSchedule(seededRandom(5), { ...options, kinds: ['drop', 'stall'] });
    expect(only.every((fault) => fault.kind === 'drop' || fault.kind === 'stall')).toBe(true);
  });

  it('gives stalls a length beyond the inactivity timeout and request faults a count and verb', () => {
    const schedule = drawSchedule(seededRandom(9), { ...options, kinds: ['stall', 'throttle'] });
    for (const fault of schedule) {
      if (fault.kind === 'stall') expect(fault.stallMs).toBe(4_000);
      else {
        expect(fault.count).toBeGreaterThanOrEqual(1);
        expect(['list', 'watch']).toContain(fault.verb);
      }
    }
  });

  it('adds exactly one blackhole, within its window, when asked', () => {
    for (let seed = 0; seed < 50; seed++) {
      const schedule = drawSchedule(seededRandom(seed), { ...options, blackholeWithinMs: 1_000 });
      const blackholes = schedule.filter((fault) => fault.kind === 'blackhole');
      expect(blackholes).toHaveLength(1);
      expect(blackholes[0].atMs).toBeLessThan(1_000);
    }
    expect(drawSchedule(seededRandom(3), options).some((fault) => fault.kind === 'blackhole')).toBe(false);
  });

  it('prints one line per fault for a failure report', () => {
    const text = describeSchedule([
      { atMs: 412, kind: 'throttle', count: 2, verb: 'list', path: '/pods' },
      { atMs: 900, kind: 'stall', stallMs: 4_000 },
    ]);
    expect(text).toBe('  +412 ms throttle x2 list /pods\n  +900 ms stall 4000 ms');
  });
});

describe('chaos arguments', () => {
  it('reads runs, seed, pods and kinds', () => {
    expect(
      parseChaosArguments(['--runs', '200', '--seed', '7', '--pods', '50', '--kinds', 'drop,gone']),
    ).toEqual({
      runs: 200,
      seed: 7,
      pods: 50,
      kinds: ['drop', 'gone'],
      production: false,
    });
  });

  it('reads --production, whose runs default to 3,000 pods', () => {
    expect(parseChaosArguments(['--production', '--seed', '7'])).toMatchObject({
      production: true,
      seed: 7,
      pods: 3_000,
    });
  });

  it('refuses unknown arguments, bad numbers and unknown fault kinds', () => {
    expect(() => parseChaosArguments(['--run', '3'])).toThrow(/unknown argument --run/);
    expect(() => parseChaosArguments(['--runs', 'many'])).toThrow(/--runs needs a whole number/);
    expect(() => parseChaosArguments(['--kinds', 'drop,earthquake'])).toThrow(/--kinds/);
  });
});
