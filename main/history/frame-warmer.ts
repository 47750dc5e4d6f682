// Work a history query worker does while nothing is asked of it: decoding a recording's newest row
// frames (MomentRows.warming) ahead of the first travel, a step at a time. Each step is its own task,
// so a question that comes meanwhile is answered after at most one step (a frame's decode: a few ms
// for a delta frame, a few hundred for a full frame of 150,000 rows), with whatever was decoded.
//
// A travel asks the worker twice, its moment's size and then its rows, main answering in between: a
// step run in that gap (a full frame's decode, the newest state's refresh) came ahead of the rows the
// user waits for. Held (hold, from the size's question until the rows are answered: release), the
// warming takes no step; it goes on where it was once released (a travel superseded between its two
// questions leaves it held until the next travel's rows: warming only saves travels work).
//
// A task given to `soon` (the live rows' comparison with the newest state, asked with a journal's
// last piece every 2 s under churn: up to a second of the worker on a loaded machine) runs the same
// way, after the question that asked it is answered, so a travel asked meanwhile goes first.

interface Warming {
  readonly file: string;
  readonly steps: Generator<void, void>;
  /** Called once the steps are done (or given up). */
  readonly waiting: (() => void)[];
}

export class FrameWarmer {
  private running: Warming | undefined;
  private held = false;
  /** The warming whose next step waits for release (it was due while held). */
  private waitingStep: Warming | undefined;
  /** The task given to soon, until it runs. */
  private task: (() => void) | undefined;
  private taskDue = false;

  /**
   * Runs `task` in a task of its own once no question is being answered and none holds (see hold); a
   * task given before that one ran is replaced by it (it brings the same thing up to date). A task
   * that fails is dropped: it only saved a travel work that the travel then does.
   */
  soon(task: () => void): void {
    this.task = task;
    this.runTaskSoon();
  }

  /** Takes no step until release (see above); a warming asked meanwhile waits too. */
  hold(): void {
    this.held = true;
  }

  /** Lets the warming go on, a step per task, if one waits. */
  release(): void {
    this.held = false;
    const waiting = this.waitingStep;
    this.waitingStep = undefined;
    if (waiting !== undefined) setImmediate(() => this.step(waiting));
    this.runTaskSoon();
  }

  private runTaskSoon(): void {
    if (this.taskDue || this.held || this.task === undefined) return;
    this.taskDue = true;
    setImmediate(() => {
      this.taskDue = false;
      // Held meanwhile: release runs it.
      if (this.held) return;
      const task = this.task;
      this.task = undefined;
      try {
        task?.();
      } catch {
        // See soon.
      }
    });
  }

  /**
   * Runs `steps` (of the recording `file`) between questions, then calls `done`. Asked again for the
   * file it is warming, it calls `done` when that warming ends; asked for another, it gives the
   * running one up (its askers are told it is done) and starts anew.
   */
  warm(file: string, steps: () => Generator<void, void>, done: () => void): void {
    const running = this.running;
    if (running?.file === file) {
      running.waiting.push(done);
      return;
    }
    const warming: Warming = { file, steps: steps(), waiting: [done] };
    if (running) this.finish(running);
    this.running = warming;
    setImmediate(() => this.step(warming));
  }

  private step(warming: Warming): void {
    if (this.running !== warming) return;
    if (this.held) {
      this.waitingStep = warming;
      return;
    }
    let more: boolean;
    try {
      more = warming.steps.next().done !== true;
    } catch {
      // A cache warmed ahead: a failure only leaves the travel to decode what it needs.
      more = false;
    }
    if (more) setImmediate(() => this.step(warming));
    else this.finish(warming);
  }

  private finish(warming: Warming): void {
    if (this.running === warming) this.running = undefined;
    if (this.waitingStep === warming) this.waitingStep = undefined;
    warming.steps.return();
    for (const done of warming.waiting.splice(0)) done();
  }
}
