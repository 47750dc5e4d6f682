// The ui bench's churn window alone, by hand (issue 15), with a Chromium trace of the page: what each
// long task of an idle page under churn held, in Chromium's own terms (script, style, layout, paint,
// collections), where a V8 CPU profile shows native work only as "(program)":
//
//   npx tsx test/bench/ui-churn.ts [--pods 50000] [--churn 2000] [--seconds 30] [--depth 3]
//   npx tsx test/bench/ui-churn.ts --summarize test-artifacts/ui-bench/churn-trace-50000.json
//   npx tsx test/bench/ui-churn.ts --scroll   # the ui bench's wheel scroll under churn, traced instead
//   npx tsx test/bench/ui-churn.ts --profile  # also the page's V8 CPU profile: each long task's functions
//   npx tsx test/bench/ui-churn.ts --switch   # the ui bench's kind switches under churn, traced instead
//   npx tsx test/bench/ui-churn.ts --hold 4000  # the cluster's changes a second held at 4,000 (churn-hold.ts)
//   npx tsx test/bench/ui-churn.ts --heap     # also a sampling heap profile: what the page allocated
//   npx tsx test/bench/ui-churn.ts --heap-survivors  # the same, less what scavenges collected: what
//                                                    # reached the old generation (feeds mark-compacts)
//   npx tsx test/bench/ui-churn.ts --as-bench   # first what `--only ui` does before its churn window, by
//                                               # its own steps (ui-before-churn.ts), and the backend's
//                                               # measuring during the window, as the bench
//   npx tsx test/bench/ui-churn.ts --bench-window  # --as-bench, and the window counted and traced is
//                                                  # the bench's own (ui-churn-window.ts): from its
//                                                  # start to the page's clock read after its figures
//   npx tsx test/bench/ui-churn.ts --typing     # the bench's typing (its five texts) traced instead
//   npx tsx test/bench/ui-churn.ts --no-trace   # the window untraced: its long-task count alone
//   npx tsx test/bench/ui-churn.ts --settle 45000  # the window starts 45 s later, under the same
//                                                  # churn (after the recording's whole-cache records)
//   npx tsx test/bench/ui-churn.ts --js-flags=--no-memory-reducer  # V8 flags of the page's renderer
//
// Each of the page's long-task entries (the bench's count) is put beside the traced tasks it spans (a
// console.timeStamp puts the page's clock on the trace's), and the traced tasks over 50 ms that no
// entry reports are listed: Chromium's long-task entries leave out tasks that run none of the page's
// script (collections, Oilpan's sweep, frames without a rAF callback), session 18. Then the frames'
// thread time, p50 / p95 / max and by stage (trace-frames.ts): those that ran a scroll event (under
// --scroll, the frames that rendered the rows scrolled in), and every frame that drew.
//
// The same cluster process, browser mode and Chromium as `--only ui`. Once the pods are synced the
// cluster churns for a warm-up, then the page is traced for --seconds; the script prints the long
// tasks (over 50 ms, as the bench counts them) with the trace events inside each to --depth levels
// (wall and thread time, ms), and the same sums over every task of the window. A thread time far
// below the wall time is a thread waiting for a core (or for the collector's helpers), not work.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { CdpSession as CDPSession } from './cdp-connection';
import { percentile, round } from './harness';
import { sourceMapsIn } from './profile-summary';
import type { CpuProfile } from './profile-summary';
import { ChurnHold, clusterRevision } from './churn-hold';
import { printHeapTables } from './heap-sample-summary';
import type { SamplingHeapProfile } from './heap-sample-summary';
import type { TraceEvent } from './trace-events';
import { captureTrace } from './trace-capture';
import { printLongTaskCulprits, summarize } from './trace-tasks';
import { printScrollFrames } from './trace-frames';
import type { LongTaskEntry } from './trace-tasks';
import { parseDriver, UiBenchSession } from './ui-session';
import { endChurnWindow, startChurnWindow } from './ui-churn-window';
import type { ChurnWindowEnd, ChurnWindowStart } from './ui-churn-window';
import { beforeChurnWindow, churnWarmupMs, filterTexts, pageThreadCpuMs } from './ui-before-churn';
import {
  longTaskEntriesBetween,
  markPageClock,
  pageNow,
  scrollTable,
  switchKind,
  typeFilters,
} from './ui-scenario';

