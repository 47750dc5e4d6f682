// Opens a log stream for as long as a view shows it, into a fresh LogSession each time the target or
// the options change (another container, previous, since, tail), and closes it on unmount.
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { LogOptions, LogTarget } from '../../../shared/protocol/log-messages';
import { LogSession } from '../../store/log-session';
import type { ViewBridge } from '../../ui-state/view-bridge';

/** The session of the current stream and its revision (re-rendering the caller on every change). */
export function useLogStream(
  bridge: ViewBridge,
  target: LogTarget | undefined,
  options: LogOptions,
  capacity: number,
): { session: LogSession; revision: number } {
  const key = JSON.stringify([target, options, capacity]);
  const [session, setSession] = useState(() => new LogSession(capacity));
  useEffect(() => {
    const fresh = new LogSession(capacity);
    setSession(fresh);
    if (!target) return;
    const stream = bridge.openLogs(
      target,
      options,
      (message) => fresh.receive(message),
      () =>
        fresh.restart({
          kind: 'resumed',
          message: 'reconnected to main: the log is read again from its tail',
          time: Date.now(),
        }),
    );
    stream.opened.catch((error: unknown) =>
      fresh.addNote({
        kind: 'failed',
        message: `Could not open the logs: ${error instanceof Error ? error.message : String(error)}`,
        time: Date.now(),
      }),
    );
    return () => stream.close();
    // key holds target, options and capacity by value.
  }, [bridge, key]);
  const revision = useSyncExternalStore(
    (listener) => session.subscribe(listener),
    () => session.revision,
  );
  return { session, revision };
}
