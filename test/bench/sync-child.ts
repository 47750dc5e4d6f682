// Child process of the sync benchmark: syncs one contender against the parent's cluster and reports
// how long it took to be synced and the heap it retains then, after full GCs. A fresh process per
// contender, as an app talking to a remote API server is: no other contender's garbage is counted,
// and no contender's collector traces the embedded cluster's own heap.
// Run with --expose-gc; argv: contender, server URL, kubeconfig YAML (base64).
import { collectGarbage, hasExposedGc } from './harness';
import type { SyncContender } from './sync-contenders';
import { runSyncContender } from './sync-contenders';
import { describeThreadCpu, threadCpu, threadCpuSpent } from './thread-cpu';

export interface SyncReport {
  contender: SyncContender;
  count: number;
  /** From the start of the contender's first request to synced. */
  syncMs: number;
  /** CPU time of the whole process, and of its main thread alone, from the start to synced. */
  cpuMs: number;
  mainThreadCpuMs: number;
  /** The same CPU time per thread, as describeThreadCpu writes it. */
  threads: string;
  retainedBytes: number;
  bytesPerObject: number;
}

async function main(): Promise<void> {
  const [contender, server, kubeconfigBase64] = process.argv.slice(2) as [SyncContender, string, string];
  if (!hasExposedGc()) throw new Error('sync-child needs --expose-gc');
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const threadsBefore = threadCpu();
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const cache = await runSyncContender(
    contender,
    server,
    Buffer.from(kubeconfigBase64, 'base64').toString('utf8'),
  );
  const syncMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  const threads = threadCpuSpent(threadsBefore, threadCpu());
  // Let the last list chunks, promises and timers settle before measuring.
  await new Promise((resolve) => setTimeout(resolve, 200));
  collectGarbage();
  const retainedBytes = process.memoryUsage().heapUsed - before;
  const report: SyncReport = {
    contender,
    count: cache.count,
    syncMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    mainThreadCpuMs: threads.find((thread) => thread.id === process.pid)?.ms ?? Number.NaN,
    threads: describeThreadCpu(threads),
    retainedBytes,
    bytesPerObject: cache.count > 0 ? retainedBytes / cache.count : Number.NaN,
  };
  process.send?.(report, () => {
    void cache.stop().finally(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
