// The Reflector's periodic resync (client-go startResync): while a watch runs, every resync period it
// asks shouldResync and calls store.resync(), which a DeltaFIFO turns into Sync deltas so that
// handlers see every known object again.
import type { Clock, Timer } from './clock';
import type { Store } from './store';

export interface ResyncTimer {
  /** Aborted, with the error as its reason, when store.resync() throws; the ticking stops then. */
  readonly failed: AbortSignal;
  /** Cancels the pending tick; no resync happens afterwards. */
  stop(): void;
}

/**
 * Arms a timer for `periodMs` (none when it is 0) and re-arms it after each tick, so ticks are a
 * period apart from the end of the previous resync, like client-go's re-created timer.
 */
export function startResync<T>(
  clock: Clock,
  periodMs: number,
  store: Pick<Store<T>, 'resync'>,
  shouldResync?: () => boolean,
): ResyncTimer {
  const failed = new AbortController();
  let timer: Timer | undefined;
  let stopped = false;
  const arm = () => {
    if (periodMs <= 0 || stopped) return;
    timer = clock.setTimeout(() => {
      timer = undefined;
      if (stopped) return;
      if (!shouldResync || shouldResync()) {
        try {
          store.resync();
        } catch (error) {
          failed.abort(error);
          return;
        }
      }
      arm();
    }, periodMs);
  };
  arm();
  return {
    failed: failed.signal,
    stop: () => {
      stopped = true;
      timer?.stop();
    },
  };
}
