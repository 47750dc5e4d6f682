// The renderer's frames outside a browser: what requestAnimationFrame gives a visible window, on timers.
import type { FrameScheduler } from '../../renderer/store/frame-scheduler';

/** Requests a frame at most every 16 ms, like requestAnimationFrame in a visible window. */
export function timerFrameScheduler(): FrameScheduler {
  let pending: (() => void)[] | undefined;
  return {
    requestFrame(callback) {
      if (pending) return void pending.push(callback);
      pending = [callback];
      setTimeout(() => {
        const callbacks = pending ?? [];
        pending = undefined;
        for (const run of callbacks) run();
      }, 16);
    },
  };
}
