// Summarises a Chromium trace (ui-startup.ts --trace) for the page's main thread: the time of each
// kind of event by self time (its duration less its children's), so style, layout, paint, script and
// the tasks around them read apart; a V8 CPU profile shows all of Blink's own work as "(program)".
//
//   npx tsx test/bench/trace-summary.ts test-artifacts/ui-bench/startup-50000.trace.json [--top 30]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { rendererMain, selfTimes } from './trace-events';
import type { CompleteEvent, TraceEvent } from './trace-events';

const { values, positionals } = parseArgs({
  options: { top: { type: 'string', default: '30' } },
  allowPositionals: true,
});
const parsed = JSON.parse(readFileSync(positionals[0], 'utf8')) as
  TraceEvent[] | { traceEvents: TraceEvent[] };
const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;

const mainThread = rendererMain(events);
if (mainThread === undefined) throw new Error('no CrRendererMain thread in the trace');
const main = `${mainThread.pid}:${mainThread.tid}`;

// Complete events on that thread, nested by time: each one's self time is its duration less its
// direct children's. Begin/end pairs are turned into complete events first.
const complete: CompleteEvent[] = [];
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
// Wall time (which a loaded machine stretches) and the thread's CPU time (tdur, where given).
const { self, selfCpu, total, busy: topLevel, busyCpu: topLevelCpu } = selfTimes(complete);
const span =
  complete.length > 0
    ? Math.max(...complete.map((event) => event.end)) - Math.min(...complete.map((event) => event.start))
    : 0;
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
