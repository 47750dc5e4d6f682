// A bench's child leading a session of its own. With the kernel's autogroup scheduling
// (/proc/sys/kernel/sched_autogroup_enabled = 1, as on this machine and most desktop Linux) a session is
// a CPU group, and the CPU is shared fairly between groups with runnable threads before it is shared
// between a group's threads. The embedded cluster gets one (ui-cluster.ts): it stands for an API server
// on another machine, and in the bench's session its churn came out of the share of the one group it
// shared with Kubetide's backend and the driver, where it was starved (1,400-1,700 changes a second
// made for 2,000 asked, session 23). In a group of its own it takes the ~0.3 core its churn needs from
// every group alike. Kubetide's backend stays in the bench's session: in Electron its main process and
// its renderers share one session, and a group of its own would give the app two shares of the
// machine against the browser's one. Chromium gets one (cdp-browser.ts), as playwright-core starts it.
// KUBETIDE_BENCH_SESSION=shared keeps the cluster in the bench's session, to show that difference.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export const sharedSession = () => process.env.KUBETIDE_BENCH_SESSION === 'shared';

/** Spawns `command` leading a session (and process group) of its own; the bench's exit takes it along. */
export function spawnInOwnSession(
  command: string,
  args: readonly string[],
  options: SpawnOptions,
  shared = sharedSession(),
): ChildProcess {
  const child = spawn(command, args, { ...options, detached: !shared });
  // A bench that dies without closing (an exception, Ctrl+C) takes the child's whole group with it.
  const killOnExit = () => signalGroup(child, 'SIGKILL', shared);
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  return child;
}

/**
 * Signals the child's process group (its own, led by the child, when it has a session of its own), so
 * what it started goes with it as when the terminal's Ctrl+C reached them all; the child alone otherwise.
 */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals, shared = sharedSession()): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(shared ? child.pid : -child.pid, signal);
  } catch {
    // Gone already.
  }
}
