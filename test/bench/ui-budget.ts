// By hand (issue 15, session 18): the CPU budget of the ui bench's synced. Starts what `--only ui`
// starts (the cluster and Kubetide's backend each in a process of their own, Chromium driven from this
// process), opens the page and waits for its "synced", and prints the CPU time of every process and
// thread (process-budget.ts) over two windows: the backend's start to the page's navigation (the LIST
// had begun: the backend lists pods from its start), and navigation to the page's synced; beside it,
// twice a second, where the pods' rows were (the backend's feed, the page's stream: batches sent and
// acknowledged, rows waiting). `--sync` first runs the sync bench's Kubetide contender (sync-child.ts,
// the informer alone) against the same cluster process and prints its budget the same way: what the
// goal (synced <= 1.2x the sync bench's time) compares the page's path with. The sum over 2 cores is
// the least wall time the work can take, whatever the scheduling.
//
//   npx tsx test/bench/ui-budget.ts [--pods 150000] [--sync] [--driver playwright|cdp]
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { runInChild } from './harness';
import type { SyncReport } from './sync-child';
import { budgetSpent, describeBudget, readBudget } from './process-budget';
import type { BudgetProcesses } from './process-budget';
import type { PodsProgress } from './ui-backend-process';
import { parseDriver, UiBenchSession } from './ui-session';
import { startupTimes } from './ui-scenario';

const { values } = parseArgs({
  options: {
    pods: { type: 'string', default: '150000' },
    sync: { type: 'boolean', default: false },
    driver: { type: 'string' },
  },
});
const pods = Number(values.pods);
const cores = availableParallelism();
const started = performance.now();
const log = (message: string) =>
  console.log(`${((performance.now() - started) / 1000).toFixed(1)} s ${message}`);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

const session = await UiBenchSession.start(pods, log);
try {
  const { cluster } = session;
  if (values.sync) {
    const processes: BudgetProcesses = { named: new Map([[cluster.pid, 'simulator']]) };
    const before = readBudget(processes);
    const kubeconfig = Buffer.from(readFileSync(cluster.kubeconfigPath)).toString('base64');
    const report = await runInChild<SyncReport>(new URL('./sync-child.ts', import.meta.url), [
      'kubetide',
      cluster.url,
      kubeconfig,
    ]);
    const simulator = budgetSpent(before, readBudget(processes));
    const simulatorMs = [...simulator.values()].reduce((sum, ms) => sum + ms, 0);
    log(
      `sync bench's Kubetide alone: ${report.count} pods synced in ${Math.round(report.syncMs)} ms, load ${load()}\n` +
        `  informer process      ${(report.cpuMs / 1000).toFixed(2)} s  (${report.threads})\n` +
        describeBudget(new Map([...simulator, ['informer process: all', report.cpuMs]]), cores) +
        `\n  (simulator ${(simulatorMs / 1000).toFixed(2)} s)`,
    );
  }

  const backend = await session.startBackendProcess();
  const processes: BudgetProcesses = {
    named: new Map([
      [cluster.pid, 'simulator'],
      [backend.pid, 'backend'],
      [process.pid, 'driver (bench)'],
    ]),
  };
  const atBackendStart = readBudget(processes);
  const backendStart = performance.now();
  const browser = await session.openBrowser(parseDriver(values.driver));
  const page = await browser.newPage();
  await page.cdp.send('Performance.enable');
  const timeline: string[] = [];
  let navigation = Number.NaN;
  let feedSynced: ReturnType<typeof readBudget> | undefined;
  let feedSyncedAt = Number.NaN;
  const sample = async () => {
    const progress: PodsProgress = await backend.progress();
    const at = performance.now() - (Number.isNaN(navigation) ? backendStart : navigation);
    if (feedSynced === undefined && progress.phase === 'synced') {
      feedSynced = readBudget(processes);
      feedSyncedAt = performance.now() - navigation;
    }
    timeline.push(
      `${(at / 1000).toFixed(1).padStart(6)} ${progress.phase.padEnd(8)} ${String(progress.listed).padStart(7)} | ` +
        `${progress.sentSeq}/${progress.acknowledgedSeq}, ${progress.pending}`,
    );
  };
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      await sample();
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  })();
  const atNavigation = readBudget(processes);
  navigation = performance.now();
  timeline.push(
    `-- navigation (${((navigation - backendStart) / 1000).toFixed(1)} s after the backend's start)`,
  );
  await page.goto(await backend.launchUrl());
  const startup = await startupTimes(page);
  const atSynced = readBudget(processes);
  sampling = false;
  await sampler;
  const { metrics } = await page.cdp.send<{ metrics: { name: string; value: number }[] }>(
    'Performance.getMetrics',
  );
  const pageThreadMs = (metrics.find((entry) => entry.name === 'ThreadTime')?.value ?? 0) * 1000;
  log(
    [
      `pods ${pods} (${browser.driver} driver): first rows ${Math.round(startup.firstRows)} ms, synced ` +
        `${Math.round(startup.synced)} ms from navigation; the backend's pods feed synced ` +
        // Sampled twice a second: a feed that synced within a sample of the page is not seen.
        (Number.isNaN(feedSyncedAt) ? 'within a sample of it' : `at ${Math.round(feedSyncedAt)} ms`) +
        `; load ${load()}`,
      `CPU, the backend's start to navigation (${((navigation - backendStart) / 1000).toFixed(1)} s):`,
      describeBudget(budgetSpent(atBackendStart, atNavigation), cores),
      `CPU, navigation to the page's synced (page ThreadTime ${(pageThreadMs / 1000).toFixed(2)} s):`,
      describeBudget(budgetSpent(atNavigation, atSynced), cores),
      ...(feedSynced === undefined
        ? []
        : [
            `of which after the backend's pods feed synced:`,
            describeBudget(budgetSpent(feedSynced, atSynced), cores),
          ]),
      `CPU, the backend's start to the page's synced:`,
      describeBudget(budgetSpent(atBackendStart, atSynced), cores),
      `timeline (s from the backend's start, then from navigation): phase listed | pods batches sent/acked, rows waiting`,
      ...timeline,
    ].join('\n'),
  );
} finally {
  await session.close();
}
