// The ui bench's travel and playback alone, by hand (issues 12 and 15), for profiling them without
// the typing, scrolling and floor phases around them:
//
//   npx tsx test/bench/ui-travel.ts [--pods 50000] [--churn 2000] [--seconds 30] [--profile] [--trace]
//     [--backend-profile DIR]
//
// The same cluster process, browser mode and Chromium as `--only ui`; once the pods are synced the
// cluster churns for --seconds, then the page travels from live to 10 s ago and to the recording's
// start, and plays at 10x from the start and from the middle, timed by the same scenario code
// (ui-scenario.ts). --profile writes the page's CPU profiles of the travels and of the playbacks from
// the start and from the middle to test-artifacts/ui-bench/travel-only-N.cpuprofile,
// playback-only-N.cpuprofile and playback-middle-N.cpuprofile; --trace a Chromium trace of each
// playback (playback-only-N.trace.json, playback-middle-N.trace.json) and prints what the page's
// tasks over 50 ms held (trace-tasks.ts; with --profile, the functions in each): what a still is made of;
// --backend-profile runs the backend (its own process) under `node --cpu-prof` into DIR (its main
// thread's and each worker's profile, written as it closes); cut both to the travels by the printed
// profile clock (the monotonic clock, the same in every process).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { round } from './harness';
import type { CdpSession } from './cdp-connection';
import type { CpuProfile } from './profile-summary';
import { captureTrace } from './trace-capture';
import { summarize } from './trace-tasks';
import { parseDriver, UiBenchSession } from './ui-session';
import {
  churnMiddle,
  describeGaps,
  goLive,
  listingGapSeconds,
  placeIn,
  playbackEnd,
  playbackError,
  playbackWindow,
  recordingSpan,
  timelineGaps,
  travelTo,
} from './ui-scenario';
import type { PlaybackMeasure } from './ui-scenario';

const { values } = parseArgs({
  options: {
    // playwright (the default) or cdp (the bare DevTools driver: no devtools copy of each frame).
    driver: { type: 'string' },
    pods: { type: 'string', default: '50000' },
    churn: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '30' },
    profile: { type: 'boolean', default: false },
    trace: { type: 'boolean', default: false },
    depth: { type: 'string', default: '2' },
    'backend-profile': { type: 'string' },
  },
});
const pods = Number(values.pods);
const profileFolder = fileURLToPath(new URL('../../test-artifacts/ui-bench', import.meta.url));
const speed = 10;
const started = performance.now();
const log = (message: string) =>
  console.log(`${((performance.now() - started) / 1000).toFixed(1)} s ${message}`);

