// The history bench's control: a process whose event loop does nothing but the stall monitors' ticks,
// run beside a recording. Its longest stall is the machine's share of any stall (a thread waiting for
// a core while other processes hold both), since no code of ours runs in it. Driven by
// IdleLoopControl: "measure" starts watching anew, "report" stops and sends what was seen.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { IntervalHistogram } from 'node:perf_hooks';
import type { WallStallBreakdown } from './cpu-stall-monitor';
import { CpuStallMonitor } from './cpu-stall-monitor';

export interface IdleLoopReport {
  readonly maxStallMs: number;
  readonly maxStallCpuMs: number | undefined;
  readonly wallStalls: WallStallBreakdown;
}

export type IdleLoopRequest = 'measure' | 'report';

let watching: { delay: IntervalHistogram; cpuStalls: CpuStallMonitor } | undefined;

process.on('message', (request: IdleLoopRequest) => {
  if (request === 'measure') {
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const cpuStalls = new CpuStallMonitor();
    cpuStalls.start();
    watching = { delay, cpuStalls };
    process.send?.('measuring');
    return;
  }
  if (!watching) return;
  const { delay, cpuStalls } = watching;
  watching = undefined;
  delay.disable();
  const maxStallCpuMs = cpuStalls.stop();
  const report: IdleLoopReport = {
    maxStallMs: delay.max / 1e6,
    maxStallCpuMs,
    wallStalls: cpuStalls.wallStalls(),
  };
  process.send?.(report);
});
// Its parent gone (a failed run), it has nothing left to watch for.
process.on('disconnect', () => process.exit(0));
process.send?.('started');
