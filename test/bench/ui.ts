// Benchmark 6 (issue 15): what a user feels, in a real browser. The embedded cluster (its own process)
// holds N pods under 2,000 changes a second; Kubetide runs in browser mode in another (ui-backend-child.ts,
// so what the bench measures of it excludes this process's browser driver); headless Chromium, driven
// by playwright-core (whose Network domain the page pays for; `--driver cdp` for a bare DevTools
// connection, cdp-browser.ts, without it), opens it and ui-scenario.ts types, scrolls, clicks and
// travels as a person would, while
// ui-page-probe.js times each action in the page, from the input event to the painted answer. The same
// browser then opens the floor (ui-floor.html: the same rows in a plain table, no engine), so the
// figures say what Kubetide costs over what showing these rows costs at all.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchBrowser, BenchPage } from './bench-page';
import type { CdpSession } from './cdp-connection';
import type { BenchOptions, BenchResult } from './harness';
import { atMost, median, percentile, round } from './harness';
import { UiBenchSession } from './ui-session';
import { startupBudget } from './ui-startup-budget';
import { startFloorServer } from './ui-floor';
import { endChurnWindow, startChurnWindow } from './ui-churn-window';
import { beforeChurnWindow, churnWarmupMs, filterTexts } from './ui-before-churn';
import {
  churnMiddle,
  describeGaps,
  goLive,
  listingGapSeconds,
  longTasksBetween,
  placeIn,
  playbackEnd,
  playbackError,
  playbackWindow,
  recordingSpan,
  scrollTable,
  startupTimes,
  timelineGaps,
  travelTo,
  typeFilters,
  wheelNotches,
} from './ui-scenario';

const profileFolder = fileURLToPath(new URL('../../test-artifacts/ui-bench', import.meta.url));
const playbackSpeed = 10;
const briefWheelNotches = 15;

/** Headless Chromium paints at 60 Hz (the scroll's median frame interval reads 16.7 ms). */
const framePeriodMs = 1000 / 60;

/**
 * A frame interval as the whole vsync periods it spans, in ms. rAF times are the frames' vsync-aligned
 * begin times on a clock coarsened to 0.1 ms, so one period reads 16.6-16.8 ms; a skipped frame adds
 * a whole period (33.3 ms), so rounding to periods drops only the clock's jitter and keeps every
 * missed frame.
 */
function inFramePeriods(interval: number): number {
  return Math.max(1, Math.round(interval / framePeriodMs)) * framePeriodMs;
}

/** Frames the page skipped while they were measured: periods spanned beyond one per interval. */
function skippedFrames(intervals: readonly number[]): number {
  let skipped = 0;
  for (const interval of intervals) skipped += Math.round(inFramePeriods(interval) / framePeriodMs) - 1;
  return skipped;
}

/** A CPU profile of `action` in the page, written to test-artifacts/ui-bench when --profile is given. */
async function profiled<T>(
  cdp: CdpSession,
  options: BenchOptions,
  name: string,
  action: () => Promise<T>,
): Promise<T> {
  if (!options.profile) return action();
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  try {
    return await action();
  } finally {
    const { profile } = await cdp.send<{ profile: unknown }>('Profiler.stop');
    mkdirSync(profileFolder, { recursive: true });
    writeFileSync(join(profileFolder, `${name}-${options.uiPods}.cpuprofile`), JSON.stringify(profile));
  }
}

async function openPage(browser: BenchBrowser, url: string): Promise<BenchPage> {
  const page = await browser.newPage();
  await page.goto(url);
  return page;
}

