// The faults of one chaos run, drawn from its seed before the run starts, so that the schedule printed
// with a failure is exactly what `--seed S --runs 1` injects again. Only the schedule is replayed: the
// interleaving with real sockets and timers is not, which is why every run must pass, not just most.

import type { SeededRandom } from '../support/seeded-random';

/** Every fault the embedded cluster can inject (main/sim/faults.ts), under the names the CLI accepts. */
export const faultKinds = [
  'drop',
  'gone',
  'throttle',
  'server-error',
  'stall',
  'truncated',
  'malformed',
  'restart-compacted',
  'continue-expiry',
] as const;

/**
 * The connection hanging for ever (cluster.faults.blackholeConnections): production mode only, where
 * the HTTP/2 health check at its real timings is what must notice it.
 */
export const blackhole = 'blackhole';

export type FaultKind = (typeof faultKinds)[number] | typeof blackhole;

/** Which requests a failNext fault answers: "/pods" matches every path holding it. */
export const faultPaths = ['/pods', '/deployments', '/replicasets', '/nodes', '/events', '/widgets'] as const;

export interface ScheduledFault {
  /** Milliseconds after the fault phase began. */
  atMs: number;
  kind: FaultKind;
  /** For gone, throttle and server-error: how many requests fail. */
  count?: number;
  /** For gone, throttle and server-error: the verb they fail ("list" or "watch"). */
  verb?: 'list' | 'watch';
  /** For gone, throttle, server-error and continue-expiry: only paths containing this; any if absent. */
  path?: string;
  /** For stall: how long the watches send nothing. */
  stallMs?: number;
}

export interface ScheduleOptions {
  kinds: readonly FaultKind[];
  /** Length of the fault phase. */
  durationMs: number;
  minimumFaults: number;
  maximumFaults: number;
  /** Stalls last this long; it must exceed the watch inactivity timeout so that they are noticed. */
  stallMs: number;
  /**
   * Adds one blackhole, at a time before this: early enough that the health check can notice it
   * (read-idle + ping timeout) before the fault phase ends.
   */
  blackholeWithinMs?: number;
}

export function isFaultKind(value: string): value is FaultKind {
  return (faultKinds as readonly string[]).includes(value) || value === blackhole;
}

/** A random fault schedule in time order; the same random state always gives the same schedule. */
export function drawSchedule(random: SeededRandom, options: ScheduleOptions): ScheduledFault[] {
  if (options.kinds.length === 0) return [];
  const count = random.between(options.minimumFaults, options.maximumFaults);
  const schedule: ScheduledFault[] = [];
  for (let index = 0; index < count; index++) {
    const kind = random.pick(options.kinds);
    const fault: ScheduledFault = { atMs: random.integer(options.durationMs), kind };
    if (kind === 'gone' || kind === 'throttle' || kind === 'server-error') {
      fault.count = random.between(1, 3);
      fault.verb = random.chance(0.5) ? 'list' : 'watch';
      if (random.chance(0.7)) fault.path = random.pick(faultPaths);
    } else if (kind === 'continue-expiry') {
      fault.path = random.pick(['/pods', '/events']);
    } else if (kind === 'stall') {
      fault.stallMs = options.stallMs;
    }
    schedule.push(fault);
  }
  if (options.blackholeWithinMs !== undefined)
    schedule.push({ atMs: random.integer(options.blackholeWithinMs), kind: blackhole });
  return schedule.sort((left, right) => left.atMs - right.atMs);
}

/** One line per fault, for failure reports: "  +412 ms throttle x2 list /pods". */
export function describeSchedule(schedule: readonly ScheduledFault[]): string {
  if (schedule.length === 0) return '  (no faults)';
  return schedule
    .map((fault) => {
      const parts = [`  +${fault.atMs} ms`, fault.kind];
      if (fault.count !== undefined) parts.push(`x${fault.count}`);
      if (fault.verb) parts.push(fault.verb);
      if (fault.path) parts.push(fault.path);
      if (fault.stallMs !== undefined) parts.push(`${fault.stallMs} ms`);
      return parts.join(' ');
    })
    .join('\n');
}
