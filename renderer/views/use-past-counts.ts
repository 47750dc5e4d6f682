// The sidebar's counts while the view shows the past: what each recorded kind held at the travel
// moment (historyCounts), never today's. One question at a time: while playback moves the moment,
// the next is asked once the previous answer is in (and at least SideViewAsks's spacing after the
// last question), for the moment reached by then.
import { useEffect, useRef, useState } from 'react';
import { useServices } from './app-context';
import { useSideViewAsk } from './use-side-view-ask';

/**
 * Counts per kind id (gvrKey) at `time`; undefined while live and until the answer for `time` is in.
 * While playing, the last answer stands for the moment (it lags by one question, never shows today).
 * When to ask is useSideViewAsk's: a question that failed is asked again, as after a new connection.
 */
export function usePastCounts(
  time: number | undefined,
  playing: boolean,
): Readonly<Record<string, number>> | undefined {
  const { bridge } = useServices();
  const [counts, setCounts] = useState<{ time: number; counts: Record<string, number> } | undefined>();
  const latest = useRef(time);
  latest.current = time;

  useEffect(() => {
    if (time === undefined) setCounts(undefined);
  }, [time]);

  // Live again: the next travel asks afresh, even for the moment asked last.
  useSideViewAsk(
    time,
    (asked) =>
      bridge.history<Record<string, number>>({ type: 'historyCounts', time: asked }).then((value) => {
        // Live again meanwhile: these counts are of no moment on screen.
        if (latest.current !== undefined) setCounts({ time: asked, counts: value });
      }),
    time === undefined,
  );

  if (time === undefined || !counts) return undefined;
  return playing || counts.time === time ? counts.counts : undefined;
}
