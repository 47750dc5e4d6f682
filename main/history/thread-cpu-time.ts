// The CPU time of the calling thread, where the platform tells it: what the recording process's own
// work costs, apart from the time the machine gave other threads and processes (Node 20 has no
// process.threadCpuUsage). On Linux the kernel keeps it per thread in /proc/thread-self/schedstat, in
// nanoseconds; elsewhere there is none to read.
import { readFileSync } from 'node:fs';

let readable = process.platform === 'linux';

/** This thread's CPU time in ms, or undefined where the platform does not tell it. */
export function threadCpuMs(): number | undefined {
  if (!readable) return undefined;
  try {
    // "<ns on CPU> <ns waiting to run> <time slices>"
    const text = readFileSync('/proc/thread-self/schedstat', 'latin1');
    return Number(text.slice(0, text.indexOf(' '))) / 1e6;
  } catch {
    readable = false;
    return undefined;
  }
}
