// Runs idle-loop-child.ts beside a measured run: the same stall monitors on a loop with no work, so a
// wall-time stall can be told apart from the machine's load (see idle-loop-child.ts).
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { IdleLoopReport } from './idle-loop-child';

export class IdleLoopControl {
  private constructor(private readonly child: ChildProcess) {}

  /** Resolves once the control's loop is being watched. */
  static start(): Promise<IdleLoopControl> {
    const child = fork(new URL('./idle-loop-child.ts', import.meta.url), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('message', () => resolve(new IdleLoopControl(child)));
    });
  }

  /** Ends the control; what its loop's stalls were meanwhile. */
  stop(): Promise<IdleLoopReport> {
    return new Promise((resolve, reject) => {
      this.child.once('message', (report) => resolve(report as IdleLoopReport));
      this.child.once('exit', (code) => reject(new Error(`the idle loop exited with code ${code}`)));
      this.child.send('stop');
    });
  }
}
