// When the mirror may notify the UI: at most once per animation frame. Injected, so tests drive frames
// by hand and Node needs no DOM.

/** Runs a callback before the next frame; repeated requests before it runs are one request. */
export interface FrameScheduler {
  requestFrame(callback: () => void): void;
}

/**
 * requestAnimationFrame, falling back to a timer while the document is hidden: rAF stops in hidden
 * windows, and batches must still be applied (and acknowledged) there, or main would hold them back.
 */
export function animationFrameScheduler(hiddenIntervalMs = 250): FrameScheduler {
  return {
    requestFrame(callback) {
      let done = false;
      const once = () => {
        if (done) return;
        done = true;
        callback();
      };
      requestAnimationFrame(once);
      if (typeof document !== 'undefined' && document.hidden) setTimeout(once, hiddenIntervalMs);
    },
  };
}

/** A scheduler whose frames run only when runFrame() is called. */
export class ManualFrameScheduler implements FrameScheduler {
  private callbacks: (() => void)[] = [];

  requestFrame(callback: () => void): void {
    this.callbacks.push(callback);
  }

  get pendingFrames(): number {
    return this.callbacks.length;
  }

  runFrame(): void {
    const callbacks = this.callbacks;
    this.callbacks = [];
    for (const callback of callbacks) callback();
  }
}