export async function runUi(options: BenchOptions, print: (message: string) => void): Promise<BenchResult> {
  const started = performance.now();
  const log = (message: string) => print(`${((performance.now() - started) / 1000).toFixed(1)} s ${message}`);
  const pods = options.uiPods;
  log(`ui: seeding ${pods} pods in the cluster process...`);
  const session = await UiBenchSession.start(pods, log);
  const { cluster } = session;
  try {
    const backend = await session.startBackendProcess();
    const browser = await session.openBrowser(options.uiDriver);
    const texts = await filterTexts(cluster.url, options.uiBrief);
    const notches = options.uiBrief ? briefWheelNotches : wheelNotches;

    log(`ui: opening Kubetide (${browser.driver} driver)...`);
    const page = await browser.newPage();
    const { cdp } = page;
    const budget = startupBudget(cluster.pid, backend.pid);
    const startup = await profiled(cdp, options, 'startup', async () => {
      await page.goto(await backend.launchUrl());
      return startupTimes(page);
    });
    const startupCpu = budget.atSynced();
    log(`ui: first rows ${round(startup.firstRows)} ms, synced ${round(startup.synced)} ms`);
    await cluster.setChurn(options.uiChurn);
    await page.waitForTimeout(churnWarmupMs);
    log(`ui: churning at ${options.uiChurn}/s; typing...`);
    const { typing, typingCpuMs, frames, scrollCpuMs, switches, kindSwitches, details } =
      await beforeChurnWindow(page, texts, log, (name, action) => profiled(cdp, options, name, action));

    log(`ui: watching churn for ${options.uiSeconds} s...`);
    const windowStart = await startChurnWindow(page, backend, cluster.url);
    await profiled(cdp, options, 'churn', () => page.waitForTimeout(options.uiSeconds * 1000));
    const window = await endChurnWindow(page, backend, cluster.url, windowStart);
    const churnPageCpuMs = window.pageCpuMs;
    const churn = window.backend;
    const { loopStallMs, loopStallCpuMs } = churn;
    const threadMs = churn.mainThreadCpuMs;
    const churnWallMs = churn.wallMs;
    const { changes } = window;
    const changesPerSecond = changes / (churnWallMs / 1000);
    const processMs = churn.processCpuMs;
    const mainCpuPct = (processMs / churnWallMs) * 100;
    const longTasks = await longTasksBetween(page, windowStart.pageStart, window.pageEnd);
    const longTasksPerMinute = (longTasks.length / options.uiSeconds) * 60;
    // Counted as until session 21: from before the reads at the start to after those at the end (at
    // 150,000 pods the simulator answered each 26 s late, so 113 s of entries over 60).
    const withReads = await longTasksBetween(page, windowStart.pageBeforeReads, window.pageAfterReads);
    await cdp.send('HeapProfiler.collectGarbage');
    const heapMb = (await cdp.send<{ usedSize: number }>('Runtime.getHeapUsage')).usedSize / 2 ** 20;

    log('ui: travelling...');
    const span = await recordingSpan(page);
    // Where each moment travelled to and played from falls: at 150,000 pods the pods' initial list
    // can still be in its listing gap here (its record written at the recording process's pace).
    const podsGaps = await timelineGaps(page, 'pods.v1');
    // Each travel starts from live, where the table's busy state tells when the moment is complete.
    const travels = await profiled(cdp, options, 'travel', async () => {
      const times = [await travelTo(page, span.to - 10_000)];
      await goLive(page);
      times.push(await travelTo(page, span.from + 1_000));
      return times;
    });
    const playFor = playbackWindow(span, span.from + 1_000, playbackSpeed);
    const playback = await playbackError(page, playbackSpeed, playFor);
    const speedError = playback.errorPct;
    // Also from the middle of the recording: past the initial list (whose density depends on how fast
    // the list arrived), where the cluster churned at --churn changes a second (see churnMiddle).
    const middle = churnMiddle(span, podsGaps);
    // travelTo times a travel from live (between two past moments the table never turns busy, and
    // the probe would wait out its 120 s limit).
    await goLive(page);
    await travelTo(page, middle);
    const churnPlayFor = playbackWindow(span, middle, playbackSpeed);
    const underChurn = await playbackError(page, playbackSpeed, churnPlayFor);
    const playbackStillMs = Math.max(playback.stillMaxMs, underChurn.stillMaxMs);
    await goLive(page);
    await page.close();

    log('ui: the floor (a plain table of the same rows)...');
    // The floor shows no live changes, and its paged read of the pods would outlive its continue
    // tokens under churn (410 Gone): the cluster is stilled first.
    await cluster.setChurn(0);
    const clusterStats = await cluster.stats();
    const clusterTiming = clusterStats.churnTiming;
    const floor = await startFloorServer(cluster.url);
    session.onClose(() => floor.close());
    const floorPage = await openPage(browser, floor.url);
    const floorStartup = await startupTimes(floorPage, false);
    const floorTyping = await typeFilters(floorPage, texts);
    const floorFrames = await scrollTable(floorPage, '#table', notches);

    const keystrokeP95 = percentile(typing.latencies, 95);
    const scrollP95 = percentile(frames, 95);
    const scrollP95InPeriods = percentile(frames.map(inFramePeriods), 95);
    const scrollMax = Math.max(...frames);
    const kindSwitch = median(switches);
    const detailOpen = median(details);
    const travel = Math.max(...travels);
    const floorKeystrokeP95 = percentile(floorTyping.latencies, 95);
    const floorScrollP95 = percentile(floorFrames, 95);
    return {
      bench: 'ui',
      fields: {
        pods,
        churn_per_s: options.uiChurn,
        driver: options.uiDriver,
        first_rows_ms: round(startup.firstRows),
        synced_ms: round(startup.synced),
        // Navigation to synced: every process's CPU (the backend, the cluster, Chromium's, this one),
        // and the least wall time that work allows: its sum over the cores, or the backend's main
        // thread alone (one thread runs on one core), whichever is longer.
        synced_cpu_s: round(startupCpu.totalMs / 1000),
        synced_backend_main_cpu_s: round(startupCpu.backendMainMs / 1000),
        synced_cpu_bound_ms: round(startupCpu.boundMs),
        keystroke_p50_ms: round(percentile(typing.latencies, 50)),
        keystroke_p95_ms: round(keystrokeP95),
        keystrokes: typing.latencies.length,
        page_typing_cpu_ms_per_key: round(typingCpuMs / typing.latencies.length),
        page_scroll_cpu_ms: round(scrollCpuMs),
        typing_dropped_keys: typing.droppedKeys + typing.unanswered,
        scroll_frame_p50_ms: round(percentile(frames, 50)),
        scroll_frame_p95_ms: round(scrollP95),
        scroll_frame_max_ms: round(scrollMax),
        scroll_frames_skipped: skippedFrames(frames),
        kind_switch_ms: round(kindSwitch),
        kind_switch_max_ms: round(Math.max(...switches)),
        // Every switch in the order made: Deployments, Pods, Deployments, Pods.
        kind_switches_ms: switches.map(round),
        detail_open_ms: round(detailOpen),
        travel_complete_ms: round(travel),
        // Each of the two travels travel_complete_ms is the slower of: 10 s back, then the start.
        travel_back_10s_ms: round(travels[0]!),
        travel_to_start_ms: round(travels[1]!),
        playback_speed_error_pct: round(speedError),
        playback_churn_error_pct: round(underChurn.errorPct),
        // The longest the view's moment stood still in either playback, wall ms.
        playback_still_max_ms: round(playbackStillMs),
        // Space to the first move (the error above is measured from it): reading the first changes,
        // and from a recording's start the list's moment rebuilt and on the page first.
        playback_start_ms: round(playback.startMs),
        playback_churn_start_ms: round(underChurn.startMs),
        // Wall ms each playback was measured over, from its first move: its window, or less when the
        // playback reached the recording's end first (a first step far ahead, out of a listing gap).
        playback_measured_ms: round(playback.measuredMs),
        playback_churn_measured_ms: round(underChurn.measuredMs),
        // The pods' initial list: how long its listing gap lasted (to the travels, if still open), s.
        pods_listing_gap_s: round(listingGapSeconds(podsGaps, span.to)),
        long_tasks_per_min: round(longTasksPerMinute),
        // The page-clock seconds long_tasks_per_min counted over (the wait alone, since session 21).
        long_tasks_window_s: round((window.pageEnd - windowStart.pageStart) / 1000),
        // The count as made until session 21: the figures' reads around the wait included, over its seconds.
        long_tasks_with_reads_per_min: round((withReads.length / options.uiSeconds) * 60),
        long_tasks_with_reads_window_s: round((window.pageAfterReads - windowStart.pageBeforeReads) / 1000),
        page_churn_cpu_pct: round((churnPageCpuMs / churnWallMs) * 100),
        renderer_heap_mb: round(heapMb),
        main_cpu_pct: round(mainCpuPct),
        // The main thread alone (the backend's informers, feeds and bridge; no worker), on Linux.
        ...(threadMs === undefined ? {} : { main_thread_cpu_pct: round((threadMs / churnWallMs) * 100) }),
        changes_per_s: round(changesPerSecond),
        cluster_unchurned_s: round(clusterTiming.unchurnedMs / 1000),
        cluster_tick_gap_max_ms: round(clusterTiming.longestTickGapMs),
        process_cpu_us_per_change: round((processMs * 1000) / Math.max(1, changes)),
        ...(threadMs === undefined
          ? {}
          : { main_thread_cpu_us_per_change: round((threadMs * 1000) / Math.max(1, changes)) }),
        main_loop_stall_max_ms: round(loopStallMs),
        ...(loopStallCpuMs === undefined ? {} : { main_loop_stall_max_cpu_ms: round(loopStallCpuMs) }),
        floor_first_rows_ms: round(floorStartup.firstRows),
        floor_keystroke_p50_ms: round(percentile(floorTyping.latencies, 50)),
        floor_keystroke_p95_ms: round(floorKeystrokeP95),
        floor_scroll_frame_p95_ms: round(floorScrollP95),
        floor_scroll_frame_max_ms: round(Math.max(...floorFrames)),
      },
      goals: [
        atMost('ui: first rows at most 2 s after the page opens', startup.firstRows, 2_000, ' ms'),
        atMost('ui: keystroke to painted table p95 at most 50 ms', keystrokeP95, 50, ' ms'),
        atMost('ui: no key dropped or left unanswered', typing.droppedKeys + typing.unanswered, 0),
        // Compared in whole frame periods (inFramePeriods): a frame read as 16.8 ms on the page's
        // coarsened clock was on time; a skipped one counts as 33.3 ms.
        atMost('ui: scroll frames p95 at most 16.7 ms', scrollP95InPeriods, 16.7, ' ms'),
        atMost('ui: scroll frames max at most 50 ms', scrollMax, 50, ' ms'),
        atMost('ui: kind switch at most 150 ms', kindSwitch, 150, ' ms'),
        atMost('ui: detail open at most 100 ms', detailOpen, 100, ' ms'),
        atMost('ui: travel complete at most 1 s', travel, 1_000, ' ms'),
        // Issue 12: at N x within 10%, never still over 250 ms; both playbacks (from the start and
        // from the middle, under churn) count, the worse of the two (a NaN, unmeasured, misses).
        atMost(
          `ui: playback at ${playbackSpeed}x within 10% (from the start and under churn)`,
          Math.max(speedError, underChurn.errorPct),
          10,
          '%',
        ),
        atMost('ui: playback never still over 250 ms', playbackStillMs, 250, ' ms'),
        atMost('ui: long tasks under churn at most 1 per minute', longTasksPerMinute, 1, '/min'),
        atMost('ui: backend event-loop stalls under churn at most 50 ms', loopStallMs, 50, ' ms'),
      ],
      notes: [
        options.uiDriver === 'cdp'
          ? "driver: cdp (a bare DevTools connection, no Network domain: the page pays no devtools copy of its WebSocket frames; its wheel input paces otherwise than playwright's: compare scroll figures within one driver)"
          : 'driver: playwright (playwright-core enables the Network domain: the page pays a devtools copy of every WebSocket frame, ~23 us a row; --driver cdp runs without it)',
        `synced's CPU, navigation to synced (${round(startup.synced)} ms): ${startupCpu.described}`,
        `typed: ${texts.map((text) => `"${text}"`).join(', ')}, each cleared after; ${typing.latencies.length} keystrokes`,
        `engine over floor: keystroke p95 ${round(keystrokeP95 / floorKeystrokeP95)}x, scroll p95 ${round(scrollP95 / floorScrollP95)}x, first rows ${round(startup.firstRows / floorStartup.firstRows)}x (floor: ${floor.rows} rows, substring filter)`,
        `scroll: ${frames.length} frame intervals, ${skippedFrames(frames)} frames skipped; p95 in whole frame periods ${round(scrollP95InPeriods)} ms (the goal's measure: the page's clock reads an on-time frame as 16.6-16.8 ms)`,
        `kind switch: Pods <-> Deployments twice (median; max ${round(Math.max(...switches))} ms; ${kindSwitches.map(({ kind, round: made, ms }) => `${kind} ${made + 1}: ${round(ms)}`).join(', ')} ms); detail: Enter on 3 rows (median)`,
        ...[
          { name: 'the start', measure: playback },
          { name: 'the middle, under churn', measure: underChurn },
        ].map(
          ({ name, measure }) =>
            `playback from ${name}, wall ms since its first move: recorded s since it [status]: ${measure.trace.slice(0, 12).join(', ')}${measure.trace.length > 12 ? ', ...' : ''}; longest still ${round(measure.stillMaxMs)} ms, ahead at most ${round(measure.aheadMaxMs)}, behind at most ${round(measure.behindMaxMs)} ms`,
        ),
        `travel: to the recording's start and to 10 s ago (the slower); playback at ${playbackSpeed}x for ${round(playFor)} ms from the start (first move ${round(playback.startMs)} ms after Space)${playbackEnd(playback)}, and for ${round(churnPlayFor)} ms from the middle, under churn (first move ${round(underChurn.startMs)} ms after Space)${playbackEnd(underChurn)}`,
        `where they fell, among the pods' gaps (${describeGaps(podsGaps, span.from)}, from the recording's start; its span ${round((span.to - span.from) / 1000)} s): 10 s back ${placeIn(podsGaps, span.to - 10_000)}; the start ${placeIn(podsGaps, span.from + 1_000)}; the middle played from (${round((middle - span.from) / 1000)} s) ${placeIn(podsGaps, middle)}`,
        `keystroke p50 / p95 by text: ${typing.byText.map(({ text, latencies }) => `"${text}" ${round(percentile(latencies, 50))} / ${round(percentile(latencies, 95))} ms`).join(', ')}`,
        `the cluster's churn: ${options.uiChurn} changes/s asked, ${round(changesPerSecond)} made in the window; its loop's ticks came up to ${round(clusterTiming.longestTickGapMs)} ms apart (a tick's own work at most ${round(clusterTiming.longestTickWorkMs)} ms), leaving ${round(clusterTiming.unchurnedMs / 1000)} s unchurned over the run (a late tick churns for at most the last second); it served ${Object.entries(
          clusterStats.requests,
        )
          .filter(([request]) => request.startsWith('list'))
          .map(([request, count]) => `${count} ${request}`)
          .join(', ')}`,
        `the backend's main thread under churn: collections ${churn.collections ?? 'unknown'}; its longest stalls ${churn.wallStalls?.join('; ') ?? 'unknown'}`,
        `long tasks and main_cpu_pct over ${options.uiSeconds} s of churn with the page idle (long tasks: ${longTasks.length ? longTasks.map((duration) => `${round(duration)}`).join(', ') + ' ms' : 'none'}); main_cpu_pct is the backend's process (its main thread, recording and query workers, browser server; the bench and its browser driver run in another process), one core = 100; changes are the cluster's resourceVersion growth (every kind), per change figures divide CPU time by them; the stall is the backend's longest event-loop delay (monitorEventLoopDelay), and in this thread's CPU time (CpuStallMonitor: what a quiet machine would show)`,
        ...(options.profile ? [`CPU profiles in ${profileFolder}`] : []),
      ],
    };
  } finally {
    await session.close();
  }
}
