// Benchmark 1 (issue 7): start-to-synced for N pods and the heap retained once synced, Kubetide vs
// client-node vs the floor, against one embedded cluster this process serves. Each contender runs in
// a fresh child process, one after the other (sync-child.ts): like an app reading a remote API
// server, none shares a heap, or a garbage collector, with the cluster or with another contender.
import type { BenchOptions, BenchResult } from './harness';
import { atLeast, atMost, round, runInChild } from './harness';
import type { SyncReport } from './sync-child';
import type { SyncContender } from './sync-contenders';
import { syncFloor } from './sync-contenders';

export interface SyncTarget {
  url: string;
  kubeconfigYaml: string;
}

/** Syncs `contender` in a child process (node --expose-gc): its time to synced and retained heap. */
export async function syncInChild(
  contender: SyncContender,
  target: SyncTarget,
  expected: number,
): Promise<SyncReport> {
  const report = await runInChild<SyncReport>(new URL('./sync-child.ts', import.meta.url), [
    contender,
    target.url,
    Buffer.from(target.kubeconfigYaml).toString('base64'),
  ]);
  if (report.count !== expected)
    throw new Error(`${contender} synced ${report.count} pods, expected ${expected}`);
  return report;
}

export async function runSync(options: BenchOptions, target: SyncTarget): Promise<BenchResult> {
  // The first read makes the server serialize every pod once; later reads copy cached strings.
  const expected = (await syncFloor(target.url, target.kubeconfigYaml)).count;
  const floor = await syncInChild('floor', target, expected);
  const kubetide = await syncInChild('kubetide', target, expected);
  const clientNode = await syncInChild('client_node', target, expected);

  const overFloor = kubetide.syncMs / floor.syncMs;
  const clientNodeOverKubetide = clientNode.syncMs / kubetide.syncMs;
  const heapShare = kubetide.bytesPerObject / clientNode.bytesPerObject;
  return {
    bench: 'sync',
    fields: {
      pods: expected,
      kubetide_ms: round(kubetide.syncMs),
      client_node_ms: round(clientNode.syncMs),
      floor_ms: round(floor.syncMs),
      // CPU time to synced, the whole child's and its main thread's: steadier than wall time on a
      // loaded machine, and what the ui bench's backend is compared with (ui-startup.ts).
      kubetide_cpu_ms: round(kubetide.cpuMs),
      kubetide_main_thread_cpu_ms: round(kubetide.mainThreadCpuMs),
      kubetide_heap_bytes_per_obj: Math.round(kubetide.bytesPerObject),
      client_node_heap_bytes_per_obj: Math.round(clientNode.bytesPerObject),
      floor_heap_bytes_per_obj: Math.round(floor.bytesPerObject),
    },
    goals: [
      atMost('sync: Kubetide within 1.5x of the floor', overFloor, 1.5, 'x floor'),
      atLeast('sync: at least 2x faster than client-node', clientNodeOverKubetide, 2, 'x'),
      atMost('sync: retained heap at most 40% of client-node', heapShare * 100, 40, '%'),
    ],
    notes: options.pods < 150_000 ? [`goals are set at 150,000 pods; this run has ${expected}`] : undefined,
  };
}
