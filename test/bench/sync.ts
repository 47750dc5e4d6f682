// Benchmark 1 (issue 7): start-to-synced for N pods, Kubetide vs client-node vs the floor, timed side
// by side in this process against one embedded cluster; retained heap per pod measured for each
// informer in a fresh child process so that heaps are not mixed.
import type { HeapReport } from './heap-child';
import type { BenchOptions, BenchResult } from './harness';
import { atLeast, atMost, collectGarbage, elapsedSince, round, runInChild } from './harness';
import type { SyncContender } from './sync-contenders';
import { runSyncContender, syncFloor } from './sync-contenders';

export interface SyncTarget {
  url: string;
  kubeconfigYaml: string;
}

/** Time to synced of one contender, with the process's garbage collected before and after. */
async function timeContender(
  contender: SyncContender,
  target: SyncTarget,
  expected: number,
): Promise<number> {
  collectGarbage();
  const start = performance.now();
  const cache = await runSyncContender(contender, target.url, target.kubeconfigYaml);
  const elapsed = elapsedSince(start);
  if (cache.count !== expected)
    throw new Error(`${contender} synced ${cache.count} pods, expected ${expected}`);
  await cache.stop();
  collectGarbage();
  return elapsed;
}

/** Syncs `contender` in a child process (node --expose-gc) and returns the heap it retains. */
export function measureRetainedHeap(contender: SyncContender, target: SyncTarget): Promise<HeapReport> {
  return runInChild<HeapReport>(new URL('./heap-child.ts', import.meta.url), [
    contender,
    target.url,
    Buffer.from(target.kubeconfigYaml).toString('base64'),
  ]);
}

export async function runSync(options: BenchOptions, target: SyncTarget): Promise<BenchResult> {
  // The first read makes the server serialize every pod once; later reads copy cached strings.
  const warm = await syncFloor(target.url);
  const expected = warm.count;
  const floorMs = await timeContender('floor', target, expected);
  const kubetideMs = await timeContender('kubetide', target, expected);
  const clientNodeMs = await timeContender('client_node', target, expected);
  const kubetideHeap = await measureRetainedHeap('kubetide', target);
  const clientNodeHeap = await measureRetainedHeap('client_node', target);
  const floorHeap = await measureRetainedHeap('floor', target);

  const overFloor = kubetideMs / floorMs;
  const clientNodeOverKubetide = clientNodeMs / kubetideMs;
  const heapShare = kubetideHeap.bytesPerObject / clientNodeHeap.bytesPerObject;
  return {
    bench: 'sync',
    fields: {
      pods: expected,
      kubetide_ms: round(kubetideMs),
      client_node_ms: round(clientNodeMs),
      floor_ms: round(floorMs),
      kubetide_heap_bytes_per_obj: Math.round(kubetideHeap.bytesPerObject),
      client_node_heap_bytes_per_obj: Math.round(clientNodeHeap.bytesPerObject),
      floor_heap_bytes_per_obj: Math.round(floorHeap.bytesPerObject),
    },
    goals: [
      atMost('sync: Kubetide within 1.5x of the floor', overFloor, 1.5, 'x floor'),
      atLeast('sync: at least 2x faster than client-node', clientNodeOverKubetide, 2, 'x'),
      atMost('sync: retained heap at most 40% of client-node', heapShare * 100, 40, '%'),
    ],
    notes: options.pods < 150_000 ? [`goals are set at 150,000 pods; this run has ${expected}`] : undefined,
  };
}
