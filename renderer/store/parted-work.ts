// Work on every key of a large message kept in parts, each in a task of its own of about
// partBudgetMs of the page's thread, so that taking in 150,000 keys is never one long task (a frame
// or a keystroke waits for the task under way, however useful its work). Cut by time, not by count:
// the cost of a key varies several times over (one first seen, one already held).

/** The most of the page's thread one part should take. */
export const partBudgetMs = 8;
/** Keys worked between two looks at the clock. */
export const keysPerStep = 1_024;

/** Where the parts run: `schedule` runs a task later (returning its cancel), `now` reads the budget's clock. */
export interface PartTasks {
  schedule(task: () => void): () => void;
  now(): number;
}

export const pageTasks: PartTasks = {
  schedule: (task) => {
    const timer = setTimeout(task, 0);
    return () => clearTimeout(timer);
  },
  now: () => performance.now(),
};

/** Work being kept in parts. */
export interface PartedWork {
  /** Every part is done (or the work was cancelled). */
  readonly over: boolean;
  /** Does what is left now, in this task, then `done` (nothing once over). */
  finish(): void;
  /** Drops what is left: `done` is never called. */
  cancel(): void;
}

/**
 * Runs `step` in parts, the first now and each next in a task of its own: a part calls `step` with
 * `more`, true while the part's budget lasts, and `step` returns true once the whole work is done;
 * then `done` runs, in that part's task.
 */
export function runInParts(
  step: (more: () => boolean) => boolean,
  done: () => void,
  tasks: PartTasks,
): PartedWork {
  let over = false;
  let cancelNext = (): void => undefined;
  const complete = (): void => {
    over = true;
    done();
  };
  const part = (): void => {
    const deadline = tasks.now() + partBudgetMs;
    if (step(() => tasks.now() < deadline)) complete();
    else cancelNext = tasks.schedule(part);
  };
  part();
  return {
    get over() {
      return over;
    },
    finish: () => {
      if (over) return;
      cancelNext();
      step(() => true);
      complete();
    },
    cancel: () => {
      cancelNext();
      over = true;
    },
  };
}
