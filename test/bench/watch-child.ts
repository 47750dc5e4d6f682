// Child process of the watch benchmark: runs one reader against the parent's replay server in a fresh
// heap (none of the embedded cluster's objects, none of another reader's garbage) and reports when it
// finished, its longest event-loop stall and its CPU time per event.
// Run with --expose-gc; argv: reader, replay server URL, events.
import { collectGarbage, startLoopStallMonitor } from './harness';
import type { WatchReader } from './watch-readers';
import { runWatchReader } from './watch-readers';

export interface WatchChildReport {
  reader: WatchReader;
  /** epochNow() when the handler saw the last event. */
  endEpochMs: number;
  maxLoopStallMs: number;
  cpuMicrosecondsPerEvent: number;
}

async function main(): Promise<void> {
  const [reader, server, eventsText] = process.argv.slice(2) as [WatchReader, string, string];
  const events = Number(eventsText);
  collectGarbage();
  const monitor = startLoopStallMonitor();
  const cpuBefore = process.cpuUsage();
  const endEpochMs = await runWatchReader(reader, server, events);
  const cpu = process.cpuUsage(cpuBefore);
  const report: WatchChildReport = {
    reader,
    endEpochMs,
    maxLoopStallMs: monitor.stop(),
    cpuMicrosecondsPerEvent: (cpu.user + cpu.system) / events,
  };
  process.send?.(report, () => process.exit(0));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
