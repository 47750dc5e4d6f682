// By hand (issue 15, session 15): what taking in the page's row batches costs Chromium's main thread
// with and without a devtools client's Network domain, which playwright always enables and which the
// ui benches therefore always run under. A page receives --batches JSON batches of 2,000 pod rows
// (BatchStream's, as page-ingest.ts makes them; ~0.97 MB each) and parses each, over a WebSocket
// (permessage-deflate level 1 over 64 KiB, as main's bridge server sends) or by fetch; the page
// thread's CPU time (CDP Performance ThreadTime) from the first request to the last parse.
//
//   npx tsx test/bench/ws-frame-cost.ts [--via playwright|bare|driver] [--transport ws|fetch] [--batches 25]
//     [--rows objects|tuples]
//
// `--rows tuples` sends the batches as main's bridge writes them (batch-bytes.ts: rows as tuples,
// shared/protocol/row-tuples.ts) and `objects` as before; either way the page takes each through the
// renderer's own decoder (websocket-link.ts's serverMessageOf, bundled into the page), which parses,
// and for tuples builds and validates the rows.
//
// `playwright` opens the page as the ui benches do (playwright-core's chromium.launch); `bare` starts
// the same Chromium headless with a debugging port and asks only Performance and Runtime of it, as a
// user's browser or Electron window runs with no devtools open. `driver` opens the page with the ui
// benches' own DevTools driver (cdp-browser.ts, their default since session 16): its figure should be
// bare's, since it enables no Network domain either. With the Network domain enabled,
// Chromium's inspector copies every WebSocket message's payload into a protocol event on the page's
// main thread (and the browser process and playwright then pass it on and parse it: this process's
// CPU, printed too, holds playwright's share beside the server's).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildSync } from 'esbuild';
import { chromium } from 'playwright-core';
import { WebSocket, WebSocketServer } from 'ws';
import { chromiumExecutable } from '../e2e/chromium';
import { batchBytes } from '../../main/bridge/batch-bytes';
import type { DeltaBatch } from '../../shared/protocol/server-messages';
import { CdpBrowser } from './cdp-browser';
import { podRows } from './pod-rows';

const { values } = parseArgs({
  options: {
    via: { type: 'string', default: 'playwright' },
    transport: { type: 'string', default: 'ws' },
    batches: { type: 'string', default: '25' },
    rows: { type: 'string', default: 'tuples' },
  },
});
const batches = Number(values.batches);
const rows = podRows(batches * 2_000);
const texts: string[] = [];
for (let index = 0; index < batches; index++) {
  const batch: DeltaBatch = {
    type: 'batch',
    subscriptionId: 's',
    seq: index + 1,
    upserts: rows.slice(index * 2_000, (index + 1) * 2_000),
    deletes: [],
  };
  texts.push(values.rows === 'tuples' ? batchBytes(batch).toString('utf8') : JSON.stringify(batch));
}
// The renderer's decoder, as the page's bundle holds it.
const decoder = buildSync({
  entryPoints: [fileURLToPath(new URL('../../renderer/transport/websocket-link.ts', import.meta.url))],
  bundle: true,
  format: 'iife',
  globalName: 'link',
  write: false,
}).outputFiles[0].text;

