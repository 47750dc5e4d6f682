// By hand: the ui bench's startup alone, with where the CPU went. `npx tsx test/bench/ui-startup.ts
// [--pods 50000] [--profile]` seeds the ui bench's cluster (its own process, still), starts Kubetide in
// browser mode in this process (recording on), opens it in headless Chromium and waits for the page's
// first rows and "synced" (ui-page-probe.js, from navigation start), then prints the CPU time each
// side spent from the backend's start to "synced": this process's threads (the main thread, and the
// others: the recording worker, V8's and libuv's helpers) and the page's main thread (CDP's
// TaskDuration). CPU time is what to compare on a shared machine: the wall times move with its load.
// `--profile` writes V8 CPU profiles of the same span to test-artifacts/ui-bench: the page's
// (startup-N.cpuprofile) and the backend main thread's (backend-startup-N.cpuprofile). `--trace`
// writes a Chromium trace of the page from navigation to "synced" (startup-N.trace.json; read it with
// `npx tsx test/bench/trace-summary.ts FILE`: the page thread's time by task kind, style, layout and
// paint included, which a CPU profile lumps together as "(program)"). `--backend-profile` writes only
// the backend's profile (the page's profiler slows the page). `--timeline` prints, twice a second
// (and once before the browser starts), where the pods' rows are and each side's CPU so far
// (startup-timeline.ts): which side waits for which.
// It also prints the backend main loop's longest stall (monitorEventLoopDelay) to "synced";
// `--batches-at-once` sends the renderer's batches as before session 12 (all that may go in one task,
// not one per turn): the A of an A/B pair on the same tree. `--open-after-synced` opens the page only
// once the backend's pods feed has synced, so the page is sent every row at once (as after a
// reconnect, or a kind opened late) and its "synced" times the page taking them in, the backend idle
// but for the recording: with no page there, the recorded kinds' feeds after the pods start and the
// held whole caches go to the recording at the pods' synced, beside the page's intake (session 14:
// 11,000-38,000 changes written meanwhile at 50,000 pods). `--open-after-recorded` waits for those too.
// `--no-record` runs the backend without its recording (the pods feed then starts with the page).
// `--window N` lets the renderer's streams hold N unacknowledged batches (BatchStream's
// maxUnacknowledgedBatches, 8 by default; and N MiB unsent): is the page's intake bound by its CPU or
// by a batch's round trip?
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { parseDriver, UiBenchSession } from './ui-session';
import { describeThreadCpu, threadCpu, threadCpuSpent } from './thread-cpu';
import type { ThreadCpu } from './thread-cpu';
import { startupTimes } from './ui-scenario';
import { StartupTimeline } from './startup-timeline';

const profileFolder = fileURLToPath(new URL('../../test-artifacts/ui-bench', import.meta.url));

const { values } = parseArgs({
  options: {
    pods: { type: 'string', default: '50000' },
    profile: { type: 'boolean', default: false },
    trace: { type: 'boolean', default: false },
    timeline: { type: 'boolean', default: false },
    // The page's profiler (200 us sampling) slows the page enough to move what bounds "synced".
    'backend-profile': { type: 'boolean', default: false },
    // The renderer's batches as before session 12: all that may go in one task (the A of an A/B pair).
    'batches-at-once': { type: 'boolean', default: false },
    'open-after-synced': { type: 'boolean', default: false },
    // Opens the page only once, after that, every feed has synced and the recording has written what
    // it held (the whole caches, released at the pods' synced when no page is there): what
    // --open-after-synced times is then the page's intake alone, not beside the recording's start.
    'open-after-recorded': { type: 'boolean', default: false },
    window: { type: 'string' },
    // cdp (the bare DevTools driver) or playwright (the figures before session 16).
    driver: { type: 'string' },
    // Experiments (issue 15's synced): the backend without its recording.
    'no-record': { type: 'boolean', default: false },
  },
});
// Without the recording no feed starts before a page subscribes: waiting for the pods' synced with no
// page open would wait for ever.
if (values['no-record'] && (values['open-after-synced'] || values['open-after-recorded']))
  throw new Error(
    '--no-record starts the pods feed with the page: it cannot be opened only after the feed synced',
  );
const pods = Number(values.pods);
const started = performance.now();
const log = (message: string) =>
  console.log(`${((performance.now() - started) / 1000).toFixed(1)} s ${message}`);
