// Summarises a V8 sampling heap profile (CDP HeapProfiler.getSamplingProfile, as `ui-churn.ts --heap`
// takes it) by the bytes each function allocated itself and with its callees, through the renderer
// build's source maps, so what feeds the page's collections under churn reads in a terminal:
//
//   npx tsx test/bench/heap-sample-summary.ts test-artifacts/ui-bench/churn-trace-150000.heapprofile
//
// The profile is taken with the collected objects kept in it (includeObjectsCollectedBy*GC), so it is
// what was allocated over the window, garbage included, not what was still alive at its end. Each
// sample stands for about one sampling interval of bytes (32 KiB by default): a function with a few
// samples is noise.
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { frameName, sourceMapsIn } from './profile-summary';
import type { CallFrame, SourceMaps } from './profile-summary';

interface HeapNode {
  readonly callFrame: CallFrame;
  /** Bytes of the samples taken in this function's own code (each sample weighted by the interval). */
  readonly selfSize: number;
  readonly id: number;
  readonly children: readonly HeapNode[];
}

export interface SamplingHeapProfile {
  readonly head: HeapNode;
  readonly samples?: readonly { readonly size: number; readonly nodeId: number }[];
}

interface Line {
  readonly name: string;
  selfBytes: number;
  totalBytes: number;
}

/** Per function: bytes allocated in its own code, and with its callees (counted once per stack). */
export function heapLines(profile: SamplingHeapProfile, sourceMaps: SourceMaps): Line[] {
  const lines = new Map<string, Line>();
  const line = (name: string): Line => {
    let found = lines.get(name);
    if (!found) lines.set(name, (found = { name, selfBytes: 0, totalBytes: 0 }));
    return found;
  };
  const visit = (node: HeapNode, stack: readonly string[]): void => {
    const name = frameName(node.callFrame, sourceMaps);
    line(name).selfBytes += node.selfSize;
    // The node's bytes count once for each distinct function on its stack (recursion counted once).
    for (const caller of new Set([...stack, name])) line(caller).totalBytes += node.selfSize;
    for (const child of node.children) visit(child, [...stack, name]);
  };
  visit(profile.head, []);
  return [...lines.values()];
}

/** The `top` functions by self bytes, then by total bytes, with their share of every sampled byte. */
export function printHeapTables(profile: SamplingHeapProfile, sourceMaps: SourceMaps, top: number): void {
  const lines = heapLines(profile, sourceMaps);
  const all = lines.find((entry) => entry.name === '(root)')?.totalBytes ?? 0;
  console.log(`sampled allocations: ${(all / 2 ** 20).toFixed(1)} MiB`);
  const table = (title: string, key: 'selfBytes' | 'totalBytes') => {
    console.log(`\n  by ${title}:`);
    const sorted = lines
      .filter((entry) => entry.name !== '(root)')
      .sort((left, right) => right[key] - left[key]);
    for (const entry of sorted.slice(0, top)) {
      const share = ((100 * entry[key]) / Math.max(1, all)).toFixed(1);
      console.log(
        `  ${(entry[key] / 2 ** 20).toFixed(1).padStart(7)} MiB ${share.padStart(5)}%  ${entry.name}`,
      );
    }
  };
  table('self bytes', 'selfBytes');
  table('total bytes', 'totalBytes');
  console.log('');
}

// Run as a script (not when ui-churn.ts imports its summary).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const sourceMaps = sourceMapsIn(fileURLToPath(new URL('../../out/renderer/assets', import.meta.url)));
  for (const file of process.argv.slice(2)) {
    console.log(file);
    printHeapTables(JSON.parse(readFileSync(file, 'utf8')) as SamplingHeapProfile, sourceMaps, 30);
  }
}