const page = `<!doctype html><script>${decoder}</script><script>
window.done = false;
let taken = 0;
function take(text) {
  if (link.serverMessageOf(text)?.upserts.length !== 2000) throw new Error('not a batch');
  if (++taken === ${batches}) window.done = true;
}
window.go = async (transport) => {
  if (transport === 'ws') new WebSocket('ws://' + location.host + '/ws').onmessage = (event) => take(event.data);
  else for (let index = 0; index < ${batches}; index++) take(await (await fetch('/batch/' + index)).text());
};
</script>`;
const server = createServer((request, response) => {
  if (request.url === '/') {
    response.setHeader('content-type', 'text/html');
    response.end(page);
    return;
  }
  const batch = /^\/batch\/(\d+)$/.exec(request.url ?? '');
  response.setHeader('content-type', 'application/json');
  if (batch) response.end(texts[Number(batch[1])]);
  else response.writeHead(404).end();
});
const sockets = new WebSocketServer({
  server,
  path: '/ws',
  perMessageDeflate: { threshold: 64 * 1024, zlibDeflateOptions: { level: 1 } },
});
sockets.on('connection', (socket) => texts.forEach((text) => socket.send(text)));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
const go = `window.go(${JSON.stringify(values.transport)})`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The page thread's CPU ms to take every batch, opened through playwright. */
async function viaPlaywright(): Promise<number> {
  const browser = await chromium.launch({
    executablePath: chromiumExecutable(),
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const tab = await browser.newPage();
    await tab.goto(url);
    const cdp = await tab.context().newCDPSession(tab);
    await cdp.send('Performance.enable');
    const cpuMs = async () =>
      (await cdp.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'ThreadTime')!
        .value * 1000;
    const before = await cpuMs();
    await tab.evaluate(go);
    await tab.waitForFunction('window.done', undefined, { timeout: 300_000, polling: 200 });
    return (await cpuMs()) - before;
  } finally {
    await browser.close();
  }
}

/** The same with no devtools client but a bare CDP socket asking Performance and Runtime only. */
async function viaBareCdp(): Promise<number> {
  const profile = mkdtempSync(join(tmpdir(), 'ws-frame-cost-'));
  const child = spawn(
    chromiumExecutable(),
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      url,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  try {
    const browserUrl = await new Promise<string>((resolve) => {
      let text = '';
      child.stderr.on('data', (data: Buffer) => {
        text += data.toString();
        const found = /DevTools listening on (ws:\S+)/.exec(text);
        if (found) resolve(found[1]);
      });
    });
    const port = new URL(browserUrl).port;
    let target: { webSocketDebuggerUrl: string } | undefined;
    while (!target) {
      const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
        type: string;
        url: string;
        webSocketDebuggerUrl: string;
      }[];
      target = targets.find((entry) => entry.type === 'page' && entry.url === url);
      if (!target) await sleep(200);
    }
    const socket = new WebSocket(target.webSocketDebuggerUrl, { perMessageDeflate: false });
    await new Promise((resolve) => socket.once('open', resolve));
    let id = 0;
    const pending = new Map<number, (result: unknown) => void>();
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
      if (message.id !== undefined) pending.get(message.id)?.(message.result);
    });
    const send = <T>(method: string, params: object = {}) =>
      new Promise<T>((resolve) => {
        pending.set(++id, resolve as (result: unknown) => void);
        socket.send(JSON.stringify({ id, method, params }));
      });
    await send('Performance.enable');
    const cpuMs = async () =>
      (await send<{ metrics: { name: string; value: number }[] }>('Performance.getMetrics')).metrics.find(
        (metric) => metric.name === 'ThreadTime',
      )!.value * 1000;
    await sleep(500);
    const before = await cpuMs();
    await send('Runtime.evaluate', { expression: go });
    for (;;) {
      const done = await send<{ result: { value: boolean } }>('Runtime.evaluate', {
        expression: 'window.done',
        returnByValue: true,
      });
      if (done.result.value) break;
      await sleep(200);
    }
    const spent = (await cpuMs()) - before;
    socket.close();
    return spent;
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill();
    await exited;
    rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
  }
}

/** The same through the ui benches' driver, as `npm run bench -- --only ui` opens its pages. */
async function viaDriver(): Promise<number> {
  const browser = await CdpBrowser.launch({ width: 1440, height: 900, colorScheme: 'dark' });
  try {
    const tab = await browser.newPage();
    await tab.goto(url);
    await tab.cdp.send('Performance.enable');
    const cpuMs = async () =>
      (await tab.cdp.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'ThreadTime')!
        .value * 1000;
    const before = await cpuMs();
    await tab.evaluate(go);
    await tab.waitForFunction(() => (window as unknown as { done: boolean }).done, undefined, {
      timeout: 300_000,
      polling: 200,
    });
    return (await cpuMs()) - before;
  } finally {
    await browser.close();
  }
}

const processBefore = process.cpuUsage();
const spentMs =
  values.via === 'bare'
    ? await viaBareCdp()
    : values.via === 'driver'
      ? await viaDriver()
      : await viaPlaywright();
const processUsage = process.cpuUsage(processBefore);
const megabytes = texts.reduce((total, text) => total + text.length, 0) / 1e6;
console.log(
  `${values.via}, ${values.transport}, ${values.rows}: ${batches} batches of 2,000 rows (${megabytes.toFixed(1)} MB): ` +
    `page main thread CPU ${spentMs.toFixed(0)} ms (${((spentMs * 1000) / (batches * 2_000)).toFixed(1)} us a row); ` +
    `this process (the server, and playwright when it drives) ${((processUsage.user + processUsage.system) / 1000).toFixed(0)} ms`,
);
await sockets.close();
server.close();
process.exit(0);
