// The Reflector's phase as the informer's cache reflects it (see DeltaObserver.observePhase). The
// Reflector reports "watching" as soon as a list has been queued into the DeltaFIFO; the cache holds
// the list only once every key queued by then has been popped. A DeltaFIFO pops keys in the order they
// were first queued and a key keeps its place however many deltas it gathers, so that is exactly the
// next `queued` pops, whatever the watch queues meanwhile.
import type { ReflectorState } from './reflector-options';

export class AppliedPhase {
  private listing = false;
  /** A "watching" that follows a list, held until `popsLeft` more pops. */
  private held: ReflectorState | undefined;
  private popsLeft = 0;

  constructor(private readonly deliver: (state: ReflectorState) => void) {}

  /** The Reflector changed phase; `queued` is how many keys the queue holds right now. */
  reflectorPhase(state: ReflectorState, queued: number): void {
    this.held = undefined;
    if (state.phase !== 'watching' || !this.listing || queued === 0) {
      this.listing = state.phase === 'listing';
      this.deliver(state);
      return;
    }
    this.listing = false;
    this.held = state;
    this.popsLeft = queued;
  }

  /** One key was popped (processed or not): a held "watching" is delivered after the last list key. */
  popped(): void {
    if (this.held === undefined || --this.popsLeft > 0) return;
    const state = this.held;
    this.held = undefined;
    this.deliver(state);
  }
}
