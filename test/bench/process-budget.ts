// CPU time by process and thread over a window, for processes this bench did not start itself in-line:
// the cluster, Kubetide's backend, Chromium's browser, GPU, utility and renderer processes, and this
// process (the driver). Read from Linux's per-thread schedstat (ns of CPU, what a loaded machine does
// not inflate), each thread grouped by its name (comm) within its process, a process by its role.
// Chromium's processes are told apart by their --type switch; a renderer's main thread is the one whose
// id is the process's (the page's main thread, CDP's ThreadTime).
import { readdirSync, readFileSync } from 'node:fs';
import { threadCpu } from './thread-cpu';

/** One process's threads' CPU so far, in ms, by thread id. */
interface ProcessReading {
  role: string;
  threads: Map<number, { name: string; ms: number }>;
}

export type BudgetReading = Map<number, ProcessReading>;

/** The budget's named processes (role by pid); Chromium's are found as this process's descendants. */
export interface BudgetProcesses {
  named: ReadonlyMap<number, string>;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return undefined;
  }
}

/** Every process's parent, from /proc/PID/stat (field 4, after the command's closing parenthesis). */
function parents(): Map<number, number> {
  const result = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readText(`/proc/${entry}/stat`);
    if (stat === undefined) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    result.set(Number(entry), Number(fields[1]));
  }
  return result;
}

/** Chromium's role for a process from its command line: browser, renderer, gpu, network, utility. */
export function chromiumRole(pid: number): string | undefined {
  // Chromium rewrites its children's titles: their arguments are then separated by spaces, not NULs.
  const command = readText(`/proc/${pid}/cmdline`)?.split(/[\0 ]/) ?? [];
  if (!/chrom/i.test(command[0] ?? '')) return undefined;
  const type = command.find((argument) => argument.startsWith('--type='))?.slice('--type='.length);
  if (type === undefined) return 'chromium browser';
  if (type === 'gpu-process') return 'chromium gpu';
  if (type === 'utility') {
    const sub = command.find((argument) => argument.startsWith('--utility-sub-type='));
    return sub?.includes('network') ? 'chromium network' : 'chromium utility';
  }
  return `chromium ${type}`;
}

/** The named processes and every Chromium process descended from this one, by pid. */
function roles(processes: BudgetProcesses): Map<number, string> {
  const result = new Map(processes.named);
  const parentOf = parents();
  const isDescendant = (pid: number): boolean => {
    for (
      let current = parentOf.get(pid);
      current !== undefined && current > 1;
      current = parentOf.get(current)
    )
      if (current === process.pid) return true;
    return false;
  };
  for (const pid of parentOf.keys()) {
    if (result.has(pid) || !isDescendant(pid)) continue;
    const role = chromiumRole(pid);
    if (role !== undefined) result.set(pid, role);
  }
  return result;
}

/** Each budget process's threads' CPU now. */
export function readBudget(processes: BudgetProcesses): BudgetReading {
  return readRoles(roles(processes));
}

/** The threads' CPU now of each process of `roles` (role by pid). */
export function readRoles(roles: ReadonlyMap<number, string>): BudgetReading {
  const reading: BudgetReading = new Map();
  for (const [pid, role] of roles) {
    const threads = threadCpu(pid);
    // Gone since it was found.
    if (threads.length === 0) continue;
    reading.set(pid, { role, threads: new Map(threads.map(({ id, name, ms }) => [id, { name, ms }])) });
  }
  return reading;
}

/** CPU spent between two readings, ms, by "role: thread name" (a process's main thread is "main"). */
export function budgetSpent(before: BudgetReading, after: BudgetReading): Map<string, number> {
  const spent = new Map<string, number>();
  for (const [pid, { role, threads }] of after) {
    const earlier = before.get(pid)?.threads;
    for (const [id, { name, ms }] of threads) {
      const thread = id === pid ? 'main' : name;
      const key = `${role}: ${thread}`;
      spent.set(key, (spent.get(key) ?? 0) + ms - (earlier?.get(id)?.ms ?? 0));
    }
  }
  return spent;
}

/**
 * The budget as lines: each role's total and its threads over 50 ms, largest first, and the sum,
 * with what the sum is as wall time on `cores` cores (the least wall time that work can take).
 */
export function describeBudget(spent: ReadonlyMap<string, number>, cores: number): string {
  const byRole = new Map<string, [string, number][]>();
  for (const [key, ms] of spent) {
    const [role, thread] = key.split(': ') as [string, string];
    byRole.set(role, [...(byRole.get(role) ?? []), [thread, ms]]);
  }
  const seconds = (ms: number) => (ms / 1000).toFixed(2);
  const total = [...spent.values()].reduce((sum, ms) => sum + ms, 0);
  const lines = [...byRole]
    .map(([role, threads]) => ({ role, threads, ms: threads.reduce((sum, [, ms]) => sum + ms, 0) }))
    .sort((a, b) => b.ms - a.ms)
    .map(({ role, threads, ms }) => {
      const merged = new Map<string, number>();
      for (const [thread, threadMs] of threads) merged.set(thread, (merged.get(thread) ?? 0) + threadMs);
      const parts = [...merged]
        .filter(([, threadMs]) => threadMs >= 50)
        .sort((a, b) => b[1] - a[1])
        .map(([thread, threadMs]) => `${thread} ${seconds(threadMs)}`);
      return `  ${role.padEnd(20)} ${seconds(ms).padStart(6)} s  (${parts.join(', ')})`;
    });
  lines.push(
    `  ${'sum'.padEnd(20)} ${seconds(total).padStart(6)} s  = ${seconds(total / cores)} s on ${cores} cores`,
  );
  return lines.join('\n');
}
