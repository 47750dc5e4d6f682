// The longest stall of this thread's event loop counted in its own CPU time: what monitorEventLoopDelay
// would show on a quiet machine. On a loaded one a thread waits for a core, and a wall-time stall of
// 500 ms may hold 30 ms of this thread's work (the rest is other processes' turn), so wall figures
// say more of the load than of the code. A 1-ms interval timer fires after every iteration of the
// loop that took a millisecond or more; the CPU time this thread spent between two of its ticks is
// the work of the iteration(s) between them: callbacks, microtasks, and garbage collection on this
// thread (not the collector's helper threads). Linux only (see threadCpuMs); elsewhere undefined.
//
// The same ticks tell what each long wall-time stall was made of: the kernel also counts, per thread,
// the time it was runnable but waiting for a core (/proc/thread-self/schedstat's second field), so a
// stall splits into this thread's work, its wait in the run queue (the machine's load), and the rest
// (blocked in the kernel: page faults, I/O), with the garbage collections (perf_hooks 'gc' entries)
// that ran inside it.
//
// The longest stall's span is kept on the monotonic clock a V8 CPU profile's sample times use, so
// `profile-summary.ts --window` can tell what that one stall was made of.
import { closeSync, openSync, readSync } from 'node:fs';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import type { PerformanceEntry } from 'node:perf_hooks';
import type { RoleTimes, ThreadShares } from './thread-shares';
import { describeRoleTimes } from './thread-shares';

/** A span of the monotonic clock (process.hrtime), in microseconds: a .cpuprofile's time base. */
export interface MonotonicSpan {
  startUs: number;
  endUs: number;
}

/** One long wall-time stall of the loop (the time between two ticks), split by where it went. */
export interface WallStall {
  readonly wallMs: number;
  /** This thread on a core: its callbacks and the collector's work on it. */
  readonly cpuMs: number;
  /** Runnable, waiting for a core (other threads' and processes' turn). */
  readonly runQueueMs: number;
  /** Garbage collections inside the stall, each "kind ms" (their wall time, wait included). */
  readonly collections: readonly string[];
  /** Every thread of the process over the stall (from up to sharesEveryMs before it), by role. */
  readonly threads?: RoleTimes;
  /** The span the threads' times cover, in ms (the stall and up to sharesEveryMs before it). */
  readonly threadsWallMs?: number;
}

/** What the long wall-time stalls of a run were made of. */
export interface WallStallBreakdown {
  /** Iterations whose wall time passed longStallMs. */
  readonly longStalls: number;
  /** Of them, those where this thread worked longStallMs or more (the rest waited, mostly for a core). */
  readonly longInCpu: number;
  /** Of them, those where more than half the wall time was spent waiting for a core. */
  readonly mostlyRunQueue: number;
  /** The longest, longest first. */
  readonly longest: readonly WallStall[];
}

/** One of the longest iterations in this thread's CPU time, where it was and its collections. */
export interface CpuStall {
  readonly cpuMs: number;
  readonly wallMs: number;
  /** On a CPU profile's clock (see profile-summary --window). */
  readonly span: MonotonicSpan;
  /** Garbage collections inside it, each "kind ms" (their wall time). */
  readonly collections: readonly string[];
}

/** A stall longer than this (the goal) is a long one. */
const longStallMs = 20;
/** How many of the longest stalls are kept with their collections. */
const keptStalls = 5;
/** Every thread's times are read this often (at a tick), so a stall's share is known from before it. */
const sharesEveryMs = 10;

interface KeptStall {
  wallMs: number;
  cpuMs: number;
  runQueueMs: number;
  /** performance.now() of the ticks around it, to find the collections inside it. */
  startMs: number;
  endMs: number;
  threads?: RoleTimes;
  threadsWallMs?: number;
}

