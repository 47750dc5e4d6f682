// Who holds the machine's cores over a long run, by hand: once a second, every thread of every
// process whose command line names a part of the ui bench (the embedded cluster, the backend, the
// bench's own process, Chromium's processes by --type) is read from Linux's per-thread schedstat, and
// the CPU each used since the last reading is appended as one JSON line. Run it beside
// `npm run bench -- --only ui` and stop it with Ctrl-C; --summary sums a file's lines by part.
//
//   npx tsx test/bench/thread-sampler.ts --out samples.jsonl
//   npx tsx test/bench/thread-sampler.ts --summary samples.jsonl
import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';

/** What a process is to the bench, from its command line; undefined for the rest of the machine. */
function partOf(commandLine: string): string | undefined {
  if (commandLine.includes('chromium')) {
    const type = /--type=([a-z-]+)/.exec(commandLine)?.[1];
    return `chromium ${type ?? 'browser'}`;
  }
  if (commandLine.includes('ui-backend-child')) return 'backend';
  if (commandLine.includes('sim/cli')) return 'cluster';
  if (commandLine.includes('bench/run.ts')) return 'driver';
  return undefined;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** CPU ns of every thread of the bench's processes, keyed "part|process|thread" (main: thread = process). */
function sample(parts: Map<string, string | undefined>): Map<string, number> {
  const times = new Map<string, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    if (!parts.has(entry))
      parts.set(entry, partOf(read(`/proc/${entry}/cmdline`)?.replaceAll('\0', ' ') ?? ''));
    const part = parts.get(entry);
    if (part === undefined) continue;
    let threads: string[] = [];
    try {
      threads = readdirSync(`/proc/${entry}/task`);
    } catch {
      continue;
    }
    for (const thread of threads) {
      const schedstat = read(`/proc/${entry}/task/${thread}/schedstat`);
      if (schedstat !== undefined) times.set(`${part}|${entry}|${thread}`, Number(schedstat.split(' ')[0]));
    }
  }
  return times;
}

function record(out: string): void {
  const parts = new Map<string, string | undefined>();
  let last = sample(parts);
  setInterval(() => {
    const now = sample(parts);
    const used: Record<string, number> = {};
    for (const [key, nanoseconds] of now) {
      const spent = (nanoseconds - (last.get(key) ?? nanoseconds)) / 1e6;
      if (spent >= 1) used[key] = Math.round(spent);
    }
    last = now;
    appendFileSync(out, `${JSON.stringify({ at: Date.now(), cpuMs: used })}\n`);
  }, 1000);
}

/** Seconds of CPU by part, the main thread of the backend and the cluster apart from their others. */
function summary(file: string): void {
  const totals = new Map<string, number>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const { cpuMs } = JSON.parse(line) as { cpuMs: Record<string, number> };
    for (const [key, ms] of Object.entries(cpuMs)) {
      const [part, process, thread] = key.split('|');
      const name =
        part === 'backend' || part === 'cluster'
          ? `${part} ${thread === process ? 'main' : 'other threads'}`
          : part!;
      totals.set(name, (totals.get(name) ?? 0) + ms);
    }
  }
  for (const [name, ms] of [...totals].sort((first, second) => second[1] - first[1]))
    console.log(`${(ms / 1000).toFixed(1).padStart(7)} s  ${name}`);
}

const { values } = parseArgs({ options: { out: { type: 'string' }, summary: { type: 'string' } } });
if (values.summary) summary(values.summary);
else if (values.out) record(values.out);
else console.error('usage: thread-sampler.ts --out FILE | --summary FILE');
