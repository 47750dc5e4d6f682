// Who held the cores while this process's main thread waited: every thread of the process, its CPU
// time and its time runnable but waiting for a core (the kernel's per-thread schedstat), read from
// descriptors kept open (a read at offset 0 is a few microseconds; opening each file at every reading
// would cost the thread it measures). Node 20 names every thread "node", so threads are told apart by
// role: the main thread (its id is the process's), the threads a `mark()`ed span started (a worker
// thread), and the rest (V8's platform threads: GC helpers, the compiler; libuv's pool). What the
// process's threads did not use of the machine's cores during a stall went to other processes.
import { closeSync, openSync, readSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** CPU and run-queue time, in ms, by role. */
export type RoleTimes = Record<string, { cpuMs: number; waitMs: number }>;

interface Reading {
  readonly cpuMs: number;
  readonly waitMs: number;
}

export class ThreadShares {
  private readonly descriptors = new Map<number, number>();
  private readonly roles = new Map<number, string>();
  private readonly buffer = Buffer.alloc(128);

  private constructor() {
    this.roles.set(process.pid, 'main');
    this.discover('other');
  }

  /** Undefined where the platform has no per-thread schedstat (not Linux). */
  static open(): ThreadShares | undefined {
    if (process.platform !== 'linux') return undefined;
    try {
      return new ThreadShares();
    } catch {
      return undefined;
    }
  }

  /** Threads started since the last call take `role` (call after starting a worker). */
  discover(role: string): void {
    let ids: string[];
    try {
      ids = readdirSync('/proc/self/task');
    } catch {
      return;
    }
    for (const id of ids.map(Number)) {
      if (this.descriptors.has(id)) continue;
      try {
        this.descriptors.set(id, openSync(`/proc/self/task/${id}/schedstat`, 'r'));
        if (!this.roles.has(id)) this.roles.set(id, role);
      } catch {
        // Ended between the listing and the open.
      }
    }
  }

  /** Every known thread's times now. */
  read(): Map<number, Reading> {
    const readings = new Map<number, Reading>();
    for (const [id, descriptor] of this.descriptors) {
      try {
        const length = readSync(descriptor, this.buffer, 0, this.buffer.length, 0);
        const [cpu, wait] = this.buffer.toString('latin1', 0, length).split(' ');
        readings.set(id, { cpuMs: Number(cpu) / 1e6, waitMs: Number(wait) / 1e6 });
      } catch {
        // The thread ended: its descriptor reads nothing more.
      }
    }
    return readings;
  }

  /** The times spent between two readings, summed by role. */
  spent(before: Map<number, Reading>, after: Map<number, Reading>): RoleTimes {
    const times: RoleTimes = {};
    for (const [id, now] of after) {
      const earlier = before.get(id) ?? { cpuMs: 0, waitMs: 0 };
      const role = this.roles.get(id) ?? 'other';
      const total = (times[role] ??= { cpuMs: 0, waitMs: 0 });
      total.cpuMs += now.cpuMs - earlier.cpuMs;
      total.waitMs += now.waitMs - earlier.waitMs;
    }
    return times;
  }

  close(): void {
    for (const descriptor of this.descriptors.values()) closeSync(descriptor);
    this.descriptors.clear();
  }
}

/**
 * "main 2 CPU + 380 waiting, recording 150 + 90, other 40 + 30; other processes ~560 of 780": over
 * `wallMs`, each role's CPU and run-queue time, and what was left of the cores for other processes.
 */
export function describeRoleTimes(times: RoleTimes, wallMs: number): string {
  const roles = Object.entries(times).sort(([a], [b]) => (a === 'main' ? -1 : b === 'main' ? 1 : 0));
  const used = roles.reduce((sum, [, time]) => sum + time.cpuMs, 0);
  const capacity = wallMs * availableParallelism();
  const parts = roles.map(
    ([role, time]) => `${role} ${time.cpuMs.toFixed(0)} CPU + ${time.waitMs.toFixed(0)} waiting`,
  );
  return `${parts.join(', ')}; other processes <= ${Math.max(0, capacity - used).toFixed(0)} of ${capacity.toFixed(0)} core-ms`;
}
