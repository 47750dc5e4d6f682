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
//   npx tsx test/bench/ui-churn.ts --as-bench   # first what `--only ui` does before its churn window
//                                               # (three texts typed, the scroll, kind switches, details)
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
import { printTables, samplesBetween, sourceMapsIn, summarise } from './profile-summary';
import type { CpuProfile } from './profile-summary';
import { ChurnHold } from './churn-hold';
import { printHeapTables } from './heap-sample-summary';
import type { SamplingHeapProfile } from './heap-sample-summary';
import { rendererMain } from './trace-events';
import type { TraceEvent } from './trace-events';
import { parseDriver, UiBenchSession } from './ui-session';
import { longTasksBetween, openDetail, pageNow, scrollTable, switchKind, typeFilters } from './ui-scenario';

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
  },
});
const pods = Number(values.pods);
const traceFolder = fileURLToPath(new URL('../../test-artifacts/ui-bench', import.meta.url));
const warmupMs = 5_000;
const longTaskMs = 50;
/** A task this long in the thread's own time is work, whatever the machine's load did to its wall time. */
const busyTaskMs = 20;
const started = performance.now();
const log = (message: string) =>
  console.log(`${((performance.now() - started) / 1000).toFixed(1)} s ${message}`);

const categories = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'disabled-by-default-v8.gc',
  // Blink's own collector (Oilpan): a page's long task after a V8 memory-reducing GC held 118-319 ms
  // of thread time with no other event in it.
  'blink_gc',
  'disabled-by-default-cppgc',
  'blink',
  'cc',
].join(',');

/** The page's main-thread CPU time so far (Chromium's ThreadTime). */
async function pageThreadCpuMs(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return (metrics.find((metric) => metric.name === 'ThreadTime')?.value ?? Number.NaN) * 1000;
}

