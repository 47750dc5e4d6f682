// The CPU the ui bench's startup took, navigation to the page's "synced", in every process that ran it:
// the cluster, Kubetide's backend, Chromium's processes and this one (the driver), from Linux's
// per-thread schedstat (process-budget.ts, as ui-budget.ts prints it by hand). Its sum over the cores,
// or the backend's main thread's alone (one thread, one core), whichever is longer, is the least wall
// time that work can take on this machine however it is scheduled: what issue 15's synced goal (1.2x
// the sync bench's time) is up against when the page's path needs more CPU than the informer's.
import { availableParallelism } from 'node:os';
import { budgetSpent, describeBudget, readBudget } from './process-budget';
import type { BudgetProcesses } from './process-budget';

export interface StartupCpu {
  /** Every process's CPU, ms. */
  totalMs: number;
  /** The backend's main thread's CPU, ms. */
  backendMainMs: number;
  /** max(totalMs / cores, backendMainMs). */
  boundMs: number;
  /** By process and thread, one line (describeBudget's lines joined). */
  described: string;
}

/** Reads the budget now (call just before navigation); `atSynced` reads it again and tells the spend. */
export function startupBudget(clusterPid: number, backendPid: number): { atSynced(): StartupCpu } {
  const processes: BudgetProcesses = {
    named: new Map([
      [clusterPid, 'cluster'],
      [backendPid, 'backend'],
      [process.pid, 'driver (bench)'],
    ]),
  };
  const before = readBudget(processes);
  return {
    atSynced() {
      const spent = budgetSpent(before, readBudget(processes));
      const cores = availableParallelism();
      const totalMs = [...spent.values()].reduce((sum, ms) => sum + ms, 0);
      const backendMainMs = spent.get('backend: main') ?? 0;
      const described = describeBudget(spent, cores)
        .split('\n')
        .map((line) => line.trim().replace(/\s+/g, ' '))
        .join('; ');
      return { totalMs, backendMainMs, boundMs: Math.max(totalMs / cores, backendMainMs), described };
    },
  };
}