const session = await UiBenchSession.start(pods, log);
try {
  // The backend's main thread, from its start to "synced" (node's --cpu-prof would run to the exit).
  const inspector = new Session();
  if (values.profile || values['backend-profile']) {
    inspector.connect();
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.setSamplingInterval', { interval: 500 });
    await inspector.post('Profiler.start');
  }
  const before = threadCpu();
  const cpuBefore = process.cpuUsage();
  const backendStart = performance.now();
  // The backend's main thread's longest stall from its start to "synced" (this process's event loop).
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const mode = await session.startBackend(!values['no-record']);
  if (values.window !== undefined) {
    const options = mode.backend.host.session.options as { batch?: Record<string, unknown> };
    const window = Number(values.window);
    options.batch = {
      ...options.batch,
      maxUnacknowledgedBatches: window,
      maxBufferedBytes: window * 1024 * 1024,
    };
  }
  if (values['batches-at-once']) {
    const options = mode.backend.host.session.options as { batch?: Record<string, unknown> };
    options.batch = { ...options.batch, oneBatchPerTurn: false };
  }
  // When the backend's pods feed synced (its first kind when recording: it lists from the session's
  // start, before the page opens), with the CPU its threads had spent by then.
  const backendReady = performance.now() - backendStart;
  const clusterSession = mode.backend.host.session;
  let backendSynced = Number.NaN;
  let threadsAtBackendSynced: ThreadCpu[] | undefined;
  // The feed's phases as they change (a relist shows as listing again), in ms from the backend's start.
  const phases: string[] = [];
  const sample = () => {
    const phase = clusterSession.feeds
      .find({ group: '', version: 'v1', resource: 'pods' }, '')
      ?.syncState().phase;
    if (phase === undefined || phases.at(-1)?.startsWith(phase)) return;
    const at = performance.now() - backendStart;
    phases.push(`${phase} ${Math.round(at)}`);
    if (Number.isNaN(backendSynced) && phase === 'synced') {
      backendSynced = at;
      threadsAtBackendSynced = threadCpu();
    }
  };
  sample();
  const watch = setInterval(sample, 50);
  if (values['open-after-synced'] || values['open-after-recorded'])
    while (Number.isNaN(backendSynced)) await new Promise((resolve) => setTimeout(resolve, 100));
  if (values['open-after-recorded']) {
    let written = -1;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const stats = clusterSession.recording?.recorder?.stats();
      const allSynced = clusterSession.feeds.feeds().every((feed) => feed.syncState().phase === 'synced');
      if (allSynced && stats?.buffered === 0 && stats.changesWritten === written) break;
      written = stats?.changesWritten ?? 0;
    }
    log(`recorded before the page opened: ${written} changes`);
  }
  const timeline = new StartupTimeline(clusterSession, backendStart, session.cluster.pid);
  const browser = await session.openBrowser(parseDriver(values.driver));
  const page = await browser.newPage();
  const { cdp } = page;
  const traceEvents: unknown[] = [];
  if (values.trace) {
    cdp.on('Tracing.dataCollected', (data: { value: unknown[] }) => traceEvents.push(...data.value));
    await cdp.send('Tracing.start', {
      categories: 'devtools.timeline,disabled-by-default-devtools.timeline,toplevel,v8.execute',
      transferMode: 'ReportEvents',
    });
  }
  await cdp.send('Performance.enable');
  if (values.profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const pageOpen = performance.now();
  timeline.start(cdp);
  await page.goto(mode.launchUrl());
  const startup = await startupTimes(page);
  timeline.stop();
  loopDelay.disable();
  // The page can read "synced" within a poll of the feed: looked at once more.
  sample();
  clearInterval(watch);
  const recorded = clusterSession.recording?.recorder?.stats();
  const cpu = process.cpuUsage(cpuBefore);
  const after = threadCpu();
  const { metrics } = await cdp.send('Performance.getMetrics');
  if (values.trace) {
    mkdirSync(profileFolder, { recursive: true });
    const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.end');
    await complete;
    writeFileSync(join(profileFolder, `startup-${pods}.trace.json`), JSON.stringify({ traceEvents }));
  }
  const metric = (name: string) => (metrics.find((entry) => entry.name === name)?.value ?? 0) * 1000;
  if (values.profile) {
    const { profile } = await cdp.send('Profiler.stop');
    mkdirSync(profileFolder, { recursive: true });
    writeFileSync(join(profileFolder, `startup-${pods}.cpuprofile`), JSON.stringify(profile));
  }
  if (values.profile || values['backend-profile']) {
    const { profile: backendProfile } = await inspector.post('Profiler.stop');
    inspector.disconnect();
    mkdirSync(profileFolder, { recursive: true });
    writeFileSync(join(profileFolder, `backend-startup-${pods}.cpuprofile`), JSON.stringify(backendProfile));
  }
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  log(
    [
      `pods ${pods}: first rows ${Math.round(startup.firstRows)} ms, synced ${Math.round(startup.synced)} ms ` +
        `(from navigation; the backend started ${Math.round(pageOpen - backendStart)} ms before it)`,
      `backend's pods feed, from the backend's start (ready at ${Math.round(backendReady)} ms): ` +
        `${phases.join(', ')}; its CPU by its synced: ` +
        (threadsAtBackendSynced
          ? describeThreadCpu(threadCpuSpent(before, threadsAtBackendSynced))
          : 'not synced'),
      `recording by then: ${recorded?.changesWritten ?? 0} changes written (${recorded?.buffered ?? 0} queued), ` +
        `its worker's CPU on them ${seconds(recorded?.writeCpuMs ?? 0)}`,
      `backend CPU, its start to the page's synced: ${seconds((cpu.user + cpu.system) / 1000)} in all; ` +
        describeThreadCpu(threadCpuSpent(before, after)),
      `backend main loop, its start to the page's synced: longest stall ${Math.round(loopDelay.max / 1e6)} ms, ` +
        `p99 ${Math.round(loopDelay.percentile(99) / 1e6)} ms` +
        (values['batches-at-once'] ? ' (batches at once)' : ''),
      `page main thread: CPU ${seconds(metric('ThreadTime'))}, tasks ${seconds(metric('TaskDuration'))}, script ${seconds(metric('ScriptDuration'))}, ` +
        `layout ${seconds(metric('LayoutDuration'))}, style ${seconds(metric('RecalcStyleDuration'))}`,
    ].join('\n'),
  );
  if (values.timeline) console.log(timeline.describe());
} finally {
  await session.close();
}
