// Time travel's data path in the renderer: while the view travels, one replay mirror holds the active
// kind as it was at the travel moment (main sends it as snapshot batches, then playback as live
// batches), and the table reads it exactly as it reads a live subscription.
import { useEffect, useRef, useState } from 'react';
import type { GroupVersionResource } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import type { TravelState } from '../ui-state/view-store';
import { useMirrorState, useServices } from './app-context';

/**
 * The replay subscription id showing `gvr` at `travel.time`, or undefined while live. Moving the
 * moment (paused) asks for the state there; playing asks main to play from it at `speed`, and main's
 * cursor messages move the view's travel moment along.
 */
export function useReplay(
  gvr: GroupVersionResource,
  travel: TravelState | undefined,
  speed: number,
): string | undefined {
  const { bridge, view } = useServices();
  const [replayId, setReplayId] = useState<string | undefined>(undefined);
  const connected = useMirrorState((state) => state.connection.phase === 'open');
  const traveling = travel !== undefined;
  const kindKey = gvrKey(gvr);
  /** The moment main's replay is known to show, so a cursor echo does not ask for it again. */
  const shown = useRef<number | undefined>(undefined);

  useEffect(() => {
    if (!traveling) return;
    const id = bridge.openReplay();
    shown.current = undefined;
    setReplayId(id);
    return () => {
      bridge.closeReplay(id);
      setReplayId(undefined);
    };
  }, [bridge, traveling, kindKey]);

  useEffect(() => {
    return bridge.onHistoryCursor((cursor) => {
      if (cursor.subscriptionId !== replayId) return;
      shown.current = cursor.time;
      const current = view.getState().travel;
      if (!current) return;
      view.setState({ travel: { time: cursor.time, playing: cursor.playing && current.playing } });
    });
  }, [bridge, view, replayId]);

  useEffect(() => {
    // A new connection has no replay on main's side: the next moment is asked for afresh.
    if (!connected) shown.current = undefined;
  }, [connected]);

  const time = travel?.time;
  const playing = travel?.playing ?? false;
  useEffect(() => {
    if (!replayId || !connected || time === undefined) return;
    if (playing) {
      void bridge
        .history({ type: 'historyPlay', subscriptionId: replayId, speed })
        .catch((error: unknown) => view.setState({ notice: `Cannot play: ${messageOf(error)}` }));
      return () => {
        void bridge.history({ type: 'historyStop', subscriptionId: replayId }).catch(() => undefined);
      };
    }
    if (shown.current === time) return;
    shown.current = time;
    void bridge
      .history({ type: 'historyState', subscriptionId: replayId, gvr, time })
      .catch((error: unknown) => view.setState({ notice: `Cannot travel: ${messageOf(error)}` }));
    // The moment is read when playback starts, not followed while it plays (main moves it).
  }, [bridge, replayId, connected, playing, speed, playing ? undefined : time]);

  return replayId;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
