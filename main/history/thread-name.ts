// Names the calling thread for the system's tools. Node 20 names every worker thread "node", like the
// main thread, so `top -H`, `ps -L` and the benches' CPU by thread (test/bench/thread-cpu.ts) could not
// tell the recording worker from the query or metrics worker. On Linux a thread may rename itself by
// writing its /proc/thread-self/comm; the kernel keeps the first 15 bytes.
import { writeFileSync } from 'node:fs';

/** The longest name Linux keeps for a thread (TASK_COMM_LEN less its terminating NUL). */
export const threadNameBytes = 15;

/**
 * Names this thread `name` (cut to 15 bytes). Returns false, changing nothing, where the platform has
 * no such file; a name is only for the eye, so a failure is never an error.
 */
export function nameThisThread(name: string): boolean {
  if (process.platform !== 'linux') return false;
  try {
    writeFileSync('/proc/thread-self/comm', name.slice(0, threadNameBytes));
    return true;
  } catch {
    return false;
  }
}
