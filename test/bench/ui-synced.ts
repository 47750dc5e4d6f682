// By hand (issue 15, session 15): the ui bench's startup with Kubetide's backend in a process of its own
// (ui-backend-child.ts, as `--only ui` runs it), so the backend's CPU to the page's "synced" is its
// own: ui-startup.ts runs the backend in this process, beside playwright, which receives every frame
// the page gets (through Chrome's devtools protocol) and parses it there, its CPU and garbage billed
// to the backend's main thread and GC helpers. Prints first rows and synced (from navigation), the
// backend's CPU from its start to the page's synced (its process, its main thread, each thread, its
// collections) and the page's main-thread CPU.
//
//   npx tsx test/bench/ui-synced.ts [--pods 50000] [--runs 1] [--backend-flag=--max-semi-space-size=64] [--driver playwright]
import { parseArgs } from 'node:util';
import { parseDriver, UiBenchSession } from './ui-session';
import { startupTimes } from './ui-scenario';

const { values } = parseArgs({
  options: {
    pods: { type: 'string', default: '50000' },
    runs: { type: 'string', default: '1' },
    // Node or V8 flags for the backend's process (e.g. --max-semi-space-size=64), repeatable.
    'backend-flag': { type: 'string', multiple: true, default: [] },
    // cdp (the bare DevTools driver) or playwright (the figures before session 16).
    driver: { type: 'string' },
  },
});
const pods = Number(values.pods);
const started = performance.now();
const log = (message: string) =>
  console.log(`${((performance.now() - started) / 1000).toFixed(1)} s ${message}`);
const seconds = (ms: number | undefined) => `${((ms ?? Number.NaN) / 1000).toFixed(2)} s`;

for (let run = 0; run < Number(values.runs); run++) {
  const session = await UiBenchSession.start(pods, log);
  try {
    const backend = await session.startBackendProcess(values['backend-flag']);
    await backend.startMeasuring();
    const browser = await session.openBrowser(parseDriver(values.driver));
    const page = await browser.newPage();
    const { cdp } = page;
    await cdp.send('Performance.enable');
    await page.goto(await backend.launchUrl());
    const startup = await startupTimes(page);
    const figures = await backend.stopMeasuring();
    const { metrics } = await cdp.send('Performance.getMetrics');
    const pageCpuMs = (metrics.find((entry) => entry.name === 'ThreadTime')?.value ?? 0) * 1000;
    const load = (await import('node:os')).loadavg().map((value) => value.toFixed(1));
    log(
      [
        `pods ${pods}: first rows ${Math.round(startup.firstRows)} ms, synced ${Math.round(startup.synced)} ms ` +
          `(from navigation), load ${load.join(' ')}`,
        `backend, its start to the page's synced (${seconds(figures.wallMs)}): CPU ${seconds(figures.processCpuMs)} ` +
          `in all, main ${seconds(figures.mainThreadCpuMs)}; ${figures.threads ?? ''}`,
        `backend collections: ${figures.collections ?? ''}`,
        `page main thread: CPU ${seconds(pageCpuMs)}`,
      ].join('\n'),
    );
  } finally {
    await session.close();
  }
}
