// The longest stall of this thread's event loop counted in its own CPU time: what monitorEventLoopDelay
// would show on a quiet machine. On a loaded one a thread waits for a core, and a wall-time stall of
// 500 ms may hold 30 ms of this thread's work (the rest is other processes' turn), so wall figures
// say more of the load than of the code. A 1-ms interval timer fires after every iteration of the
// loop that took a millisecond or more; the CPU time this thread spent between two of its ticks is
// the work of the iteration(s) between them: callbacks, microtasks, and garbage collection on this
// thread (not the collector's helper threads). Linux only (see threadCpuMs); elsewhere undefined.
//
// The longest stall's span is kept on the monotonic clock a V8 CPU profile's sample times use, so
// `profile-summary.ts --window` can tell what that one stall was made of.
import { threadCpuMs } from '../../main/history/thread-cpu-time';

/** A span of the monotonic clock (process.hrtime), in microseconds: a .cpuprofile's time base. */
export interface MonotonicSpan {
  startUs: number;
  endUs: number;
}

export class CpuStallMonitor {
  private timer: NodeJS.Timeout | undefined;
  private lastCpu = 0;
  private lastTickUs = 0;
  private maxMs = 0;
  private longest: MonotonicSpan | undefined;
  private readonly supported = threadCpuMs() !== undefined;

  start(): void {
    if (!this.supported || this.timer) return;
    this.lastCpu = threadCpuMs()!;
    this.lastTickUs = monotonicUs();
    this.timer = setInterval(() => {
      const cpu = threadCpuMs()!;
      const nowUs = monotonicUs();
      if (cpu - this.lastCpu > this.maxMs) {
        this.maxMs = cpu - this.lastCpu;
        this.longest = { startUs: this.lastTickUs, endUs: nowUs };
      }
      this.lastCpu = cpu;
      this.lastTickUs = nowUs;
    }, 1);
  }

  /** Stops the ticks; the longest stall seen, in ms of this thread's CPU time (undefined: not Linux). */
  stop(): number | undefined {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    return this.supported ? this.maxMs : undefined;
  }

  /** Where the longest stall was, between the two ticks around it (undefined before one was seen). */
  longestSpan(): MonotonicSpan | undefined {
    return this.longest;
  }
}

function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}
