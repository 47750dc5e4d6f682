// By hand: the ui bench's backend under churn, alone (issue 15). The same cluster process, browser
// mode in a process of its own and Chromium page as `--only ui`; once the page reads "synced" the
// cluster churns for a warm-up, then the backend is asked for its own figures over --seconds of churn
// with the page idle: its process's CPU, its main thread's CPU (per change), and its event loop's
// longest stall in wall and in CPU time. No typing, scrolling or travel around it, so runs before and
// after a change can be taken back to back in a few minutes.
//
//   npx tsx test/bench/ui-backend-churn.ts [--pods 50000] [--churn 2000] [--seconds 30] [--warmup 5]
//     [--backend-profile DIR]
//
// --warmup is the seconds of churn before the window (default 5); at 150,000 pods the initial list's
// record takes the recording worker's first minute or so, so a window past it (--warmup 90) shows the
// steady state under churn alone.
//
// KUBETIDE_BENCH_BACKEND_NODE_ARGS gives the backend's process Node or V8 flags (e.g. --trace-gc-nvp,
// read with gc-trace-summary.ts), KUBETIDE_BENCH_BACKEND_HEAP=FILE a heap profile of the window
// (ui-backend-child.ts), KUBETIDE_BENCH_SIM_NO_METRICS=1 a cluster without metrics.k8s.io.
//
// --backend-profile runs the backend under `node --cpu-prof` into DIR; the window is printed on the
// profile's clock (the monotonic clock, in us) for profile-summary.ts --window. --switches N then
// clicks Pods -> Deployments -> Pods N times under the same churn, as the ui bench's kind switch
// does, and prints each switch's time (NaN: not shown within the probe's 60 s). --relist first has
// the simulator drop every watch and compact its event window (as when it cut watchers that fell
// too far behind: every kind relists), so the switches are timed while the informers relist.
import { parseArgs } from 'node:util';
import type { BenchPage } from './bench-page';
import { median, round } from './harness';
import { nodeArgumentsFrom } from './ui-cluster';
import { switchKindsInRounds } from './ui-scenario';
import { parseDriver, UiBenchSession } from './ui-session';

const { values } = parseArgs({
  options: {
    // playwright (the default) or cdp (the bare DevTools driver: no devtools copy of each frame).
    driver: { type: 'string' },
    pods: { type: 'string', default: '50000' },
    churn: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '5' },
    'backend-profile': { type: 'string' },
    switches: { type: 'string', default: '0' },
    relist: { type: 'boolean', default: false },
  },
});
const pods = Number(values.pods);
const churn = Number(values.churn);
const warmupMs = Number(values.warmup) * 1000;
const started = performance.now();
const log = (message: string) =>
  console.log(`${((performance.now() - started) / 1000).toFixed(1)} s ${message}`);
const profileClock = () => Math.round(Number(process.hrtime.bigint() / 1000n));

