// Kubetide's start against a cluster at the end of a lagging link, as a cluster in another region is:
// the embedded cluster over TLS behind a TCP relay that holds every chunk, each way, for half the
// round trip; browser mode on it; Chromium timing the page from navigation to its first pod rows and
// to "synced". Each request that waits for another's answer costs a round trip, so the figures say
// how many round trips stand between a user and their pods.
//
//   npx tsx test/bench/lagging-link.ts [--pods 2000] [--rtt 0,100,300] [--record] [--legacy-discovery]
//
// --legacy-discovery has the cluster answer discovery as a server before 1.26 (a request per group
// version after /apis) instead of aggregated.
// Also prints the relay's connections and the requests each start made, by path, in the order they
// were sent, so a chain of requests that could go at once shows as a staircase of timestamps.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse, stringify } from 'yaml';
import { startBrowserMode } from '../../main/app/serve';
import { defaultRetention } from '../../main/app/serve-options';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import { launchChromium } from '../e2e/chromium';

const { values } = parseArgs({
  options: {
    pods: { type: 'string', default: '2000' },
    rtt: { type: 'string', default: '0,100,300' },
    record: { type: 'boolean', default: false },
    'legacy-discovery': { type: 'boolean', default: false },
  },
});
const pods = Number(values.pods);
const rtts = values.rtt!.split(',').map(Number);

/** A TCP relay to `port` that delays every chunk by `delayMs` each way (order kept). */
async function laggingRelay(port: number, delayMs: number) {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const forward = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk) => {
      if (delayMs === 0) to.write(chunk);
      else setTimeout(() => to.destroyed || to.write(chunk), delayMs);
    });
    from.on('end', () => setTimeout(() => to.end(), delayMs));
    from.on('error', () => to.destroy());
  };
  const server = net.createServer((client) => {
    connections++;
    const upstream = net.connect({ host: '127.0.0.1', port });
    sockets.add(client).add(upstream);
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function main(): Promise<void> {
  const cluster = await startEmbeddedCluster({
    tls: true,
    pods,
    seed: 5,
    legacyDiscoveryOnly: values['legacy-discovery']!,
  });
  const browser = await launchChromium();
  const directory = mkdtempSync(join(tmpdir(), 'kubetide-lagging-'));
  try {
    for (const rtt of rtts) {
      const relay = await laggingRelay(cluster.port, rtt / 2);
      const config = parse(cluster.kubeconfigYaml()) as { clusters: { cluster: { server: string } }[] };
      config.clusters[0]!.cluster.server = `https://127.0.0.1:${relay.port}`;
      const kubeconfig = join(directory, `kubeconfig-${rtt}`);
      writeFileSync(kubeconfig, stringify(config));
      const launched = Date.now();
      const mode = await startBrowserMode({
        port: 0,
        kubeconfig,
        embedded: false,
        pods: 0,
        record: values.record!,
        dataDirectory: join(directory, `data-${rtt}`),
        retention: defaultRetention,
        log: () => undefined,
      });
      const page = await browser.newPage();
      const started = Date.now();
      await page.goto(mode.launchUrl());
      await page.waitForSelector('[role="row"][data-key]', { timeout: 600_000 });
      const firstRows = Date.now() - started;
      await page.waitForFunction(
        () => document.querySelector('[data-testid="sync-state"]')?.textContent === 'synced',
        undefined,
        { timeout: 600_000, polling: 20 },
      );
      const synced = Date.now() - started;
      const fromLaunch = Date.now() - launched;
      const inRtts = (ms: number) => (rtt > 0 ? ` (${(ms / rtt).toFixed(1)} rtt)` : '');
      console.log(
        `rtt ${rtt} ms: from navigation, first rows ${firstRows} ms${inRtts(firstRows)}, synced ${synced} ms` +
          `${inRtts(synced)}; from the backend's start, synced ${fromLaunch} ms${inRtts(fromLaunch)}; ` +
          `relay connections ${relay.connections()}`,
      );
      await page.close();
      await mode.close();
      await relay.close();
    }
  } finally {
    await browser.close();
    await cluster.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

await main();
