// Lowers the calling thread's scheduling priority, that thread's alone. On Linux every thread is a
// task with a nice value of its own: setpriority() given the thread's id (read from /proc/thread-self,
// "<pid>/task/<tid>") changes that thread and no other, where the process id would change the main
// thread's too. Elsewhere the call reaches the whole process (or the platform has no such id), so it
// is not made there.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Sets this thread's nice value to `niceness` (0-19: higher yields the CPU sooner to a thread that
 * wants it). Returns false, changing nothing, where the platform cannot set one thread's alone. Raising
 * a nice value needs no privilege; lowering it back does, so a thread does this once, at its start.
 */
export function setThisThreadNiceness(niceness: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const link = readlinkSync('/proc/thread-self');
    const threadId = Number(link.slice(link.lastIndexOf('/') + 1));
    if (!Number.isInteger(threadId) || threadId <= 0) return false;
    setPriority(threadId, niceness);
    return true;
  } catch {
    return false;
  }
}
