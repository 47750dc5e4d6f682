// Summarises a V8 CPU profile (.cpuprofile, as `npm run bench -- --only ui --profile` writes) by self
// time per function, and by total time (self plus callees) for the functions that matter most, so a
// profile can be read in a terminal instead of DevTools:
//
//   npx tsx test/bench/profile-summary.ts test-artifacts/ui-bench/typing-50000.cpuprofile [--top 30]
//
// --stalls N summarises instead each of the N longest busy spans (samples back to back with no
// "(idle)" between them: one stall of the thread's event loop, whatever tasks it held), so what one
// long stall is made of can be read beside what the whole run spent. --window START_US END_US
// summarises the samples between two times of the profile's monotonic clock, as CpuStallMonitor's
// longestSpan() gives them: the one iteration of the loop that stalled longest, whatever else ran.
//
// Frames of the minified renderer bundle are named through its source map (out/renderer/assets, as
// the bench's build leaves it; --maps DIR for another), so they read `queryRows row-query.ts:31`.
// Self time is what a function spent in its own code; total time counts each function once per sample
// even when it recurses, so a recursive render is not counted twice.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';

export interface CallFrame {
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

export interface CpuProfile {
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
export type SourceMaps = (file: string) => TraceMap | null;

export function sourceMapsIn(folder: string): SourceMaps {
  const maps = new Map<string, TraceMap | null>();
  return (file) => {
    if (!maps.has(file)) {
      const path = join(folder, `${file}.map`);
      maps.set(file, existsSync(path) ? new TraceMap(readFileSync(path, 'utf8')) : null);
    }
    return maps.get(file)!;
  };
}

export function frameName(frame: CallFrame, sourceMaps: SourceMaps): string {
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

/** The samples from `first` up to (not including) `end`: the whole profile by default. */
interface SampleRange {
  first: number;
  end: number;
}

export function summarise(
  profile: CpuProfile,
  sourceMaps: SourceMaps = () => null,
  range: SampleRange = { first: 0, end: profile.samples.length },
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
  for (let index = range.first; index < range.end; index++) {
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

/** The samples taken between `startUs` and `endUs` (the profile's monotonic clock). */
export function samplesBetween(profile: CpuProfile, startUs: number, endUs: number): SampleRange {
  let time = profile.startTime;
  let first = profile.samples.length;
  let end = profile.samples.length;
  for (let index = 0; index < profile.samples.length; index++) {
    time += profile.timeDeltas[index] ?? 0;
    if (time >= startUs && first === profile.samples.length) first = index;
    if (time > endUs) {
      end = index;
      break;
    }
  }
  return { first: Math.min(first, end), end };
}

/** The `count` longest runs of samples with no idle one between them, longest first, with their times. */
export function longestBusySpans(
  profile: CpuProfile,
  count: number,
): { range: SampleRange; startMs: number; ms: number }[] {
  const idle = new Set(
    profile.nodes.filter((node) => node.callFrame.functionName === '(idle)').map((node) => node.id),
  );
  const spans: { range: SampleRange; startMs: number; ms: number }[] = [];
  let elapsed = 0;
  let open: { first: number; startMs: number; ms: number } | undefined;
  for (let index = 0; index < profile.samples.length; index++) {
    elapsed += profile.timeDeltas[index] ?? 0;
    const ms = (profile.timeDeltas[index + 1] ?? 0) / 1000;
    if (idle.has(profile.samples[index]!)) {
      if (open) spans.push({ range: { first: open.first, end: index }, startMs: open.startMs, ms: open.ms });
      open = undefined;
    } else if (open) open.ms += ms;
    else open = { first: index, startMs: elapsed / 1000, ms };
  }
  if (open) spans.push({ range: { first: open.first, end: profile.samples.length }, ...open });
  return spans.sort((left, right) => right.ms - left.ms).slice(0, count);
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
  const stallsIndex = args.indexOf('--stalls');
  const stalls = stallsIndex >= 0 ? Number(args.splice(stallsIndex, 2)[1]) : 0;
  const windowIndex = args.indexOf('--window');
  const window = windowIndex >= 0 ? args.splice(windowIndex, 3).slice(1).map(Number) : undefined;
  const sourceMaps = sourceMapsIn(mapsFolder);
  for (const file of args) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
    if (window) {
      const range = samplesBetween(profile, window[0]!, window[1]!);
      const ms = (window[1]! - window[0]!) / 1000;
      const { lines } = summarise(profile, sourceMaps, range);
      const sampled = lines.find((entry) => entry.name === '(root)')?.totalMs ?? 0;
      console.log(
        `${file}: ${ms.toFixed(1)} ms window, ${range.end - range.first} samples (${sampled.toFixed(1)} ms)`,
      );
      printTables(lines, sampled, top);
      continue;
    }
    if (stalls > 0) {
      for (const span of longestBusySpans(profile, stalls)) {
        const { lines } = summarise(profile, sourceMaps, span.range);
        console.log(`${file}: a busy span of ${span.ms.toFixed(1)} ms at ${span.startMs.toFixed(0)} ms`);
        printTables(lines, span.ms, top);
      }
      continue;
    }
    const { lines, wallMs } = summarise(profile, sourceMaps);
    const idle = lines.find((entry) => entry.name === '(idle)')?.selfMs ?? 0;
    console.log(`${file}: ${wallMs.toFixed(0)} ms, ${(wallMs - idle).toFixed(0)} ms busy`);
    printTables(lines, wallMs - idle, top);
  }
}

/** The lines by self time, then by total time, `top` of each, with their share of `busyMs`. */
export function printTables(lines: Line[], busyMs: number, top: number): void {
  const table = (title: string, key: 'selfMs' | 'totalMs') => {
    console.log(`\n  by ${title}:`);
    const sorted = lines
      .filter((entry) => entry.name !== '(idle)' && entry.name !== '(root)')
      .sort((left, right) => right[key] - left[key]);
    for (const entry of sorted.slice(0, top)) {
      const share = ((100 * entry[key]) / Math.max(1, busyMs)).toFixed(1);
      console.log(`  ${entry[key].toFixed(0).padStart(7)} ms ${share.padStart(5)}%  ${entry.name}`);
    }
  };
  table('self time', 'selfMs');
  table('total time', 'totalMs');
  console.log('');
}

// Run as a script (not when ui-churn.ts imports its summaries).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