export class CpuStallMonitor {
  private timer: NodeJS.Timeout | undefined;
  private lastCpu = 0;
  private lastWait = 0;
  private lastTickUs = 0;
  private lastTickMs = 0;
  private maxMs = 0;
  private longest: MonotonicSpan | undefined;
  private longStalls = 0;
  private longInCpu = 0;
  private mostlyRunQueue = 0;
  private kept: KeptStall[] = [];
  /** The longest iterations in CPU time, longest first (keptStalls of them). */
  private keptInCpu: (KeptStall & { span: MonotonicSpan })[] = [];
  private collections: PerformanceEntry[] = [];
  /** kind -> [collections, ms of wall time] over the whole run. */
  private readonly gcTotals = new Map<string, [number, number]>();
  private readonly gcObserver = new PerformanceObserver((list) => {
    const entries = list.getEntries();
    for (const entry of entries) {
      const total = this.gcTotals.get(gcKind(entry)) ?? [0, 0];
      this.gcTotals.set(gcKind(entry), [total[0] + 1, total[1] + entry.duration]);
    }
    this.collections.push(...entries);
    if (this.collections.length > 10_000) this.forgetCollections();
  });
  private schedstat: ThreadSchedstat | undefined;
  /** The thread's schedstat could be read: the figures mean something. */
  private supported = false;
  private shares: ThreadShares | undefined;
  private sharesAt: { ms: number; readings: ReturnType<ThreadShares['read']> } | undefined;
  private sharesFirst: ReturnType<ThreadShares['read']> | undefined;
  private sharesTotal: RoleTimes | undefined;

  /** With `shares`, each long stall and the whole run are also told by thread (see ThreadShares). */
  start(shares?: ThreadShares): void {
    if (this.timer) return;
    this.schedstat = ThreadSchedstat.open();
    if (!this.schedstat) return;
    this.supported = true;
    [this.lastCpu, this.lastWait] = this.schedstat.read();
    this.lastTickUs = monotonicUs();
    this.lastTickMs = performance.now();
    this.shares = shares;
    if (shares) {
      this.sharesAt = { ms: this.lastTickMs, readings: shares.read() };
      this.sharesFirst = this.sharesAt.readings;
    }
    this.gcObserver.observe({ entryTypes: ['gc'] });
    this.timer = setInterval(() => this.tick(), 1);
  }

  /** Stops the ticks; the longest stall seen, in ms of this thread's CPU time (undefined: not Linux). */
  stop(): number | undefined {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.schedstat?.close();
    this.schedstat = undefined;
    if (this.shares && this.sharesFirst)
      this.sharesTotal = this.shares.spent(this.sharesFirst, this.shares.read());
    this.shares = undefined;
    this.gcObserver.disconnect();
    return this.supported ? this.maxMs : undefined;
  }

  /** Where the longest stall was, between the two ticks around it (undefined before one was seen). */
  longestSpan(): MonotonicSpan | undefined {
    return this.longest;
  }

  /** The longest iterations in this thread's CPU time, longest first (after stop()). */
  cpuStalls(): CpuStall[] {
    return this.keptInCpu.map((stall) => ({
      cpuMs: stall.cpuMs,
      wallMs: stall.wallMs,
      span: stall.span,
      collections: this.collectionsWithin(stall),
    }));
  }

  /** Every thread's times over the run by role (undefined without ThreadShares). */
  threadTotals(): RoleTimes | undefined {
    return this.sharesTotal;
  }

  /** Every collection of the run by kind: "scavenge 812 in 3,210 ms, ..." (wall time, waits included). */
  collectionTotals(): string {
    return [...this.gcTotals]
      .map(([kind, [count, ms]]) => `${kind} ${count} in ${ms.toFixed(0)} ms`)
      .join(', ');
  }

  /** What the long wall-time stalls were made of (after stop(), whose collections it reads). */
  wallStalls(): WallStallBreakdown {
    return {
      longStalls: this.longStalls,
      longInCpu: this.longInCpu,
      mostlyRunQueue: this.mostlyRunQueue,
      longest: this.kept.map((stall) => ({
        wallMs: stall.wallMs,
        cpuMs: stall.cpuMs,
        runQueueMs: stall.runQueueMs,
        threads: stall.threads,
        threadsWallMs: stall.threadsWallMs,
        collections: this.collectionsWithin(stall),
      })),
    };
  }

  private collectionsWithin(stall: KeptStall): string[] {
    return this.collections
      .filter((entry) => entry.startTime < stall.endMs && entry.startTime + entry.duration > stall.startMs)
      .map((entry) => `${gcKind(entry)} ${entry.duration.toFixed(1)}`);
  }

