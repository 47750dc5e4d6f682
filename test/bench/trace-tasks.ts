// What the page's long tasks held, from a Chromium trace of its renderer (ui-churn.ts): the main
// thread's top-level tasks with the events nested in each (frames, script, style, layout, paint,
// collections: what a V8 profile shows only as "(program)"), summed by name, and, given the page's own
// long-task entries (PerformanceObserver, the ui bench's count) with the page clock's offset on the
// trace's, which traced task each entry was.
import { fileURLToPath } from 'node:url';
import { round } from './harness';
import { printTables, samplesBetween, sourceMapsIn, summarise } from './profile-summary';
import type { CpuProfile } from './profile-summary';
import { rendererMain } from './trace-events';
import type { TraceEvent } from './trace-events';
import { printScriptTasks } from './script-tasks';

const longTaskMs = 50;
/** A task this long in the thread's own time is work, whatever the machine's load did to its wall time. */
const busyTaskMs = 20;

interface Summary {
  wallMs: number;
  threadMs: number;
  count: number;
}

function add(into: Map<string, Summary>, event: TraceEvent): void {
  const summary = into.get(event.name) ?? { wallMs: 0, threadMs: 0, count: 0 };
  summary.wallMs += (event.dur ?? 0) / 1000;
  summary.threadMs += (event.tdur ?? 0) / 1000;
  summary.count++;
  into.set(event.name, summary);
}

function print(title: string, summaries: Map<string, Summary>, top: number): void {
  console.log(title);
  const sorted = [...summaries].sort((left, right) => right[1].wallMs - left[1].wallMs).slice(0, top);
  for (const [name, summary] of sorted)
    console.log(
      `  ${round(summary.wallMs).toString().padStart(8)} ms wall ${round(summary.threadMs).toString().padStart(8)} ms thread  ${summary.count}x ${name}`,
    );
}

/** Scheduler wrappers: a task's work is what runs inside them. */
const wrappers = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);

interface Task {
  readonly event: TraceEvent;
  /** Events inside the task, wrappers left out, each with its depth below the task (1: directly). */
  readonly inside: { readonly event: TraceEvent; readonly depth: number }[];
}

/** The thread's top-level tasks, each with the events nested in it (nesting by time). */
function tasksOf(complete: readonly TraceEvent[]): Task[] {
  const tasks: Task[] = [];
  const stack: { event: TraceEvent; depth: number }[] = [];
  for (const event of complete) {
    while (stack.length > 0 && event.ts >= stack.at(-1)!.event.ts + (stack.at(-1)!.event.dur ?? 0))
      stack.pop();
    const parentDepth = stack.at(-1)?.depth ?? -1;
    const depth = wrappers.has(event.name) && stack.length > 0 ? parentDepth : parentDepth + 1;
    if (stack.length === 0) tasks.push({ event, inside: [] });
    else if (!wrappers.has(event.name)) tasks.at(-1)!.inside.push({ event, depth });
    stack.push({ event, depth });
  }
  return tasks;
}

/**
 * Each long task with the events inside it summed by name (to `depth` levels), then every frame's
 * (BeginMainFrame) contents summed the same way, and the thread's time by top-level task.
 */
export function summarize(events: readonly TraceEvent[], depth: number, profile?: CpuProfile): void {
  const sourceMaps = sourceMapsIn(fileURLToPath(new URL('../../out/renderer/assets', import.meta.url)));
  /** The profile's samples inside `event` (the profile and the trace share Chromium's clock, us). */
  const functionsIn = (event: TraceEvent, top: number): void => {
    if (!profile) return;
    const range = samplesBetween(profile, event.ts, event.ts + (event.dur ?? 0));
    const { lines } = summarise(profile, sourceMaps, range);
    const sampled = lines.find((entry) => entry.name === '(root)')?.totalMs ?? 0;
    console.log(`  profile: ${range.end - range.first} samples, ${round(sampled)} ms`);
    printTables(lines, sampled, top);
  };
  const tasks = rendererTasks(events);
  const long = tasks.filter(
    (task) => (task.event.dur ?? 0) / 1000 > longTaskMs || (task.event.tdur ?? 0) / 1000 > busyTaskMs,
  );
  const busy = tasks.filter((task) => (task.event.tdur ?? 0) / 1000 > busyTaskMs).length;
  console.log(
    `${long.length} top-level tasks over ${longTaskMs} ms of wall time or ${busyTaskMs} ms of thread time on the renderer main thread (${busy} over ${busyTaskMs} ms of thread time)`,
  );
  for (const task of long) {
    const inside = new Map<string, Summary>();
    for (const child of task.inside) if (child.depth <= depth) add(inside, child.event);
    print(
      `task at ${round(task.event.ts / 1000)} ms: ${round((task.event.dur ?? 0) / 1000)} ms wall, ${round((task.event.tdur ?? 0) / 1000)} ms thread`,
      inside,
      14,
    );
    functionsIn(task.event, 12);
  }
  const frames = new Map<string, Summary>();
  const threadTimes: number[] = [];
  for (const task of tasks) {
    threadTimes.push((task.event.tdur ?? 0) / 1000);
    for (const child of task.inside) if (child.depth <= depth) add(frames, child.event);
  }
  threadTimes.sort((left, right) => right - left);
  console.log(
    `${tasks.length} tasks; thread ms of the 20 costliest: ${threadTimes
      .slice(0, 20)
      .map((ms) => round(ms))
      .join(', ')}`,
  );
  print(`whole window, events to depth ${depth} inside tasks:`, frames, 40);
  const seconds =
    tasks.length > 0
      ? (tasks.at(-1)!.event.ts + (tasks.at(-1)!.event.dur ?? 0) - tasks[0]!.event.ts) / 1e6
      : 0;
  printScriptTasks(tasks, seconds, sourceMaps);
  printOilpanSweeps(tasks);
  if (profile) {
    const { lines } = summarise(profile, sourceMaps);
    const idle = lines.find((entry) => entry.name === '(idle)')?.selfMs ?? 0;
    const wallMs = (profile.endTime - profile.startTime) / 1000;
    console.log(`whole profile: ${round(wallMs)} ms, ${round(wallMs - idle)} ms busy`);
    printTables(lines, wallMs - idle, 40);
  }
}

