// This process's CPU time per thread, from Linux's per-thread schedstat: what to compare on a shared
// machine, where wall times move with the load. A thread's name (its comm: "node" for the main thread,
// "V8 DefaultWorke" for V8's helpers, "libuv-worker", a worker thread's own) tells whose time it is.
import { readdirSync, readFileSync } from 'node:fs';

export interface ThreadCpu {
  id: number;
  name: string;
  /** CPU time in ms since the thread started. */
  ms: number;
}

/**
 * Each live thread of process `pid` (this one by default) and its CPU time so far; empty where /proc
 * is not Linux's, or the process is gone.
 */
export function threadCpu(pid: number | 'self' = 'self'): ThreadCpu[] {
  let ids: string[];
  try {
    ids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const threads: ThreadCpu[] = [];
  for (const id of ids) {
    try {
      const text = readFileSync(`/proc/${pid}/task/${id}/schedstat`, 'latin1');
      const name = readFileSync(`/proc/${pid}/task/${id}/comm`, 'latin1').trim();
      threads.push({ id: Number(id), name, ms: Number(text.slice(0, text.indexOf(' '))) / 1e6 });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return threads;
}

/** The CPU each thread spent between two readings (threads started in between count from zero). */
export function threadCpuSpent(before: readonly ThreadCpu[], after: readonly ThreadCpu[]): ThreadCpu[] {
  const earlier = new Map(before.map((thread) => [thread.id, thread.ms]));
  return after
    .map((thread) => ({ ...thread, ms: thread.ms - (earlier.get(thread.id) ?? 0) }))
    .sort((a, b) => b.ms - a.ms);
}

/** "main 2.41 s; V8 DefaultWorke 0.52, 0.49 s; libuv-worker 0.02 s": time per thread name. */
export function describeThreadCpu(spent: readonly ThreadCpu[]): string {
  const mainId = process.pid;
  const main = spent.find((thread) => thread.id === mainId);
  const byName = new Map<string, number[]>();
  for (const thread of spent) {
    if (thread.id === mainId || thread.ms < 5) continue;
    byName.set(thread.name, [...(byName.get(thread.name) ?? []), thread.ms]);
  }
  const seconds = (ms: number) => (ms / 1000).toFixed(2);
  const others = [...byName].map(([name, times]) => `${name} ${times.map(seconds).join(', ')} s`);
  return [`main ${seconds(main?.ms ?? 0)} s`, ...others].join('; ');
}

/**
 * Another process's CPU time so far (user + system, all its threads), in ms, from /proc/PID/stat;
 * NaN where it cannot be read.
 */
export function processCpuMs(pid: number): number {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond;
  } catch {
    return Number.NaN;
  }
}

/** Linux's USER_HZ (sysconf(_SC_CLK_TCK)): 100 on every architecture it runs node on. */
const clockTicksPerSecond = 100;

/** The time this process's main thread spent runnable but waiting for a core, in ms (schedstat). */
export function mainThreadWaitMs(): number {
  try {
    const text = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'latin1');
    return Number(text.split(' ')[1]) / 1e6;
  } catch {
    return Number.NaN;
  }
}
