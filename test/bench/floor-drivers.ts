// The ui bench's floor page (ui-floor.html: pod rows in a plain table, no engine) under each driver in
// turn, on the same rows and the same load: what tells a driver's own cost on the page (frame pacing,
// key latency) from Kubetide's. `npx tsx test/bench/floor-drivers.ts [--pods 150000] [--pairs 3]
// [--busy 2] [--busy-apart 2] [--drivers cdp,playwright] [--brief]`: --busy starts that many busy
// loops in this bench's session, --busy-apart in a session of their own (stopped at the end), so a
// pair runs under load made on purpose, not only the machine's.
// Each run prints the floor's keystroke and scroll figures, the load average, and the nice value of
// the browser's processes.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { BenchBrowser, BenchDriver, PageSetup } from './bench-page';
import { CdpBrowser } from './cdp-browser';
import { PlaywrightBrowser } from './playwright-page';
import { percentile, round } from './harness';
import { podRows } from './pod-rows';
import { parseDriver } from './ui-session';
import { scrollTable, startupTimes, typeFilters, wheelNotches } from './ui-scenario';

const argument = (name: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index < 0 ? undefined : process.argv[index + 1];
};
const pods = Number(argument('pods') ?? 150_000);
const pairs = Number(argument('pairs') ?? 3);
const busy = Number(argument('busy') ?? 0);
const busyApart = Number(argument('busy-apart') ?? 0);
const brief = process.argv.includes('--brief');
const drivers = (argument('drivers') ?? 'cdp,playwright').split(',').map(parseDriver);
const setup: PageSetup = {
  width: 1440,
  height: 900,
  colorScheme: 'dark',
  initScriptPath: fileURLToPath(new URL('./ui-page-probe.js', import.meta.url)),
};

/** The floor's rows (name, namespace, then kubectl's cells), as ui-floor.ts serves a cluster's. */
function floorBody(): Buffer {
  const rows = podRows(pods).map((row) => ({
    key: row.key,
    labels: Object.entries(row.labels)
      .map(([key, value]) => `${key}=${value}`)
      .join(','),
    cells: [row.name, row.namespace, ...row.cells.map((cell) => String(cell ?? ''))],
  }));
  return Buffer.from(JSON.stringify(rows));
}

async function serve(): Promise<{ url: string; close(): void }> {
  const html = readFileSync(new URL('./ui-floor.html', import.meta.url));
  const body = floorBody();
  const server = createServer((request, response) => {
    if (request.url === '/rows.json')
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    else if (request.url === '/')
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => server.close(),
  };
}

/** The nice values of every chromium process now running (both drivers start the same binary). */
function chromiumNice(): string {
  try {
    const lines = execFileSync('ps', ['-C', 'chromium', '-o', 'ni='], { encoding: 'utf8' }).split('\n');
    const counts = new Map<string, number>();
    for (const line of lines.map((text) => text.trim()).filter(Boolean))
      counts.set(line, (counts.get(line) ?? 0) + 1);
    return [...counts].map(([nice, count]) => `ni ${nice} x${count}`).join(', ');
  } catch {
    return 'ps failed';
  }
}

async function measure(driver: BenchDriver, url: string): Promise<void> {
  const loadBefore = loadavg()[0]!;
  const browser: BenchBrowser =
    driver === 'cdp' ? await CdpBrowser.launch(setup) : await PlaywrightBrowser.launch(setup);
  try {
    const page = await browser.newPage();
    await page.goto(url);
    const startup = await startupTimes(page, false);
    const nice = chromiumNice();
    const texts = brief
      ? ['app=api-1', 'api-12']
      : ['app=api-1', 'app in (api-1)', '!canary', 'api-12', 'team-3'];
    const typing = await typeFilters(page, texts);
    const frames = await scrollTable(page, '#table', brief ? 15 : wheelNotches);
    await page.close();
    const line = [
      `${driver.padEnd(10)}`,
      `first rows ${round(startup.firstRows)} ms`,
      `keystroke p50/p95 ${round(percentile(typing.latencies, 50))}/${round(percentile(typing.latencies, 95))} ms`,
      `scroll p50/p95/max ${round(percentile(frames, 50))}/${round(percentile(frames, 95))}/${round(Math.max(...frames))} ms`,
      `${frames.length} frames in ${round(frames.reduce((sum, frame) => sum + frame, 0))} ms`,
      `load ${loadBefore.toFixed(1)}-${loadavg()[0]!.toFixed(1)}`,
      nice,
    ];
    console.log(line.join(', '));
  } finally {
    await browser.close();
  }
}

// Busy loops in this process's session, as the ui bench's cluster and backend are (its children), or
// in a session of their own (one process group), as another user's work. With autogroup scheduling a
// session is one CPU group: which group the loops share decides whom they slow.
const loops: ChildProcess[] = [];
for (let index = 0; index < busy; index++)
  loops.push(spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
if (busyApart > 0)
  loops.push(
    spawn('sh', ['-c', `for i in $(seq ${busyApart}); do ${process.execPath} -e 'for(;;){}' & done; wait`], {
      stdio: 'ignore',
      detached: true,
    }),
  );
const stopLoops = () =>
  loops.forEach((loop) => {
    try {
      process.kill(loop.spawnargs[0] === 'sh' ? -loop.pid! : loop.pid!, 'SIGKILL');
    } catch {
      // Gone already.
    }
  });
process.once('exit', stopLoops);
const server = await serve();
try {
  for (let pair = 0; pair < pairs; pair++) for (const driver of drivers) await measure(driver, server.url);
} finally {
  server.close();
  stopLoops();
}
