// Waiting on a promise that the Reflector must be able to abandon the moment its AbortSignal fires:
// a ListerWatcher that ignores the signal must not keep a stopped Reflector alive, and whatever it
// delivers late (an open watch) must still be released.

/** A promise that resolves once `signal` aborts; dispose() detaches it when no longer needed. */
export interface AbortNotice {
  readonly promise: Promise<void>;
  dispose(): void;
}

export function whenAborted(signal: AbortSignal): AbortNotice {
  if (signal.aborted) return { promise: Promise.resolve(), dispose: () => {} };
  let onAbort: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    onAbort = () => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}

export type UntilAborted<T> = { aborted: true } | { aborted: false; value: T };

/**
 * Awaits `promise` unless `signal` aborts first. A value that arrives after the abort goes to
 * `discard` (e.g. to stop a watcher nobody will read); a late rejection is dropped. Rejects with the
 * promise's error when it fails before the abort.
 */
export async function untilAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal,
  discard?: (value: T) => void,
): Promise<UntilAborted<T>> {
  const abandon = () => {
    promise.then(
      (value) => discard?.(value),
      () => {},
    );
  };
  if (signal.aborted) {
    abandon();
    return { aborted: true };
  }
  const notice = whenAborted(signal);
  try {
    const outcome = await Promise.race<UntilAborted<T>>([
      promise.then((value) => ({ aborted: false, value })),
      notice.promise.then(() => ({ aborted: true })),
    ]);
    if (outcome.aborted) abandon();
    return outcome;
  } finally {
    notice.dispose();
  }
}

/** Sleeps on the clock-driven `sleep`; false when the signal aborted first. */
export async function sleepUnlessAborted(
  sleep: (delayMs: number, signal: AbortSignal) => Promise<void>,
  delayMs: number,
  signal: AbortSignal,
): Promise<boolean> {
  if (signal.aborted) return false;
  try {
    await sleep(delayMs, signal);
    return !signal.aborted;
  } catch (error) {
    if (signal.aborted) return false;
    throw error;
  }
}
