// Summarises a Chromium trace (ui-startup.ts --trace) for the page's main thread: the time of each
// kind of event by self time (its duration less its children's), so style, layout, paint, script and
// the tasks around them read apart; a V8 CPU profile shows all of Blink's own work as "(program)".
//
//   npx tsx test/bench/trace-summary.ts test-artifacts/ui-bench/startup-50000.trace.json [--top 30]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

const { values, positionals } = parseArgs({
  options: { top: { type: 'string', default: '30' } },
  allowPositionals: true,
});
const parsed = JSON.parse(readFileSync(positionals[0], 'utf8')) as
  TraceEvent[] | { traceEvents: TraceEvent[] };
const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;

// The renderer's main thread: the thread named CrRendererMain with the most complete events.
const mainThreads = new Set(
  events
    .filter(
      (event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain',
    )
    .map((event) => `${event.pid}:${event.tid}`),
);
const counts = new Map<string, number>();
for (const event of events) {
  const thread = `${event.pid}:${event.tid}`;
  if (event.ph === 'X' && mainThreads.has(thread)) counts.set(thread, (counts.get(thread) ?? 0) + 1);
}
const main = [...counts].sort((left, right) => right[1] - left[1])[0]?.[0];
if (main === undefined) throw new Error('no CrRendererMain thread in the trace');

// Complete events on that thread, nested by time: each one's self time is its duration less its
// direct children's. Begin/end pairs are turned into complete events first.
const complete: { name: string; start: number; end: number; cpu: number }[] = [];
const open = new Map<string, TraceEvent[]>();
for (const event of events) {
  if (`${event.pid}:${event.tid}` !== main) continue;
  if (event.ph === 'X' && event.dur !== undefined) {
    complete.push({
      name: event.name,
      start: event.ts,
      end: event.ts + event.dur,
      cpu: event.tdur ?? event.dur,
    });
  } else if (event.ph === 'B') {
    const stack = open.get(event.name) ?? [];
    stack.push(event);
    open.set(event.name, stack);
  } else if (event.ph === 'E') {
    const begin = open.get(event.name)?.pop();
    if (begin) complete.push({ name: event.name, start: begin.ts, end: event.ts, cpu: event.ts - begin.ts });
  }
}
complete.sort((left, right) => left.start - right.start || right.end - left.end);
// Wall time (which a loaded machine stretches) and the thread's CPU time (tdur, where given).
const self = new Map<string, number>();
const selfCpu = new Map<string, number>();
const total = new Map<string, number>();
const stack: {
  name: string;
  end: number;
  children: number;
  duration: number;
  cpu: number;
  childCpu: number;
}[] = [];
const close = (until: number) => {
  while (stack.length > 0 && stack.at(-1)!.end <= until) {
    const done = stack.pop()!;
    self.set(done.name, (self.get(done.name) ?? 0) + done.duration - done.children);
    selfCpu.set(done.name, (selfCpu.get(done.name) ?? 0) + done.cpu - done.childCpu);
  }
};
let topLevel = 0;
let topLevelCpu = 0;
for (const event of complete) {
  close(event.start);
  const duration = event.end - event.start;
  total.set(event.name, (total.get(event.name) ?? 0) + duration);
  if (stack.length > 0) {
    stack.at(-1)!.children += duration;
    stack.at(-1)!.childCpu += event.cpu;
  } else {
    topLevel += duration;
    topLevelCpu += event.cpu;
  }
  stack.push({ name: event.name, end: event.end, children: 0, duration, cpu: event.cpu, childCpu: 0 });
}
close(Number.POSITIVE_INFINITY);
const span = complete.length > 0 ? Math.max(...complete.map((event) => event.end)) - complete[0].start : 0;
const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(8)} ms`;
console.log(
  `main thread ${main}: ${ms(span)} traced, ${ms(topLevel)} in top-level events (${ms(topLevelCpu)} of CPU)`,
);
const top = Number(values.top);
console.log('\n  by self time (wall, CPU):');
for (const [name, us] of [...self].sort((left, right) => right[1] - left[1]).slice(0, top))
  console.log(`  ${ms(us)} ${ms(selfCpu.get(name) ?? 0)}  ${name}`);
console.log('\n  by total time:');
for (const [name, us] of [...total].sort((left, right) => right[1] - left[1]).slice(0, top))
  console.log(`  ${ms(us)}  ${name}`);
