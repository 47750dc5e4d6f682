// The one loop by which a view beside the table asks main about the travel moment (the Children tab's
// and the namespace picker's replays, the sidebar's past counts): SideViewAsks says when, this hook
// runs its steps on the window's timers and the link's state.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useMirrorState } from './app-context';
import { messageOf } from './message-of';
import { SideViewAsks } from './side-view-asks';

/**
 * Calls `ask(time)` whenever SideViewAsks says to: at once, then for each new moment once the last is
 * complete (`complete`, or by default its answer being in), again after a failure or a new connection.
 * `ask` undefined: nothing can be asked yet. A new `scope` (a new replay, the view live again) starts
 * afresh. Returns the asks, for the moment asked last and the last failure's error.
 */
export function useSideViewAsk(
  time: number | undefined,
  ask: ((time: number) => Promise<unknown>) | undefined,
  scope: unknown,
  complete?: boolean,
): SideViewAsks {
  const connected = useMirrorState((state) => state.connection.phase === 'open');
  const asks = useMemo(() => new SideViewAsks(), [scope]);
  const latestAsk = useRef(ask);
  latestAsk.current = ask;
  const inFlight = useRef(false);
  const [wake, setWake] = useState(0);
  const canAsk = ask !== undefined;

  useEffect(() => {
    if (!connected) asks.reset();
  }, [asks, connected]);

  useEffect(() => {
    const current = latestAsk.current;
    if (!current || time === undefined || !connected) return;
    const step = asks.next(time, complete ?? !inFlight.current, Date.now());
    if (step === undefined) return;
    if (step !== 'ask') {
      const timer = setTimeout(() => setWake((count) => count + 1), step);
      return () => clearTimeout(timer);
    }
    asks.asking(time, Date.now());
    inFlight.current = true;
    current(time).then(
      () => {
        inFlight.current = false;
        asks.answered(time);
        setWake((count) => count + 1);
      },
      (error: unknown) => {
        inFlight.current = false;
        asks.failed(time, messageOf(error));
        setWake((count) => count + 1);
      },
    );
  }, [asks, canAsk, time, complete, connected, wake]);

  return asks;
}