const { values } = parseArgs({
  options: {
    // playwright (the default) or cdp (the bare DevTools driver: no devtools copy of each frame).
    driver: { type: 'string' },
    pods: { type: 'string', default: '50000' },
    churn: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '30' },
    depth: { type: 'string', default: '3' },
    summarize: { type: 'string' },
    scroll: { type: 'boolean', default: false },
    switch: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    heap: { type: 'boolean', default: false },
    'heap-survivors': { type: 'boolean', default: false },
    'profile-file': { type: 'string' },
    hold: { type: 'string' },
    'as-bench': { type: 'boolean', default: false },
    // --as-bench, and the bench's window itself: started, ended and counted by ui-churn-window.ts,
    // traced whole (the figures' reads on either side included, and their entries counted apart).
    'bench-window': { type: 'boolean', default: false },
    // The window untraced (the ui bench records no trace): its long-task count alone.
    'no-trace': { type: 'boolean', default: false },
    // V8 flags of the browser's renderers (Chromium's --js-flags), e.g. --no-memory-reducer.
    'js-flags': { type: 'string' },
    // The bench's typing (its five texts, typed and cleared) traced instead of the idle window.
    typing: { type: 'boolean', default: false },
    // Milliseconds more of churn before the window: is a count the startup's tail or the steady state?
    settle: { type: 'string', default: '0' },
  },
});
const pods = Number(values.pods);
const benchWindow = values['bench-window'];
const asBench = values['as-bench'] || benchWindow;
const traceFolder = fileURLToPath(new URL('../../test-artifacts/ui-bench', import.meta.url));
/** --as-bench and --typing warm up as the bench does before its typing (churnWarmupMs). */
const warmupMs = asBench || values.typing ? churnWarmupMs : 5_000;
const started = performance.now();
const log = (message: string) =>
  console.log(`${((performance.now() - started) / 1000).toFixed(1)} s ${message}`);

/** The TimeStamp event that puts the page's clock on the trace's. */
const clockLabel = 'kubetide-page-clock';

/** Every trace event recorded while `during` runs (none under --no-trace). */
async function traced(cdp: CDPSession, during: () => Promise<void>): Promise<TraceEvent[]> {
  if (!values['no-trace']) return (await captureTrace(cdp, during)).events;
  await during();
  return [];
}

/** Saves the window's trace (and profiles) and prints what its long tasks held. */
function reportTrace(
  phase: string,
  events: TraceEvent[],
  entries: readonly LongTaskEntry[],
  clock: number | undefined,
  profile: CpuProfile | undefined,
  heap: SamplingHeapProfile | undefined,
): void {
  mkdirSync(traceFolder, { recursive: true });
  const saved = join(traceFolder, `${phase}-trace-${pods}.json`);
  writeFileSync(saved, JSON.stringify(events));
  let profileNote = '';
  if (profile) {
    const profileFile = saved.replace(/\.json$/, '.cpuprofile');
    writeFileSync(profileFile, JSON.stringify(profile));
    profileNote = ` and ${profileFile} (--profile-file)`;
  }
  if (heap) {
    const heapFile = saved.replace(/\.json$/, '.heapprofile');
    writeFileSync(heapFile, JSON.stringify(heap));
    profileNote += ` and ${heapFile} (heap-sample-summary.ts)`;
  }
  log(`trace in ${saved}${profileNote} (--summarize FILE reads it again)`);
  summarize(events, Number(values.depth), profile);
  // The frames split by stage in the thread's own time (what a loaded machine does not stretch).
  printScrollFrames(events);
  const mark = events.find((event) => event.name === 'TimeStamp' && event.args?.data?.message === clockLabel);
  if (mark && clock !== undefined)
    printLongTaskCulprits(events, entries, mark.ts / 1000 - clock, Number(values.depth));
  else console.log('no clock mark in the trace: the long-task entries are not matched to traced tasks');
  if (heap)
    printHeapTables(
      heap,
      sourceMapsIn(fileURLToPath(new URL('../../out/renderer/assets', import.meta.url))),
      30,
    );
}

if (values.summarize !== undefined) {
  const profileFile = values['profile-file'];
  const saved = JSON.parse(readFileSync(values.summarize, 'utf8')) as TraceEvent[];
  summarize(
    saved,
    Number(values.depth),
    profileFile === undefined ? undefined : (JSON.parse(readFileSync(profileFile, 'utf8')) as CpuProfile),
  );
  printScrollFrames(saved);
  process.exit(0);
}

