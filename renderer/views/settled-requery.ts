// Re-queries a kind's rows when its mirror's revision settles (see RevisionSettler), in a task of its
// own rather than in the frame that applied the rows. Under churn a settle came from the mirror's
// subscription inside the animation frame that applied a batch: the window rendered for the settled
// revision, its layout effect ran the query there (a copy of the name order, 150,000 keys at that
// size) and the window rendered the answer again, all in that frame, after the batch's apply and
// before its style, layout and paint. In the ui churn traces those frames were the page's long
// tasks. Here a settle only posts a task: the frame applies the batch and repaints the visible rows
// (ResourceView follows every revision itself), and the task runs the query and hands its answer to
// one render. Settles that come while a task is pending are answered by it: it reads the newest rows.
// Plain TypeScript on injected timers (useKindRows binds it to React).
import type { MirrorStateStore } from '../store/mirror-state';
import { followSettledRevision } from './settled-revision';
import type { FollowOptions } from './settled-revision';

export type RequeryOptions = Omit<FollowOptions, 'settle'> & {
  /** Runs the query against the rows as they are now and publishes its answer. */
  readonly requery: () => void;
};

/**
 * Follows `subscriptionId`'s settled revision of `store` (see followSettledRevision) and runs
 * `requery` in a task after each settle, at most one pending; returns the function that stops both.
 */
export function followSettledRequeries(
  store: MirrorStateStore,
  subscriptionId: string | undefined,
  options: RequeryOptions,
): () => void {
  let task: unknown;
  const run = (): void => {
    task = undefined;
    options.requery();
  };
  const stop = followSettledRevision(store, subscriptionId, {
    ...options,
    settle: () => {
      task ??= options.setTimer(run, 0);
    },
  });
  return () => {
    stop();
    if (task !== undefined) options.clearTimer(task);
    task = undefined;
  };
}
