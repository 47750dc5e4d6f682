// The longest stall of this thread's event loop counted in its own CPU time: what monitorEventLoopDelay
// would show on a quiet machine. On a loaded one a thread waits for a core, and a wall-time stall of
// 500 ms may hold 30 ms of this thread's work (the rest is other processes' turn), so wall figures
// say more of the load than of the code. A 1-ms interval timer fires after every iteration of the
// loop that took a millisecond or more; the CPU time this thread spent between two of its ticks is
// the work of the iteration(s) between them: callbacks, microtasks, and garbage collection on this
// thread (not the collector's helper threads). Linux only (see threadCpuMs); elsewhere undefined.
import { threadCpuMs } from '../../main/history/thread-cpu-time';

export class CpuStallMonitor {
  private timer: NodeJS.Timeout | undefined;
  private lastCpu = 0;
  private maxMs = 0;
  private readonly supported = threadCpuMs() !== undefined;

  start(): void {
    if (!this.supported || this.timer) return;
    this.lastCpu = threadCpuMs()!;
    this.timer = setInterval(() => {
      const cpu = threadCpuMs()!;
      this.maxMs = Math.max(this.maxMs, cpu - this.lastCpu);
      this.lastCpu = cpu;
    }, 1);
  }

  /** Stops the ticks; the longest stall seen, in ms of this thread's CPU time (undefined: not Linux). */
  stop(): number | undefined {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    return this.supported ? this.maxMs : undefined;
  }
}
