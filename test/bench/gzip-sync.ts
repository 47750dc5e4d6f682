// By hand (session 40): what a gzipped LIST costs Kubetide's informer itself, with no API server
// working beside it. A real API server gzips replies over 128 KiB for a client that asks (ours does);
// the embedded cluster deflating on the same 2 cores as the client mixes its work into the figure.
// This captures the embedded cluster's 150,000-pod LIST once plain and once gzipped (level 1), closes
// the cluster, then serves each body from memory (a watch is held open and silent) and times the
// sync bench's Kubetide contender (sync-child.ts, a process of its own) against each, alternating:
//   npx tsx test/bench/gzip-sync.ts [--pods 150000] [--rounds 3]
import http from 'node:http';
import { parseArgs } from 'node:util';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import { runInChild } from './harness';
import type { SyncReport } from './sync-child';
import { startMemoryListServer } from './memory-list-server';

const { values } = parseArgs({
  options: { pods: { type: 'string', default: '150000' }, rounds: { type: 'string', default: '3' } },
});

/** The body as sent, gzipped or not (harness's getBody would inflate it). */
function read(url: string, headers: Record<string, string>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(Buffer.concat(chunks)));
      })
      .on('error', reject);
  });
}

const cluster = await startEmbeddedCluster({
  pods: Number(values.pods),
  seed: 7,
  simulate: false,
  compressResponses: true,
});
const plain = await read(`${cluster.url}/api/v1/pods`, {});
const gzipped = await read(`${cluster.url}/api/v1/pods`, { 'accept-encoding': 'gzip' });
const kubeconfig = cluster.kubeconfigYaml();
const clusterUrl = cluster.url;
await cluster.close();
console.log(
  `captured: plain ${(plain.length / 2 ** 20).toFixed(0)} MiB, gzipped ${(gzipped.length / 2 ** 20).toFixed(1)} MiB`,
);

let body: 'plain' | 'gzip' = 'plain';
const server = await startMemoryListServer((request) =>
  body === 'gzip' && /gzip/.test(request.headers['accept-encoding'] ?? '')
    ? { body: gzipped, encoding: 'gzip' }
    : { body: plain },
);
const config = Buffer.from(kubeconfig.replace(clusterUrl, server.url)).toString('base64');

for (let round = 0; round < Number(values.rounds); round++) {
  for (const mode of ['plain', 'gzip'] as const) {
    body = mode;
    const report = await runInChild<SyncReport>(new URL('./sync-child.ts', import.meta.url), [
      'kubetide',
      server.url,
      config,
    ]);
    server.dropWatches();
    console.log(
      `${mode.padEnd(5)} synced ${report.count} in ${report.syncMs.toFixed(0)} ms; CPU ${report.cpuMs.toFixed(0)} ms, main ${report.mainThreadCpuMs.toFixed(0)} ms; ${report.threads}`,
    );
  }
}
server.close();
