// Work a history query worker does while nothing is asked of it: decoding a recording's newest row
// frames (MomentRows.warming) ahead of the first travel, a step at a time. Each step is its own task,
// so a question that comes meanwhile is answered after at most one step (a frame's decode: a few ms
// for a delta frame, a few hundred for a full frame of 150,000 rows), with whatever was decoded.

interface Warming {
  readonly file: string;
  readonly steps: Generator<void, void>;
  /** Called once the steps are done (or given up). */
  readonly waiting: (() => void)[];
}

export class FrameWarmer {
  private running: Warming | undefined;

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
    warming.steps.return();
    for (const done of warming.waiting.splice(0)) done();
  }
}