const session = await UiBenchSession.start(pods, log);
try {
  const backend = await session.startBackendProcess();
  const { page, cdp } = await session.openSyncedPage(
    backend,
    log,
    parseDriver(values.driver),
    values['js-flags'] === undefined ? [] : [`--js-flags=${values['js-flags']}`],
  );
  // --hold: the delivered rate (every kind's changes) held at a target rather than the actions asked.
  const hold = values.hold === undefined ? undefined : new ChurnHold(session.cluster, Number(values.hold));
  if (hold) await hold.start();
  else await session.cluster.setChurn(Number(values.churn));
  await page.waitForTimeout(warmupMs);
  if (asBench) {
    // The page as the ui bench leaves it for its churn window, by the bench's own steps (its texts,
    // typed and cleared; the table scrolled; Deployments subscribed, pooled for 60 s; a row selected).
    log('as the bench: typing, scrolling, switching kinds, opening details...');
    const { typing, frames } = await beforeChurnWindow(
      page,
      await filterTexts(session.cluster.url, false),
      log,
    );
    log(
      `keystroke p50 / p95 ${round(percentile(typing.latencies, 50))} / ${round(percentile(typing.latencies, 95))} ms (${typing.latencies.length} keys; by text ${typing.byText.map(({ text, latencies }) => `"${text}" ${round(percentile(latencies, 95))}`).join(', ')}); scroll frame p95 / max ${round(percentile(frames, 95))} / ${round(Math.max(...frames))} ms`,
    );
  }
  if (Number(values.settle) > 0) await page.waitForTimeout(Number(values.settle));
  await hold?.markWindow();
  const phase = values.scroll ? 'scroll' : values.switch ? 'switch' : values.typing ? 'typing' : 'churn';
  log(`churning at ${values.churn}/s; tracing ${phase === 'churn' ? `${values.seconds} s` : phase}...`);
  const from = await pageNow(page);
  if (values.profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
    await cdp.send('Profiler.start');
  }
  const heapSampled = values.heap || values['heap-survivors'];
  if (heapSampled) {
    // Collected objects kept: the window's allocations, garbage included (what feeds the collector);
    // with --heap-survivors less what scavenges collected, so what is left reached the old generation
    // (large objects straight away): the garbage of the mark-compacts, and what is still alive.
    await cdp.send('HeapProfiler.enable');
    await cdp.send('HeapProfiler.startSampling', {
      samplingInterval: 32_768,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: !values['heap-survivors'],
    });
  }
  // --as-bench: the Performance domain is on since the typing, as in the bench.
  if (!asBench) await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const revisionBefore = await clusterRevision(session.cluster.url);
  // --as-bench: the backend measures its window as in the bench (a 1 ms timer reading the main
  // thread's schedstat, and its event-loop delay histogram).
  if (asBench && !benchWindow) await backend.startMeasuring();
  const cpuBefore = await pageThreadCpuMs(cdp);
  // Blink's DOM counters (nodes, JS event listeners: Oilpan objects) at the window's start and end:
  // nodes created and not yet swept show as growth.
  const domBefore = await cdp.send('Memory.getDOMCounters');
  const wallBefore = performance.now();
  let clock: number | undefined;
  let benchWindowEnd: ChurnWindowEnd | undefined;
  let benchWindowStart: ChurnWindowStart | undefined;
  const events = await traced(cdp, async () => {
    if (!values['no-trace']) clock = await markPageClock(page, clockLabel);
    if (benchWindow && phase === 'churn') {
      benchWindowStart = await startChurnWindow(page, backend, session.cluster.url);
      await page.waitForTimeout(Number(values.seconds) * 1000);
      benchWindowEnd = await endChurnWindow(page, backend, session.cluster.url, benchWindowStart);
      return;
    }
    if (values.switch) {
      // The ui bench's: Pods -> Deployments -> Pods, twice.
      const switches: number[] = [];
      for (let pass = 0; pass < 2; pass++) {
        switches.push(await switchKind(page, 'deployments', 'Deployments'));
        switches.push(await switchKind(page, 'pods', 'Pods'));
      }
      log(`kind switches (ms): ${switches.map((ms) => round(ms)).join(', ')}`);
      return;
    }
    if (values.typing) {
      const typing = await typeFilters(page, await filterTexts(session.cluster.url, false));
      log(
        `keystroke p50 / p95 ${round(percentile(typing.latencies, 50))} / ${round(percentile(typing.latencies, 95))} ms (${typing.latencies.length} keys); over 50 ms: ${
          typing.latencies
            .filter((latency) => latency > 50)
            .map((latency) => round(latency))
            .join(', ') || 'none'
        }`,
      );
      return;
    }
    if (!values.scroll) return page.waitForTimeout(Number(values.seconds) * 1000);
    const intervals = await scrollTable(page, '[data-testid="table-body"]');
    log(
      `scroll frame intervals over 50 ms: ${
        intervals
          .filter((interval) => interval > 50)
          .map((interval) => round(interval))
          .join(', ') || 'none'
      }`,
    );
  });
  const pageCpuMs = (await pageThreadCpuMs(cdp)) - cpuBefore;
  const domAfter = await cdp.send('Memory.getDOMCounters');
  const windowSeconds = (performance.now() - wallBefore) / 1000;
  const backendFigures = benchWindowEnd
    ? benchWindowEnd.backend
    : asBench
      ? await backend.stopMeasuring()
      : undefined;
  const changesPerSecond = ((await clusterRevision(session.cluster.url)) - revisionBefore) / windowSeconds;
  const profile = values.profile ? ((await cdp.send('Profiler.stop')).profile as CpuProfile) : undefined;
  const heap = heapSampled
    ? ((await cdp.send('HeapProfiler.stopSampling')).profile as unknown as SamplingHeapProfile)
    : undefined;
  // The churn window's entries are counted over --seconds from its start, as the bench counts them
  // (the trace's end, which the page also pays for, comes after).
  const countedSeconds = phase === 'churn' ? Number(values.seconds) : windowSeconds;
  // --bench-window: from the bench's start to its end, the wait alone (its reads are counted apart).
  const entries = await longTaskEntriesBetween(
    page,
    benchWindowStart?.pageStart ?? from,
    benchWindowEnd?.pageEnd ?? (phase === 'churn' ? from + countedSeconds * 1000 : await pageNow(page)),
  );
  const longTasks = entries.map((entry) => entry.duration);
  const delivered = await hold?.delivered();
  // The churn stopped without waiting on it: a cluster starved of a core answered the stop minutes
  // late (or not at all), and the figures below were lost with the run.
  void hold?.stop().catch((error: unknown) => log(`the churn did not stop: ${String(error)}`));
  if (delivered)
    log(
      `delivered ${round(delivered.changesPerSecond)} changes/s (held at ${values.hold}; asked ${round(delivered.asked)} actions/s at the end)`,
    );
  log(`the cluster's changes (resourceVersion growth, every kind): ${round(changesPerSecond)} a second`);
  const withReads =
    benchWindowStart && benchWindowEnd
      ? await longTaskEntriesBetween(page, benchWindowStart.pageBeforeReads, benchWindowEnd.pageAfterReads)
      : [];
  if (benchWindowStart && benchWindowEnd)
    log(
      `the bench's window: ${round((benchWindowEnd.pageEnd - benchWindowStart.pageStart) / 1000)} s on the page's clock (${values.seconds} s waited); the reads before it ${round(benchWindowStart.readsMs)} ms, after it: page clock ${round(benchWindowEnd.readsMs.clock)}, page CPU ${round(benchWindowEnd.readsMs.pageCpu)}, backend's figures ${round(benchWindowEnd.readsMs.backend)}, cluster's revision ${round(benchWindowEnd.readsMs.revision)} ms; with the reads (the count until session 21) ${round((benchWindowEnd.pageAfterReads - benchWindowStart.pageBeforeReads) / 1000)} s and ${withReads.length} entries (${withReads.map((entry) => round(entry.duration)).join(', ') || 'none'}); ${round(benchWindowEnd.changes / Number(values.seconds))} of the cluster's changes a second`,
    );
  if (backendFigures)
    log(
      `backend: main thread ${round((backendFigures.mainThreadCpuMs ?? Number.NaN) / windowSeconds)} ms a second, process ${round(backendFigures.processCpuMs / windowSeconds)} ms a second, longest loop stall ${round(backendFigures.loopStallMs)} ms`,
    );
  log(
    `page main thread: ${round(pageCpuMs)} ms of CPU in ${round(windowSeconds)} s (${round(pageCpuMs / windowSeconds)} ms per second of churn)`,
  );
  log(
    `DOM counters (Memory.getDOMCounters) at the window's start / end: nodes ${domBefore.nodes} / ${domAfter.nodes}, JS event listeners ${domBefore.jsEventListeners} / ${domAfter.jsEventListeners}, documents ${domBefore.documents} / ${domAfter.documents}`,
  );
  log(
    `long tasks (the page's PerformanceObserver): ${longTasks.map((duration) => round(duration)).join(', ') || 'none'} (${round((longTasks.length / countedSeconds) * 60)} per min over ${round(countedSeconds)} s)`,
  );
  if (!values['no-trace']) reportTrace(phase, events, entries, clock, profile, heap);
} finally {
  await session.close();
}
