// By hand: the LIST decode and compaction a pods feed does to sync, alone and in one thread, on a
// reply captured from the simulator, so a change to either is compared in this thread's CPU time
// rather than in the sync bench's wall time (which a shared machine moves by 2x).
//
//   npx tsx test/bench/sync-decode.ts [--pods 50000] [--rounds 5] [--compact on|off]
//
// The reply is read once from an embedded cluster (no churn), kept as the chunks the socket gave,
// then pushed through ListReplyDecoder with the feed's compactor (compactAhead, as
// compacting-lister-watcher.ts has it) --rounds times; each round's thread CPU and the medians.
import { parseArgs } from 'node:util';
import { request } from 'node:http';
import { ListReplyDecoder } from '../../main/kube/list-reply-decoder';
import { createObjectCompactor } from '../../main/bridge/object-compactor';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import { threadCpuMs } from '../../main/history/thread-cpu-time';

const { values } = parseArgs({
  options: {
    pods: { type: 'string', default: '50000' },
    rounds: { type: 'string', default: '5' },
    compact: { type: 'string', default: 'on' },
  },
});

function readChunks(url: string): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    request(`${url}/api/v1/pods`, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(chunks));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

const cluster = await startEmbeddedCluster({ pods: Number(values.pods), simulate: false, metrics: false });
await readChunks(cluster.url);
const chunks = await readChunks(cluster.url);
await cluster.close();
const bytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
console.log(`${chunks.length} chunks, ${(bytes / 2 ** 20).toFixed(1)} MiB`);

const times: number[] = [];
for (let round = 0; round < Number(values.rounds); round++) {
  const compactor = createObjectCompactor();
  const before = threadCpuMs() ?? 0;
  const decoder = new ListReplyDecoder(values.compact === 'on' ? compactor.compactAhead : undefined);
  for (const chunk of chunks) decoder.push(chunk);
  const items = (decoder.finish().items as unknown[]).length;
  const spent = (threadCpuMs() ?? 0) - before;
  times.push(spent);
  console.log(`round ${round + 1}: ${items} items, ${spent.toFixed(0)} ms of thread CPU`);
}
times.sort((a, b) => a - b);
console.log(`median ${times[Math.floor(times.length / 2)].toFixed(0)} ms, min ${times[0].toFixed(0)} ms`);