/** Every trace event recorded while `during` runs. */
async function traced(cdp: CDPSession, during: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (data) => events.push(...(data.value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', { categories, transferMode: 'ReportEvents' });
  await during();
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.end');
  await complete;
  return events;
}

interface Summary {
  wallMs: number;
  threadMs: number;
  count: number;
}

function add(into: Map<string, Summary>, event: TraceEvent): void {
  const summary = into.get(event.name) ?? { wallMs: 0, threadMs: 0, count: 0 };
  summary.wallMs += (event.dur ?? 0) / 1000;
  summary.threadMs += (event.tdur ?? 0) / 1000;
  summary.count++;
  into.set(event.name, summary);
}

function print(title: string, summaries: Map<string, Summary>, top: number): void {
  console.log(title);
  const sorted = [...summaries].sort((left, right) => right[1].wallMs - left[1].wallMs).slice(0, top);
  for (const [name, summary] of sorted)
    console.log(
      `  ${round(summary.wallMs).toString().padStart(8)} ms wall ${round(summary.threadMs).toString().padStart(8)} ms thread  ${summary.count}x ${name}`,
    );
}

/** Scheduler wrappers: a task's work is what runs inside them. */
const wrappers = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);

interface Task {
  readonly event: TraceEvent;
  /** Events inside the task, wrappers left out, each with its depth below the task (1: directly). */
  readonly inside: { readonly event: TraceEvent; readonly depth: number }[];
}

/** The thread's top-level tasks, each with the events nested in it (nesting by time). */
function tasksOf(complete: readonly TraceEvent[]): Task[] {
  const tasks: Task[] = [];
  const stack: { event: TraceEvent; depth: number }[] = [];
  for (const event of complete) {
    while (stack.length > 0 && event.ts >= stack.at(-1)!.event.ts + (stack.at(-1)!.event.dur ?? 0))
      stack.pop();
    const parentDepth = stack.at(-1)?.depth ?? -1;
    const depth = wrappers.has(event.name) && stack.length > 0 ? parentDepth : parentDepth + 1;
    if (stack.length === 0) tasks.push({ event, inside: [] });
    else if (!wrappers.has(event.name)) tasks.at(-1)!.inside.push({ event, depth });
    stack.push({ event, depth });
  }
  return tasks;
}

/**
 * Each long task with the events inside it summed by name (to `depth` levels), then every frame's
 * (BeginMainFrame) contents summed the same way, and the thread's time by top-level task.
 */
function summarize(events: readonly TraceEvent[], depth: number, profile?: CpuProfile): void {
  const sourceMaps = sourceMapsIn(fileURLToPath(new URL('../../out/renderer/assets', import.meta.url)));
  /** The profile's samples inside `event` (the profile and the trace share Chromium's clock, us). */
  const functionsIn = (event: TraceEvent, top: number): void => {
    if (!profile) return;
    const range = samplesBetween(profile, event.ts, event.ts + (event.dur ?? 0));
    const { lines } = summarise(profile, sourceMaps, range);
    const sampled = lines.find((entry) => entry.name === '(root)')?.totalMs ?? 0;
    console.log(`  profile: ${range.end - range.first} samples, ${round(sampled)} ms`);
    printTables(lines, sampled, top);
  };
  const thread = rendererMain(events);
  if (thread === undefined) throw new Error('no CrRendererMain thread in the trace');
  const complete = events
    .filter((event) => event.pid === thread.pid && event.tid === thread.tid && event.ph === 'X')
    .sort((left, right) => left.ts - right.ts || (right.dur ?? 0) - (left.dur ?? 0));
  const tasks = tasksOf(complete);
  const long = tasks.filter(
    (task) => (task.event.dur ?? 0) / 1000 > longTaskMs || (task.event.tdur ?? 0) / 1000 > busyTaskMs,
  );
  const busy = tasks.filter((task) => (task.event.tdur ?? 0) / 1000 > busyTaskMs).length;
  console.log(
    `${long.length} top-level tasks over ${longTaskMs} ms of wall time or ${busyTaskMs} ms of thread time on the renderer main thread (${busy} over ${busyTaskMs} ms of thread time)`,
  );
  for (const task of long) {
    const inside = new Map<string, Summary>();
    for (const child of task.inside) if (child.depth <= depth) add(inside, child.event);
    print(
      `task at ${round(task.event.ts / 1000)} ms: ${round((task.event.dur ?? 0) / 1000)} ms wall, ${round((task.event.tdur ?? 0) / 1000)} ms thread`,
      inside,
      14,
    );
    functionsIn(task.event, 12);
  }
  const frames = new Map<string, Summary>();
  const threadTimes: number[] = [];
  for (const task of tasks) {
    threadTimes.push((task.event.tdur ?? 0) / 1000);
    for (const child of task.inside) if (child.depth <= depth) add(frames, child.event);
  }
  threadTimes.sort((left, right) => right - left);
  console.log(
    `${tasks.length} tasks; thread ms of the 20 costliest: ${threadTimes
      .slice(0, 20)
      .map((ms) => round(ms))
      .join(', ')}`,
  );
  print(`whole window, events to depth ${depth} inside tasks:`, frames, 40);
  if (profile) {
    const { lines } = summarise(profile, sourceMaps);
    const idle = lines.find((entry) => entry.name === '(idle)')?.selfMs ?? 0;
    const wallMs = (profile.endTime - profile.startTime) / 1000;
    console.log(`whole profile: ${round(wallMs)} ms, ${round(wallMs - idle)} ms busy`);
    printTables(lines, wallMs - idle, 40);
  }
}

if (values.summarize !== undefined) {
  const profileFile = values['profile-file'];
  summarize(
    JSON.parse(readFileSync(values.summarize, 'utf8')) as TraceEvent[],
    Number(values.depth),
    profileFile === undefined ? undefined : (JSON.parse(readFileSync(profileFile, 'utf8')) as CpuProfile),
  );
  process.exit(0);
}

const session = await UiBenchSession.start(pods, log);
try {
  const backend = await session.startBackendProcess();
  const { page, cdp } = await session.openSyncedPage(backend, log, parseDriver(values.driver));
  // --hold: the delivered rate (every kind's changes) held at a target rather than the actions asked.
  const hold = values.hold === undefined ? undefined : new ChurnHold(session.cluster, Number(values.hold));
  if (hold) await hold.start();
  else await session.cluster.setChurn(Number(values.churn));
  await page.waitForTimeout(warmupMs);
  if (values['as-bench']) {
    // The page as the ui bench leaves it for its churn window: a filter typed and cleared, the
    // table scrolled, Deployments subscribed (pooled for 60 s), a row selected.
    log('as the bench: typing, scrolling, switching kinds, opening details...');
    const typing = await typeFilters(page, ['app=api-0', '!canary', 'api-0-']);
    const frames = await scrollTable(page, '[data-testid="table-body"]');
    log(
      `keystroke p50 / p95 ${round(percentile(typing.latencies, 50))} / ${round(percentile(typing.latencies, 95))} ms (${typing.latencies.length} keys); scroll frame p95 / max ${round(percentile(frames, 95))} / ${round(Math.max(...frames))} ms`,
    );
    for (let pass = 0; pass < 2; pass++) {
      await switchKind(page, 'deployments', 'Deployments');
      await switchKind(page, 'pods', 'Pods');
    }
    for (const index of [2, 5, 8]) await openDetail(page, index);
  }
  await hold?.markWindow();
  const phase = values.scroll ? 'scroll' : values.switch ? 'switch' : 'churn';
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
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const cpuBefore = await pageThreadCpuMs(cdp);
  const wallBefore = performance.now();
  const events = await traced(cdp, async () => {
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
  const windowSeconds = (performance.now() - wallBefore) / 1000;
  const profile = values.profile ? ((await cdp.send('Profiler.stop')).profile as CpuProfile) : undefined;
  const heap = heapSampled
    ? ((await cdp.send('HeapProfiler.stopSampling')).profile as unknown as SamplingHeapProfile)
    : undefined;
  const longTasks = await longTasksBetween(page, from, await pageNow(page));
  const delivered = await hold?.delivered();
  // The churn stopped without waiting on it: a cluster starved of a core answered the stop minutes
  // late (or not at all), and the figures below were lost with the run.
  void hold?.stop().catch((error: unknown) => log(`the churn did not stop: ${String(error)}`));
  if (delivered)
    log(
      `delivered ${round(delivered.changesPerSecond)} changes/s (held at ${values.hold}; asked ${round(delivered.asked)} actions/s at the end)`,
    );
  log(
    `page main thread: ${round(pageCpuMs)} ms of CPU in ${round(windowSeconds)} s (${round(pageCpuMs / windowSeconds)} ms per second of churn)`,
  );
  log(
    `long tasks (the page's PerformanceObserver): ${longTasks.map((duration) => round(duration)).join(', ') || 'none'} (${round((longTasks.length / windowSeconds) * 60)} per min)`,
  );
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
  if (heap)
    printHeapTables(
      heap,
      sourceMapsIn(fileURLToPath(new URL('../../out/renderer/assets', import.meta.url))),
      30,
    );
} finally {
  await session.close();
}
