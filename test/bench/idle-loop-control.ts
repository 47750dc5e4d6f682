// Runs idle-loop-child.ts beside measured runs: the same stall monitors on a loop with no work, so a
// wall-time stall can be told apart from the machine's load (see idle-loop-child.ts). One process for
// a bench's runs, each measured between measure() and report().
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { IdleLoopReport, IdleLoopRequest } from './idle-loop-child';

export class IdleLoopControl {
  private constructor(private readonly child: ChildProcess) {}

  /** Resolves once the control's process is ready. */
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

  /** Starts watching the control's loop anew; resolves once it is watched. */
  measure(): Promise<void> {
    return this.ask('measure').then(() => {});
  }

  /** What the control's loop's stalls were since measure(). */
  report(): Promise<IdleLoopReport> {
    return this.ask('report') as Promise<IdleLoopReport>;
  }

  close(): void {
    this.child.disconnect();
  }

  private ask(request: IdleLoopRequest): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`the idle loop exited with code ${code}`));
      this.child.once('exit', exited);
      this.child.once('message', (reply) => {
        this.child.off('exit', exited);
        resolve(reply);
      });
      this.child.send(request);
    });
  }
}
