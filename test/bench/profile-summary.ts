// Summarises a V8 CPU profile (.cpuprofile, as `npm run bench -- --only ui --profile` writes) by self
// time per function, and by total time (self plus callees) for the functions that matter most, so a
// profile can be read in a terminal instead of DevTools:
//
//   npx tsx test/bench/profile-summary.ts test-artifacts/ui-bench/typing-50000.cpuprofile [--top 30]
//
// Frames of the minified renderer bundle are named through its source map (out/renderer/assets, as
// the bench's build leaves it; --maps DIR for another), so they read `queryRows row-query.ts:31`.
// Self time is what a function spent in its own code; total time counts each function once per sample
// even when it recurses, so a recursive render is not counted twice.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

interface Line {
  name: string;
  selfMs: number;
  totalMs: number;
}

/** Source maps by script file name, read once; null when the script has none. */
type SourceMaps = (file: string) => TraceMap | null;

function sourceMapsIn(folder: string): SourceMaps {
  const maps = new Map<string, TraceMap | null>();
  return (file) => {
    if (!maps.has(file)) {
      const path = join(folder, `${file}.map`);
      maps.set(file, existsSync(path) ? new TraceMap(readFileSync(path, 'utf8')) : null);
    }
    return maps.get(file)!;
  };
}

function frameName(frame: CallFrame, sourceMaps: SourceMaps): string {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return name;
  const file = basename(frame.url.split('?')[0]!);
  const map = sourceMaps(file);
  if (map) {
    // The profile's line and column are 0-based; trace-mapping takes 1-based lines.
    const original = originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber });
    if (original.source) {
      return `${original.name ?? name} ${original.source.replace(/^(\.\.\/)+/, '')}:${original.line}`;
    }
  }
  return `${name} ${file}:${frame.lineNumber + 1}`;
}

export function summarise(
  profile: CpuProfile,
  sourceMaps: SourceMaps = () => null,
): { lines: Line[]; wallMs: number } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const lines = new Map<string, Line>();
  const line = (name: string): Line => {
    let found = lines.get(name);
    if (!found) lines.set(name, (found = { name, selfMs: 0, totalMs: 0 }));
    return found;
  };
  // timeDeltas[i] is the gap before sample i: the time sample i stands for is the gap after it.
  for (let index = 0; index < profile.samples.length; index++) {
    const ms = (profile.timeDeltas[index + 1] ?? 0) / 1000;
    let id: number | undefined = profile.samples[index]!;
    line(frameName(byId.get(id)!.callFrame, sourceMaps)).selfMs += ms;
    const seen = new Set<string>();
    for (; id !== undefined; id = parent.get(id)) {
      const name = frameName(byId.get(id)!.callFrame, sourceMaps);
      if (seen.has(name)) continue;
      seen.add(name);
      line(name).totalMs += ms;
    }
  }
  return { lines: [...lines.values()], wallMs: (profile.endTime - profile.startTime) / 1000 };
}

function main(): void {
  const args = process.argv.slice(2);
  const topIndex = args.indexOf('--top');
  const top = topIndex >= 0 ? Number(args.splice(topIndex, 2)[1]) : 30;
  const mapsIndex = args.indexOf('--maps');
  const mapsFolder =
    mapsIndex >= 0
      ? args.splice(mapsIndex, 2)[1]!
      : fileURLToPath(new URL('../../out/renderer/assets', import.meta.url));
  const sourceMaps = sourceMapsIn(mapsFolder);
  for (const file of args) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
    const { lines, wallMs } = summarise(profile, sourceMaps);
    const idle = lines.find((entry) => entry.name === '(idle)')?.selfMs ?? 0;
    console.log(`${file}: ${wallMs.toFixed(0)} ms, ${(wallMs - idle).toFixed(0)} ms busy`);
    const table = (title: string, key: 'selfMs' | 'totalMs') => {
      console.log(`\n  by ${title}:`);
      const sorted = lines
        .filter((entry) => entry.name !== '(idle)' && entry.name !== '(root)')
        .sort((left, right) => right[key] - left[key]);
      for (const entry of sorted.slice(0, top)) {
        const share = ((100 * entry[key]) / Math.max(1, wallMs - idle)).toFixed(1);
        console.log(`  ${entry[key].toFixed(0).padStart(7)} ms ${share.padStart(5)}%  ${entry.name}`);
      }
    };
    table('self time', 'selfMs');
    table('total time', 'totalMs');
    console.log('');
  }
}

main();
