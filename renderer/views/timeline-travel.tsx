// Time travel as the window uses it: the replay mirror of the active kind, ages pinned to the travel
// moment, and the moves between moments (to a time, to the previous/next change of the selected
// object, back to live, which also closes an imported recording).
import { useCallback, useEffect } from 'react';
import type { GroupVersionResource } from '../../shared/kube/object';
import { pinNow } from '../ui-state/now';
import type { TravelState } from '../ui-state/view-store';
import { useServices } from './app-context';
import { messageOf } from './message-of';
import { useReplay } from './timeline-replay';

export interface TimeTravel {
  /** The replay subscription the table reads while travelling; undefined while live. */
  readonly replayId: string | undefined;
  readonly travelTo: (time: number) => void;
  readonly goLive: () => void;
  readonly stepChange: (direction: 'previous' | 'next') => void;
}

export function useTimeTravel(
  gvr: GroupVersionResource,
  travel: TravelState | undefined,
  speed: number,
): TimeTravel {
  const { bridge, view } = useServices();
  const update = view.setState;
  const replayId = useReplay(gvr, travel, speed);
  const travelTime = travel?.time;
  useEffect(() => pinNow(travelTime), [travelTime]);

  const travelTo = useCallback((time: number) => update({ travel: { time, playing: false } }), [update]);
  const goLive = useCallback(() => {
    if (view.getState().importedRecording !== undefined) {
      bridge.history({ type: 'historyLive' }).catch(() => undefined);
    }
    update({ travel: undefined, importedRecording: undefined });
  }, [bridge, view, update]);
  const stepChange = useCallback(
    (direction: 'previous' | 'next') => {
      const key = view.getState().selectedKey;
      if (key === undefined) return;
      const name = key.split('/').pop() ?? key;
      const namespace = key.includes('/') ? key.slice(0, key.lastIndexOf('/')) : undefined;
      bridge
        .history<{ time: number } | null>({
          type: 'historyAdjacent',
          object: { gvr, name, ...(namespace ? { namespace } : {}) },
          time: view.getState().travel?.time ?? Date.now(),
          direction,
        })
        .then(
          (change) =>
            change
              ? travelTo(change.time)
              : update({ notice: `No ${direction === 'previous' ? 'earlier' : 'later'} change of ${name}` }),
          (error: unknown) => update({ notice: `Cannot step: ${messageOf(error)}` }),
        );
    },
    // gvr is identified by its fields; the view store and bridge are stable.
    [bridge, view, gvr.group, gvr.version, gvr.resource, travelTo, update],
  );
  return { replayId, travelTo, goLive, stepChange };
}
