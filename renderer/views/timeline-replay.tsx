// Time travel's data path in the renderer: while the view travels, one replay mirror holds the active
// kind as it was at the travel moment (main sends it as snapshot batches, then playback as live
// batches), and the table reads it exactly as it reads a live subscription. Main's cursors, applied in
// order with those batches (MirrorState.replays), say how far the moment has been rebuilt, whether the
// recording saw it, and move the travel moment while playing.
import { useEffect, useRef, useState } from 'react';
import type { GroupVersionResource } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import type { ReplayStatus } from '../store/mirror-state';
import type { TravelState } from '../ui-state/view-store';
import { useMirrorState, useServices } from './app-context';
import { messageOf } from './message-of';
import { useSideViewAsk } from './use-side-view-ask';

/**
 * True when `status` is the whole of the travel moment: every row of it applied. Anything else (another
 * moment's rows, or a snapshot still arriving) must not be shown as that moment. While both sides play,
 * the travel moment follows the cursor itself, so a complete status is the moment shown.
 */
export function replayHolds(status: ReplayStatus | undefined, travel: TravelState | undefined): boolean {
  if (!status || !travel || !replayComplete(status)) return false;
  return status.time === travel.time || (status.playing && travel.playing);
}

/** Every row of the status's moment has been applied (its total known and reached). */
export function replayComplete(status: ReplayStatus): boolean {
  return status.total !== undefined && status.rebuilt >= status.total;
}

/**
 * The replay subscription id showing `gvr` at `travel.time`, or undefined while live. Moving the
 * moment (paused) asks for the state there; playing asks main to play from it at `speed`, and main's
 * cursors move the view's travel moment along.
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
    if (!replayId) return;
    // The travel moment follows the cursor as the store applies it, in the same update as the rows,
    // so the view never pairs one moment's label with another's rows.
    return bridge.store.state.subscribe((state, previous) => {
      const cursor = state.replays[replayId];
      if (!cursor || cursor === previous.replays[replayId]) return;
      shown.current = cursor.time;
      const current = view.getState().travel;
      if (!current) return;
      const playing = cursor.playing && current.playing;
      if (current.time !== cursor.time || current.playing !== playing)
        view.setState({ travel: { time: cursor.time, playing } });
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

/**
 * A replay mirror of `gvr` (in `namespace`, or all) at `time`, for a view beside the table (the
 * Children tab, the namespace picker): undefined while `gvr` or `time` is. When it asks for a moment,
 * and again after a failure or a new connection, is useSideViewAsk's to say; `error` is why the last
 * ask failed, while it is asked again.
 */
export function useReplayAt(
  gvr: GroupVersionResource | undefined,
  time: number | undefined,
  namespace?: string,
): { replayId: string | undefined; holds: boolean; error?: string } {
  const { bridge } = useServices();
  const [replayId, setReplayId] = useState<string | undefined>(undefined);
  const active = gvr !== undefined && time !== undefined;
  const kindKey = gvr ? gvrKey(gvr) : undefined;
  const status = useMirrorState((state) => (replayId ? state.replays[replayId] : undefined));

  useEffect(() => {
    if (!active) return;
    const id = bridge.openReplay();
    setReplayId(id);
    return () => {
      bridge.closeReplay(id);
      setReplayId(undefined);
    };
  }, [bridge, active, kindKey, namespace]);

  const complete = status !== undefined && replayComplete(status);
  const asks = useSideViewAsk(
    time,
    replayId && gvr
      ? (moment) =>
          bridge.history({
            type: 'historyState',
            subscriptionId: replayId,
            gvr,
            time: moment,
            ...(namespace ? { namespace } : {}),
          })
      : undefined,
    replayId,
    complete,
  );

  const holds = complete && status.time === asks.moment;
  const error = asks.error;
  return { replayId, holds, ...(error !== undefined ? { error } : {}) };
}
