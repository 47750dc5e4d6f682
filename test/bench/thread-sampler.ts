// Who holds the machine's cores over a long run, by hand: once a second, every thread of every
// process whose command line names a part of the ui bench (the embedded cluster, the backend, the
// bench's own process, Chromium's processes by role) is read as process-budget.ts reads a window, and
// the CPU each used since the last reading is appended as one JSON line. Run it beside
// `npm run bench -- --only ui` and stop it with Ctrl-C; --summary sums a file's lines by part.
//
//   npx tsx test/bench/thread-sampler.ts --out samples.jsonl
//   npx tsx test/bench/thread-sampler.ts --summary samples.jsonl
import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { budgetSpent, chromiumRole, describeBudget, readRoles } from './process-budget';

/** What a process is to the bench; undefined for the rest of the machine. */
function roleOf(pid: number): string | undefined {
  const chromium = chromiumRole(pid);
  if (chromium !== undefined) return chromium;
  let commandLine: string;
  try {
    commandLine = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
  } catch {
    return undefined;
  }
  if (commandLine.includes('ui-backend-child')) return 'backend';
  if (commandLine.includes('sim/cli')) return 'cluster';
  if (commandLine.includes('bench/run.ts')) return 'driver';
  return undefined;
}

/** The bench's processes now, by pid; each process's role is looked up once (`known`). */
function benchRoles(known: Map<number, string | undefined>): Map<number, string> {
  const roles = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (!known.has(pid)) known.set(pid, roleOf(pid));
    const role = known.get(pid);
    if (role !== undefined) roles.set(pid, role);
  }
  return roles;
}

function record(out: string): void {
  const known = new Map<number, string | undefined>();
  let last = readRoles(benchRoles(known));
  setInterval(() => {
    const now = readRoles(benchRoles(known));
    const used: Record<string, number> = {};
    for (const [key, ms] of budgetSpent(last, now)) if (ms >= 1) used[key] = Math.round(ms);
    last = now;
    appendFileSync(out, `${JSON.stringify({ at: Date.now(), cpuMs: used })}\n`);
  }, 1000);
}

/** The CPU of a file's lines summed by "role: thread", as ui-budget.ts prints a window's. */
function summary(file: string): void {
  const totals = new Map<string, number>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const { cpuMs } = JSON.parse(line) as { cpuMs: Record<string, number> };
    for (const [key, ms] of Object.entries(cpuMs)) totals.set(key, (totals.get(key) ?? 0) + ms);
  }
  console.log(describeBudget(totals, availableParallelism()));
}

const { values } = parseArgs({ options: { out: { type: 'string' }, summary: { type: 'string' } } });
if (values.summary) summary(values.summary);
else if (values.out) record(values.out);
else console.error('usage: thread-sampler.ts --out FILE | --summary FILE');
