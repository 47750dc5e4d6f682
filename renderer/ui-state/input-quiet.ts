// When the user last scrolled or pressed, so work that only follows churn can wait while they do.
// Under churn at 150,000 pods a live re-query of the table (keys coming and going: the name order's
// catch-up, then the window's render of the answer) is a 20-60 ms task every 300 ms; landing between
// two wheel notches it is a skipped scroll frame. The visible rows still update in place every frame
// (the table follows the mirror's revision on its own); only which keys are listed waits, and never
// longer than `maxHoldMs` behind the rows. Keys are not held for: a typed key's own query answers the
// rows as they are, so a re-query held over typing only moved its catch-up into the keys' queries
// (keystroke p95 78 -> 127 and 69 -> 94 ms in two pairs at 50,000 pods, load 6-18).

/** Input within this long counts as the user still scrolling (a wheel flick's notches come 20-100 ms apart). */
export const inputHoldMs = 250;
/** Churn's work is never held longer than this after it became due, however long the input goes on. */
export const maxHoldMs = 1_000;

export class InputQuiet {
  private lastInput = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The user scrolled or pressed now. */
  noteInput(): void {
    this.lastInput = this.now();
  }

  /**
   * How long work that became due at `dueAt` (this clock) should still wait for the input to pause:
   * 0 when it may run now, since the last input is `inputHoldMs` old or it has waited `maxHoldMs`.
   */
  delayFor(dueAt: number): number {
    const now = this.now();
    const quietIn = this.lastInput + inputHoldMs - now;
    const limitIn = dueAt + maxHoldMs - now;
    return Math.max(0, Math.min(quietIn, limitIn));
  }
}

/** The events that mean the user is moving through the table: a wheel notch, a press, a touch's move. */
const inputEvents = ['wheel', 'pointerdown', 'touchmove'] as const;

/** Notes every input event `target` sees (captured, passive: it never delays the event); returns a stop. */
export function watchInput(target: EventTarget, quiet: InputQuiet): () => void {
  const note = (): void => quiet.noteInput();
  const options = { capture: true, passive: true };
  for (const type of inputEvents) target.addEventListener(type, note, options);
  return () => {
    for (const type of inputEvents) target.removeEventListener(type, note, options);
  };
}

/** The window's input, watched from the first call on (one listener set per page). */
export const windowInput = new InputQuiet();
let watching = false;

/** Starts watching the window's input once; a page without a window (Node tests) is never held. */
export function watchWindowInput(): InputQuiet {
  if (!watching && typeof window !== 'undefined') {
    watchInput(window, windowInput);
    watching = true;
  }
  return windowInput;
}