const session = await UiBenchSession.start(pods, log);
const { cluster } = session;
try {
  const backendProfile = values['backend-profile'];
  const backend = await session.startBackendProcess(
    backendProfile === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', backendProfile],
  );
  const { page, cdp } = await session.openSyncedPage(backend, log, parseDriver(values.driver));
  await cluster.setChurn(Number(values.churn));
  log(`churning at ${values.churn}/s for ${values.seconds} s...`);
  await page.waitForTimeout(Number(values.seconds) * 1000);
  const span = await recordingSpan(page);
  const podsGaps = await timelineGaps(page, 'pods.v1');
  log(
    `the pods' gaps from the recording's start: ${describeGaps(podsGaps, span.from)}; ` +
      `10 s back ${placeIn(podsGaps, span.to - 10_000)}, the start ${placeIn(podsGaps, span.from + 1_000)}`,
  );
  if (values.profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  // The backend's profile clock (node --cpu-prof's timestamps are the monotonic clock in us).
  const clock = () => Math.round(Number(process.hrtime.bigint() / 1000n));
  const travelsFrom = clock();
  // What the table holds once complete: a travel is only as slow as its moment is large.
  const shown = async () =>
    // No function named inside the page's code: tsx would wrap it in a helper the page lacks.
    page.evaluate(() =>
      ['row-count', 'travel-banner']
        .map((id) => document.querySelector(`[data-testid="${id}"]`)?.textContent ?? '')
        .join(' rows; '),
    );
  const recent = await travelTo(page, span.to - 10_000);
  log(`travel to 10 s ago: ${round(recent)} ms (${await shown()})`);
  await goLive(page);
  const start = await travelTo(page, span.from + 1_000);
  log(`travel to the recording's start: ${round(start)} ms (${await shown()})`);
  const travelsTo = clock();
  if (values.profile) {
    const { profile } = await cdp.send('Profiler.stop');
    mkdirSync(profileFolder, { recursive: true });
    writeFileSync(join(profileFolder, `travel-only-${pods}.cpuprofile`), JSON.stringify(profile));
  }
  log(`travels on the profile clock: ${travelsFrom} to ${travelsTo} us`);
  const playFor = playbackWindow(span, span.from + 1_000, speed);
  log(
    `timeline span ${round((span.to - span.from) / 1000)} s, recorded ${round((Date.now() - span.from) / 1000)} s; ` +
      `window from the start ${round(playFor)} ms`,
  );
  const playbackFrom = clock();
  const fromStart = await measured(cdp, 'playback-only', () => playbackError(page, speed, playFor));
  log(`playback from the start on the profile clock: ${playbackFrom} to ${clock()} us`);
  log(`playback at ${speed}x from the start: ${describePlayback(fromStart)}`);
  await goLive(page);
  const middle = churnMiddle(span, podsGaps);
  await travelTo(page, middle);
  const middleFor = playbackWindow(span, middle, speed);
  log(
    `window from the middle (${round((middle - span.from) / 1000)} s, ${placeIn(podsGaps, middle)}) ${round(middleFor)} ms`,
  );
  const middleFrom = clock();
  const underChurn = await measured(cdp, 'playback-middle', () => playbackError(page, speed, middleFor));
  log(`playback from the middle on the profile clock: ${middleFrom} to ${clock()} us`);
  log(`playback at ${speed}x from the middle: ${describePlayback(underChurn)}`);
  console.log(
    JSON.stringify({
      pods,
      travel_complete_ms: round(Math.max(recent, start)),
      travel_recent_ms: round(recent),
      travel_start_ms: round(start),
      playback_speed_error_pct: round(fromStart.errorPct),
      playback_churn_error_pct: round(underChurn.errorPct),
      playback_start_ms: round(fromStart.startMs),
      playback_churn_start_ms: round(underChurn.startMs),
      playback_measured_ms: round(fromStart.measuredMs),
      playback_churn_measured_ms: round(underChurn.measuredMs),
      pods_listing_gap_s: round(listingGapSeconds(podsGaps, span.to)),
    }),
  );
} finally {
  await session.close();
}

/**
 * Runs a playback's measure under the page's CPU profile (--profile) and a Chromium trace (--trace),
 * saved as `name`-N, the trace's long tasks printed with the profile's functions inside them.
 */
async function measured(
  cdp: CdpSession,
  name: string,
  measure: () => Promise<PlaybackMeasure>,
): Promise<PlaybackMeasure> {
  mkdirSync(profileFolder, { recursive: true });
  if (values.profile) await cdp.send('Profiler.start');
  const { events, result } = values.trace
    ? await captureTrace(cdp, measure)
    : { events: undefined, result: await measure() };
  let profile: CpuProfile | undefined;
  if (values.profile) {
    profile = (await cdp.send('Profiler.stop')).profile as CpuProfile;
    writeFileSync(join(profileFolder, `${name}-${pods}.cpuprofile`), JSON.stringify(profile));
  }
  if (events) {
    const file = join(profileFolder, `${name}-${pods}.trace.json`);
    writeFileSync(file, JSON.stringify(events));
    log(`${name}: trace in ${file}; the page's tasks over 50 ms:`);
    summarize(events, Number(values.depth), profile);
  }
  return result;
}

function describePlayback(measure: PlaybackMeasure): string {
  return (
    `error ${round(measure.errorPct)}%${playbackEnd(measure)} over ${round(measure.measuredMs)} ms, ` +
    `first move ${round(measure.startMs)} ms after Space, ` +
    `still at most ${round(measure.stillMaxMs)} ms, ahead at most ${round(measure.aheadMaxMs)} ms, ` +
    `behind at most ${round(measure.behindMaxMs)} ms; moves (wall ms: recorded s) ${measure.trace.join(', ')}`
  );
}
