// A short, fixed-seed chaos run: every fault kind the embedded cluster injects, under churn, and then
// the informer caches, the renderer mirror and history's "now" must equal the server within the bound.
// `npm run chaos -- --runs 200` is the long form of the same check.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runChaos } from './chaos-run';
import { describeSchedule } from './fault-schedule';

const seeds = [101, 102, 103];

describe('chaos', () => {
  // Every injected fault is logged by the product as it should be; the run's verdict is what counts.
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => vi.restoreAllMocks());

  for (const seed of seeds) {
    it(`converges to the server's state after the faults of seed ${seed}`, async () => {
      const result = await runChaos({ seed, pods: 200 });
      const report = `${result.failure ?? ''}\nschedule:\n${describeSchedule(result.schedule)}`;
      expect(result.passed, report).toBe(true);
    }, 60_000);
  }
});
