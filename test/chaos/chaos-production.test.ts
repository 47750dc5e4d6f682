// Chaos at production settings (chaosProfiles.production): TLS + HTTP/2 with client-go's health-check
// timings, the Reflector's real backoff, bookmarks once a minute, 3,000 pods, churn, and a connection
// that hangs for ever. Each seed takes about 70 s; they run side by side. `npm run chaos --
// --production --runs N` runs more.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chaosProfiles, runChaos } from './chaos-run';
import { describeSchedule } from './fault-schedule';

const seeds = [201, 202];

describe.concurrent('chaos at production settings', () => {
  // Once for the whole file: the seeds run at the same time.
  beforeAll(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterAll(() => vi.restoreAllMocks());

  for (const seed of seeds) {
    it(`converges within 45 s of calm after the faults of seed ${seed}`, async () => {
      const result = await runChaos({ seed, profile: chaosProfiles.production });
      const report = `${result.failure ?? ''}\nschedule:\n${describeSchedule(result.schedule)}`;
      expect(result.passed, report).toBe(true);
    }, 180_000);
  }
});
