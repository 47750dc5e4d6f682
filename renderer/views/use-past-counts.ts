// The sidebar's counts while the view shows the past: what each recorded kind held at the travel
// moment (historyCounts), never today's. One question at a time: while playback moves the moment,
// the next is asked once the previous answer is in (and at least SideViewAsks's spacing after the
// last question), for the moment reached by then.
import { useEffect, useRef, useState } from 'react';
import { useMirrorState, useServices } from './app-context';
import { SideViewAsks } from './side-view-asks';

/**
 * Counts per kind id (gvrKey) at `time`; undefined while live and until the answer for `time` is in.
 * While playing, the last answer stands for the moment (it lags by one question, never shows today).
 * When to ask is SideViewAsks's: a question that failed is asked again, as after a new connection.
 */
export function usePastCounts(
  time: number | undefined,
  playing: boolean,
): Readonly<Record<string, number>> | undefined {
  const { bridge } = useServices();
  const connected = useMirrorState((state) => state.connection.phase === 'open');
  const [counts, setCounts] = useState<{ time: number; counts: Record<string, number> } | undefined>();
  const asks = useRef(new SideViewAsks());
  const inFlight = useRef(false);
  const [wake, setWake] = useState(0);
  const latest = useRef(time);
  latest.current = time;

  useEffect(() => {
    if (time !== undefined) return;
    // Live: the next travel asks afresh, even for the moment asked last.
    setCounts(undefined);
    asks.current = new SideViewAsks();
  }, [time]);

  useEffect(() => {
    if (!connected) asks.current.reset();
  }, [connected]);

  useEffect(() => {
    if (time === undefined || !connected) return;
    const current = asks.current;
    const step = current.next(time, !inFlight.current, Date.now());
    if (step === undefined) return;
    if (step !== 'ask') {
      const timer = setTimeout(() => setWake((count) => count + 1), step);
      return () => clearTimeout(timer);
    }
    current.asking(time, Date.now());
    inFlight.current = true;
    const asked = time;
    bridge.history<Record<string, number>>({ type: 'historyCounts', time: asked }).then(
      (value) => {
        inFlight.current = false;
        current.answered(asked);
        // Live again meanwhile: these counts are of no moment on screen.
        if (latest.current !== undefined) setCounts({ time: asked, counts: value });
      },
      (error: unknown) => {
        inFlight.current = false;
        current.failed(asked, error instanceof Error ? error.message : String(error));
        setWake((count) => count + 1);
      },
    );
    // counts changing re-runs this for a moment that moved while the question was out.
  }, [bridge, connected, time, counts, wake]);

  if (time === undefined || !counts) return undefined;
  return playing || counts.time === time ? counts.counts : undefined;
}
