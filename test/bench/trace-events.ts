// What the benches read from a Chromium trace of the page: its events, the renderer's main thread,
// and each event's self time (its duration less its direct children's), so style, layout, paint,
// script and the tasks around them read apart. Shared by trace-summary.ts, travel-breakdown.ts,
// ui-churn.ts and ui-table.ts.

export interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly tid: number;
  readonly ts: number;
  readonly dur?: number;
  readonly tdur?: number;
  readonly args?: {
    readonly name?: string;
    /**
     * type: a message's; nodeName and reason: an invalidation's (ui-table.ts --invalidations);
     * message: a TimeStamp's (console.timeStamp), ui-churn.ts's clock mark.
     */
    readonly data?: {
      readonly type?: string;
      readonly nodeName?: string;
      readonly reason?: string;
      readonly message?: string;
      /** A FunctionCall's: the page's function a task ran (script-tasks.ts). */
      readonly functionName?: string;
      readonly url?: string;
      readonly lineNumber?: number;
      readonly columnNumber?: number;
    };
  };
}

/** An event with a start and an end on one thread (us); `cpu` its thread time where the trace gives it. */
export interface CompleteEvent {
  readonly name: string;
  readonly start: number;
  readonly end: number;
  readonly cpu: number;
}

/**
 * The renderer's main thread: the thread named CrRendererMain with the most complete events; undefined
 * when no such thread has any.
 */
export function rendererMain(events: readonly TraceEvent[]): { pid: number; tid: number } | undefined {
  const counts = new Map<string, number>();
  for (const event of events) {
    if (event.ph !== 'M' || event.name !== 'thread_name' || event.args?.name !== 'CrRendererMain') continue;
    counts.set(`${event.pid}:${event.tid}`, 0);
  }
  for (const event of events) {
    const thread = `${event.pid}:${event.tid}`;
    const count = counts.get(thread);
    if (event.ph === 'X' && count !== undefined) counts.set(thread, count + 1);
  }
  const main = [...counts].filter(([, count]) => count > 0).sort((left, right) => right[1] - left[1])[0]?.[0];
  if (main === undefined) return undefined;
  const [pid, tid] = main.split(':').map(Number);
  return { pid, tid };
}

export interface SelfTimes {
  /** Self time by event name (wall, us): the event's duration less its direct children's. */
  readonly self: Map<string, number>;
  /** The same in the thread's CPU time. */
  readonly selfCpu: Map<string, number>;
  /** Duration by event name, children included. */
  readonly total: Map<string, number>;
  /** Time in top-level events (wall, and CPU). */
  readonly busy: number;
  readonly busyCpu: number;
}

/** Self times of `complete`, one thread's events, nested by time. */
export function selfTimes(complete: readonly CompleteEvent[]): SelfTimes {
  const sorted = [...complete].sort((left, right) => left.start - right.start || right.end - left.end);
  const self = new Map<string, number>();
  const selfCpu = new Map<string, number>();
  const total = new Map<string, number>();
  const stack: {
    name: string;
    end: number;
    duration: number;
    cpu: number;
    children: number;
    childCpu: number;
  }[] = [];
  let busy = 0;
  let busyCpu = 0;
  const close = (until: number) => {
    while (stack.length > 0 && stack.at(-1)!.end <= until) {
      const done = stack.pop()!;
      self.set(done.name, (self.get(done.name) ?? 0) + done.duration - done.children);
      selfCpu.set(done.name, (selfCpu.get(done.name) ?? 0) + done.cpu - done.childCpu);
    }
  };
  for (const event of sorted) {
    close(event.start);
    const duration = event.end - event.start;
    total.set(event.name, (total.get(event.name) ?? 0) + duration);
    const parent = stack.at(-1);
    if (parent) {
      parent.children += duration;
      parent.childCpu += event.cpu;
    } else {
      busy += duration;
      busyCpu += event.cpu;
    }
    stack.push({ name: event.name, end: event.end, duration, cpu: event.cpu, children: 0, childCpu: 0 });
  }
  close(Number.POSITIVE_INFINITY);
  return { self, selfCpu, total, busy, busyCpu };
}