// The backend's log (watch failures) and its event loop's delays over a second, on stderr.
process.env.KUBETIDE_BENCH_BACKEND_LOG = '1';
const session = await UiBenchSession.start(pods, log);
try {
  const backendProfile = values['backend-profile'];
  const backend = await session.startBackendProcess([
    ...nodeArgumentsFrom('KUBETIDE_BENCH_BACKEND_NODE_ARGS'),
    ...(backendProfile === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', backendProfile]),
  ]);
  const { page } = await session.openSyncedPage(backend, log, parseDriver(values.driver));
  await session.cluster.setChurn(churn);
  await page.waitForTimeout(warmupMs);
  const from = profileClock();
  const revisionBefore = await clusterRevision(session.cluster.url);
  await backend.startMeasuring();
  await page.waitForTimeout(Number(values.seconds) * 1000);
  const figures = await backend.stopMeasuring();
  const revisionAfter = await clusterRevision(session.cluster.url);
  const to = profileClock();
  const changes = (churn * figures.wallMs) / 1000;
  // What the cluster made (every kind), as the ui bench counts its changes: on a loaded machine the
  // cluster process falls short of the asked rate.
  const made =
    revisionBefore === undefined || revisionAfter === undefined
      ? undefined
      : Math.max(1, revisionAfter - revisionBefore);
  const mainUsPerChange =
    figures.mainThreadCpuMs === undefined ? undefined : round((figures.mainThreadCpuMs * 1000) / changes);
  log(`window on the profile clock: ${from} to ${to} us`);
  const span = figures.loopStallCpuSpan;
  if (span) log(`longest stall in CPU time on the profile clock: ${span.startUs} to ${span.endUs} us`);
  log(`collections: ${figures.collections ?? '?'}`);
  for (const stall of figures.wallStalls ?? []) log(`long wall stall: ${stall}`);
  log(`CPU by thread: ${figures.threads ?? '?'}`);
  console.log(
    JSON.stringify({
      pods,
      churn,
      wall_ms: round(figures.wallMs),
      process_cpu_pct: round((figures.processCpuMs / figures.wallMs) * 100),
      main_thread_cpu_pct:
        figures.mainThreadCpuMs === undefined
          ? undefined
          : round((figures.mainThreadCpuMs / figures.wallMs) * 100),
      main_thread_us_per_change: mainUsPerChange,
      changes_made_per_s: made === undefined ? undefined : round(made / (figures.wallMs / 1000)),
      process_cpu_us_per_change_made:
        made === undefined ? undefined : round((figures.processCpuMs * 1000) / made),
      main_thread_cpu_us_per_change_made:
        made === undefined || figures.mainThreadCpuMs === undefined
          ? undefined
          : round((figures.mainThreadCpuMs * 1000) / made),
      main_loop_stall_max_ms: round(figures.loopStallMs),
      main_loop_stall_max_cpu_ms:
        figures.loopStallCpuMs === undefined ? undefined : round(figures.loopStallCpuMs),
    }),
  );
  if (values.relist) {
    const response = await fetch(`${session.cluster.url}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'restartCompacted' }),
    });
    if (!response.ok) throw new Error(`POST /_sim/faults: HTTP ${response.status}`);
    log('watches dropped, event window compacted: every kind relists');
    await page.waitForTimeout(1_000);
  }
  const kindSwitches = await switchKindsInRounds(page, Number(values.switches), async ({ kind, ms }, parts) =>
    log(`switch to ${kind}: ${round(ms)} ms (${parts}); the page shows ${await shownTable(page)}`),
  );
  const switches = kindSwitches.map((kindSwitch) => kindSwitch.ms);
  if (switches.length > 0)
    console.log(
      JSON.stringify({
        kind_switch_ms: round(median(switches)),
        kind_switch_max_ms: round(Math.max(...switches)),
      }),
    );
} finally {
  await session.close();
}

/**
 * The cluster's resourceVersion (its /_sim/stats: no LIST for a loaded simulator to build): one counter
 * over every kind, so its growth counts the changes made. Undefined when the simulator does not answer
 * within 20 s (a saturated one may not, under churn): the figures per change made are then left out.
 */
async function clusterRevision(url: string): Promise<number | undefined> {
  try {
    const response = await fetch(`${url}/_sim/stats`, { signal: AbortSignal.timeout(20_000) });
    return Number(((await response.json()) as { resourceVersion: number | string }).resourceVersion);
  } catch (error) {
    log(`the cluster's revision unread: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/**
 * What the table shows now, for the log: its title, count, rows in the DOM, busy state and sync badge.
 * (Text, not a function: tsx would name a function's inner arrows with a helper the page lacks.)
 */
function shownTable(page: BenchPage): Promise<string> {
  return page.evaluate(`(() => {
    const text = (selector) => document.querySelector(selector)?.textContent ?? '-';
    const busy = document.querySelector('[data-filter]')?.getAttribute('aria-busy');
    const rows = document.querySelectorAll('[role="row"][data-key]').length;
    return '"' + text('[data-testid="kind-title"]') + '" ' + text('[data-testid="row-count"]') + ', ' + rows +
      ' rows in the DOM, busy ' + busy + ', sync "' + text('[data-testid="sync-state"]') + '", empty "' +
      text('.table-empty') + '"';
  })()`);
}