/**
 * Blink's collector (Oilpan) sweeping its heap: the tasks holding a CppGC sweep event, with their thread
 * time. Not in the page's long-task entries (they run none of its script) but they hold the thread.
 */
function printOilpanSweeps(tasks: readonly Task[]): void {
  const sweeps = tasks.filter((task) =>
    task.inside.some(({ event }) => event.name.startsWith('CppGC.Sweep')),
  );
  const threadMs = sweeps.map((task) => (task.event.tdur ?? 0) / 1000);
  console.log(
    `Oilpan sweep tasks: ${sweeps.length}, ${round(threadMs.reduce((sum, ms) => sum + ms, 0))} ms of thread time, the longest ${round(Math.max(0, ...threadMs))} ms (${round(Math.max(0, ...sweeps.map((task) => (task.event.dur ?? 0) / 1000)))} ms wall)`,
  );
}

/** A long-task entry of the page's PerformanceObserver, on the page's clock (ms). */
export interface LongTaskEntry {
  readonly start: number;
  readonly duration: number;
}

/**
 * Each long-task entry beside the traced top-level tasks it spans (the page clock put on the trace's
 * by `clockOffsetMs`, trace ms less page ms), with their wall and thread time and the events inside
 * to `depth` levels: what the bench's count is made of. An entry no traced task overlaps is said so.
 */
export function printLongTaskCulprits(
  events: readonly TraceEvent[],
  entries: readonly LongTaskEntry[],
  clockOffsetMs: number,
  depth: number,
): void {
  const tasks = rendererTasks(events);
  console.log(`the page's ${entries.length} long-task entries, each with the traced tasks it spans:`);
  const reported = new Set<Task>();
  for (const entry of entries) {
    const from = (entry.start + clockOffsetMs) * 1000;
    const to = from + entry.duration * 1000;
    const spanned = tasks.filter(
      (task) => task.event.ts < to && task.event.ts + (task.event.dur ?? 0) > from,
    );
    const threadMs = spanned.reduce((sum, task) => sum + (task.event.tdur ?? 0) / 1000, 0);
    const inside = new Map<string, Summary>();
    for (const task of spanned) {
      add(inside, task.event);
      for (const child of task.inside) if (child.depth <= depth) add(inside, child.event);
    }
    for (const task of spanned) reported.add(task);
    print(
      `entry at ${round(entry.start)} ms (page clock): ${round(entry.duration)} ms; ${spanned.length} traced task(s), ${round(threadMs)} ms of thread time${spanned.length === 0 ? ' (none traced)' : ''}`,
      inside,
      10,
    );
  }
  // Between the first and the last entry's time, the traced tasks over 50 ms of wall time no entry
  // spans: what the bench's count leaves out.
  const first = entries.length > 0 ? (entries[0]!.start + clockOffsetMs) * 1000 : Number.POSITIVE_INFINITY;
  const unreported = tasks.filter(
    (task) => !reported.has(task) && (task.event.dur ?? 0) / 1000 > longTaskMs && task.event.ts >= first,
  );
  console.log(
    `${unreported.length} traced tasks over ${longTaskMs} ms of wall time after the first entry with no entry:`,
  );
  for (const task of unreported) {
    const top = task.inside.filter((child) => child.depth <= 1).map((child) => child.event.name);
    console.log(
      `  at ${round(task.event.ts / 1000 - clockOffsetMs)} ms (page clock): ${round((task.event.dur ?? 0) / 1000)} ms wall, ${round((task.event.tdur ?? 0) / 1000)} ms thread: ${[...new Set(top)].slice(0, 4).join(', ') || task.event.name}`,
    );
  }
}

/** The page's main-thread tasks of a trace, in order (a task's events are nested inside it). */
function rendererTasks(events: readonly TraceEvent[]) {
  const thread = rendererMain(events);
  if (thread === undefined) throw new Error('no CrRendererMain thread in the trace');
  const complete = events
    .filter((event) => event.pid === thread.pid && event.tid === thread.tid && event.ph === 'X')
    .sort((left, right) => left.ts - right.ts || (right.dur ?? 0) - (left.dur ?? 0));
  return tasksOf(complete);
}
