// The page's script-running tasks of a trace, by what started them and which function of the page ran
// (issue 15, session 19). Chromium's long-task entries count only tasks that ran the page's script, and
// under load any of them can be stretched past 50 ms by waiting for a core: how many there are per
// WebSocket message and how much of the thread each holds is what the bench's count follows.
//
// What the trace holds for each (Chromium 14x): an animation frame's callbacks run in
// FireAnimationFrame, a timer's in TimerFire, an idle callback's in FireIdleCallback, a MessagePort's
// message (React's scheduler posts its renders and effects that way) under MessagePort::Accept, and
// the WebSocket's message event under a bare "Receive mojo message" with no EventDispatch. The function
// is the task's first FunctionCall, named through the build's source maps.
import { percentile, round } from './harness';
import { frameName } from './profile-summary';
import type { SourceMaps } from './profile-summary';
import type { TraceEvent } from './trace-events';

export interface TracedTask {
  readonly event: TraceEvent;
  readonly inside: readonly { readonly event: TraceEvent }[];
}

/** By the first of these inside a task: what started it. */
const starters: Readonly<Record<string, string>> = {
  FireAnimationFrame: 'animation frame',
  TimerFire: 'timer',
  FireIdleCallback: 'idle callback',
  'MessagePort::Accept': 'MessagePort message',
  'Receive mojo message': 'WebSocket message',
  EventDispatch: 'event',
};

/** What started `task` and the page's function it ran; undefined when it ran none of its script. */
export function scriptTaskOf(
  task: TracedTask,
  sourceMaps: SourceMaps,
): { readonly kind: string; readonly name: string } | undefined {
  const call = task.inside.find(({ event }) => event.name === 'FunctionCall')?.event;
  if (call === undefined) return undefined;
  let kind = 'other script';
  for (const { event } of task.inside) {
    const starter = starters[event.name];
    if (starter === undefined) continue;
    kind = event.name === 'EventDispatch' ? `${event.args?.data?.type ?? 'unknown'} event` : starter;
    break;
  }
  const data = call.args?.data ?? {};
  const name = frameName(
    {
      functionName: data.functionName ?? '',
      url: data.url ?? '',
      // The trace's lines are 1-based, a profile's (which frameName takes) 0-based.
      lineNumber: (data.lineNumber ?? 1) - 1,
      columnNumber: data.columnNumber ?? 0,
    },
    sourceMaps,
  );
  return { kind, name };
}

/**
 * Prints the page's script-running tasks over a window of `seconds` by what started them and the
 * function they ran: how many (a second, and per WebSocket message), their thread time (sum, p50, p95,
 * max) and how many took over 50 ms of wall time.
 */
export function printScriptTasks(
  tasks: readonly TracedTask[],
  seconds: number,
  sourceMaps: SourceMaps,
): void {
  const byKind = new Map<string, { thread: number[]; long: number }>();
  let all = 0;
  let allThread = 0;
  let messages = 0;
  for (const task of tasks) {
    const script = scriptTaskOf(task, sourceMaps);
    if (script === undefined) continue;
    const key = `${script.kind}: ${script.name}`;
    const entry = byKind.get(key) ?? { thread: [], long: 0 };
    const threadMs = (task.event.tdur ?? 0) / 1000;
    entry.thread.push(threadMs);
    if ((task.event.dur ?? 0) / 1000 > 50) entry.long++;
    byKind.set(key, entry);
    all++;
    allThread += threadMs;
    if (script.kind === 'WebSocket message') messages++;
  }
  const perMessage = (count: number) => (messages > 0 ? `, ${round(count / messages)} a message` : '');
  console.log(
    `script-running tasks: ${all} in ${round(seconds)} s (${round(all / seconds)} a second${perMessage(all)}), ${round(allThread)} ms of thread time (${round(allThread / seconds)} a second${messages > 0 ? `, ${round(allThread / messages)} a message` : ''}); ${messages} WebSocket messages ran script`,
  );
  const sorted = [...byKind].sort((left, right) => right[1].thread.length - left[1].thread.length);
  for (const [key, { thread, long }] of sorted) {
    const sum = thread.reduce((total, ms) => total + ms, 0);
    console.log(
      `  ${String(thread.length).padStart(5)}x ${round(thread.length / seconds)}/s${perMessage(thread.length)}; thread ${round(sum)} ms (p50 ${round(percentile(thread, 50))}, p95 ${round(percentile(thread, 95))}, max ${round(Math.max(...thread))}); ${long} over 50 ms wall: ${key}`,
    );
  }
}
