// The sidebar's counts while the view shows the past: what each recorded kind held at the travel
// moment (historyCounts), never today's. One question at a time: while playback moves the moment,
// the next is asked once the previous answer is in (and at least spacingMs after the last question),
// for the moment reached by then.
import { useEffect, useRef, useState } from 'react';
import { useMirrorState, useServices } from './app-context';

/** The least wall time between two questions while the travel moment moves. */
const spacingMs = 500;

/**
 * Counts per kind id (gvrKey) at `time`; undefined while live and until the answer for `time` is in.
 * While playing, the last answer stands for the moment (it lags by one question, never shows today).
 */
export function usePastCounts(
  time: number | undefined,
  playing: boolean,
): Readonly<Record<string, number>> | undefined {
  const { bridge } = useServices();
  const connected = useMirrorState((state) => state.connection.phase === 'open');
  const [counts, setCounts] = useState<{ time: number; counts: Record<string, number> } | undefined>();
  const inFlight = useRef(false);
  const lastAskedAt = useRef(0);
  const [wake, setWake] = useState(0);
  const latest = useRef(time);
  latest.current = time;

  useEffect(() => {
    if (time === undefined) setCounts(undefined);
  }, [time]);

  useEffect(() => {
    if (time === undefined || !connected || inFlight.current || counts?.time === time) return;
    const wait = lastAskedAt.current + spacingMs - Date.now();
    if (wait > 0) {
      const timer = setTimeout(() => setWake((count) => count + 1), wait);
      return () => clearTimeout(timer);
    }
    lastAskedAt.current = Date.now();
    inFlight.current = true;
    const asked = time;
    bridge.history<Record<string, number>>({ type: 'historyCounts', time: asked }).then(
      (value) => {
        inFlight.current = false;
        // Live again meanwhile: these counts are of no moment on screen.
        if (latest.current !== undefined) setCounts({ time: asked, counts: value });
      },
      () => {
        inFlight.current = false;
      },
    );
    // counts changing re-runs this for a moment that moved while the question was out.
  }, [bridge, connected, time, counts, wake]);

  if (time === undefined || !counts) return undefined;
  return playing || counts.time === time ? counts.counts : undefined;
}