  private tick(): void {
    const [cpu, wait] = this.schedstat!.read();
    const nowUs = monotonicUs();
    const nowMs = performance.now();
    const cpuMs = cpu - this.lastCpu;
    if (cpuMs > this.maxMs) {
      this.maxMs = cpuMs;
      this.longest = { startUs: this.lastTickUs, endUs: nowUs };
    }
    const wallMs = nowMs - this.lastTickMs;
    if (this.keptInCpu.length < keptStalls || cpuMs > this.keptInCpu[keptStalls - 1].cpuMs) {
      const span = { startUs: this.lastTickUs, endUs: nowUs };
      this.keptInCpu.push({ wallMs, cpuMs, runQueueMs: 0, startMs: this.lastTickMs, endMs: nowMs, span });
      this.keptInCpu.sort((a, b) => b.cpuMs - a.cpuMs);
      this.keptInCpu.length = Math.min(this.keptInCpu.length, keptStalls);
    }
    const readings =
      this.shares && (wallMs > longStallMs || nowMs - this.sharesAt!.ms >= sharesEveryMs)
        ? this.shares.read()
        : undefined;
    if (wallMs > longStallMs) {
      const runQueueMs = wait - this.lastWait;
      this.longStalls++;
      if (cpuMs >= longStallMs) this.longInCpu++;
      if (runQueueMs > wallMs / 2) this.mostlyRunQueue++;
      const stall: KeptStall = { wallMs, cpuMs, runQueueMs, startMs: this.lastTickMs, endMs: nowMs };
      if (readings) {
        stall.threads = this.shares!.spent(this.sharesAt!.readings, readings);
        stall.threadsWallMs = nowMs - this.sharesAt!.ms;
      }
      this.keep(stall);
    }
    if (readings) this.sharesAt = { ms: nowMs, readings };
    this.lastCpu = cpu;
    this.lastWait = wait;
    this.lastTickUs = nowUs;
    this.lastTickMs = nowMs;
  }

  private keep(stall: KeptStall): void {
    if (this.kept.length === keptStalls && stall.wallMs <= this.kept[keptStalls - 1].wallMs) return;
    this.kept.push(stall);
    this.kept.sort((a, b) => b.wallMs - a.wallMs);
    this.kept.length = Math.min(this.kept.length, keptStalls);
  }

  /** Drops the collections that ended before every kept stall and the current iteration began. */
  private forgetCollections(): void {
    const oldest = Math.min(
      this.lastTickMs,
      ...this.kept.map((kept) => kept.startMs),
      ...this.keptInCpu.map((kept) => kept.startMs),
    );
    this.collections = this.collections.filter((entry) => entry.startTime + entry.duration > oldest);
  }
}

/** One line per stall: "874 ms wall = 17.6 CPU + 812 run queue + 44 other; scavenge 3.1, ...". */
export function describeWallStall(stall: WallStall): string {
  const other = Math.max(0, stall.wallMs - stall.cpuMs - stall.runQueueMs);
  const collections = stall.collections.length ? `; GC ${stall.collections.join(', ')}` : '; no GC';
  const threads =
    stall.threads && stall.threadsWallMs !== undefined
      ? `; over ${stall.threadsWallMs.toFixed(0)} ms: ${describeRoleTimes(stall.threads, stall.threadsWallMs)}`
      : '';
  return `${stall.wallMs.toFixed(0)} ms wall = ${stall.cpuMs.toFixed(1)} CPU + ${stall.runQueueMs.toFixed(0)} run queue + ${other.toFixed(0)} other${collections}${threads}`;
}

/**
 * This thread's /proc/thread-self/schedstat, read again from one descriptor at each tick: opening the
 * file every millisecond cost the thread it measures ~30 us a tick (3% of a core, in its figures);
 * a read at offset 0 of the open file is ~4 us, and the kernel writes it anew at each read.
 */
class ThreadSchedstat {
  private readonly buffer = Buffer.alloc(128);

  private constructor(private readonly descriptor: number) {}

  /** Opens this thread's (undefined where the platform does not tell it). */
  static open(): ThreadSchedstat | undefined {
    if (process.platform !== 'linux') return undefined;
    try {
      return new ThreadSchedstat(openSync('/proc/thread-self/schedstat', 'r'));
    } catch {
      return undefined;
    }
  }

  /** [CPU time, time runnable but waiting for a core], in ms. */
  read(): [number, number] {
    const length = readSync(this.descriptor, this.buffer, 0, this.buffer.length, 0);
    // "<ns on CPU> <ns waiting to run> <time slices>"
    const [cpu, wait] = this.buffer.toString('latin1', 0, length).split(' ');
    return [Number(cpu) / 1e6, Number(wait) / 1e6];
  }

  close(): void {
    closeSync(this.descriptor);
  }
}

function gcKind(entry: PerformanceEntry): string {
  const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
  if (kind === constants.NODE_PERFORMANCE_GC_MINOR) return 'scavenge';
  if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) return 'mark-compact';
  if (kind === constants.NODE_PERFORMANCE_GC_INCREMENTAL) return 'incremental-marking';
  if (kind === constants.NODE_PERFORMANCE_GC_WEAKCB) return 'weak-callbacks';
  return 'gc';
}

function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}
