// Child process of the sync benchmark: syncs one contender against the parent's cluster and reports
// the heap it retains once synced, after full GCs, so no other contender's garbage is counted.
// Run with --expose-gc; argv: contender, server URL, kubeconfig YAML (base64).
import { collectGarbage, hasExposedGc } from './harness';
import type { SyncContender } from './sync-contenders';
import { runSyncContender } from './sync-contenders';

export interface HeapReport {
  contender: SyncContender;
  count: number;
  retainedBytes: number;
  bytesPerObject: number;
}

async function main(): Promise<void> {
  const [contender, server, kubeconfigBase64] = process.argv.slice(2) as [SyncContender, string, string];
  if (!hasExposedGc()) throw new Error('heap-child needs --expose-gc');
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const cache = await runSyncContender(
    contender,
    server,
    Buffer.from(kubeconfigBase64, 'base64').toString('utf8'),
  );
  // Let the last list chunks, promises and timers settle before measuring.
  await new Promise((resolve) => setTimeout(resolve, 200));
  collectGarbage();
  const retainedBytes = process.memoryUsage().heapUsed - before;
  const report: HeapReport = {
    contender,
    count: cache.count,
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
