// What the window shows while it travels, derived in one place so no part of it can fall back to the
// present: the replay's status and whether it holds the whole moment, the table's "rebuilding"
// message until it does, the sidebar's counts at the moment, and the namespaces recorded then.
import { useEffect, useRef, useState } from 'react';
import type { GroupVersionResource } from '../../shared/kube/object';
import type { ReplayStatus } from '../store/mirror-state';
import type { TravelState } from '../ui-state/view-store';
import { useMirrorState } from './app-context';
import { formatCount } from './format';
import type { CatalogKind } from './kind-catalog';
import { formatClock } from './timeline-format';
import { replayHolds, useReplayAt } from './timeline-replay';
import { usePastCounts } from './use-past-counts';
import { useSubscription } from './use-subscription';

export interface TravelView {
  readonly status: ReplayStatus | undefined;
  /** Every row of the travel moment is in the replay mirror (see replayHolds). */
  readonly holds: boolean;
  /** While it does not: what the table says instead of showing rows. */
  readonly pending?: string;
  /** The open kind's count at the moment, known from the first cursor of its rebuild. */
  readonly activeCount?: number;
  /** Every recorded kind's count at the moment; 'unknown' until main has answered. */
  readonly counts: Readonly<Record<string, number>> | 'unknown';
}

/** The past as the window shows it, or undefined while live. */
export function useTravelView(
  kind: CatalogKind,
  travel: TravelState | undefined,
  replayId: string | undefined,
): TravelView | undefined {
  const status = useMirrorState((mirror) => (replayId ? mirror.replays[replayId] : undefined));
  const counts = usePastCounts(travel?.time, travel?.playing ?? false);
  if (!travel) return undefined;
  const holds = replayHolds(status, travel);
  const title = kind.title.toLowerCase();
  // The status of the travel moment, whose total is known once main has read it (before its rows
  // have all arrived).
  const shown = holds || status?.time === travel.time ? status : undefined;
  const pending = holds
    ? undefined
    : shown?.total !== undefined && shown.rebuilt < shown.total
      ? `Rebuilding ${title} at ${formatClock(travel.time)}: ${formatCount(shown.rebuilt)} of ${formatCount(shown.total)}…`
      : `Reading ${title} at ${formatClock(travel.time)} from the recording…${shown?.rebuilt ? ` ${formatCount(shown.rebuilt)} so far` : ''}`;
  return {
    status,
    holds,
    ...(pending ? { pending } : {}),
    ...(shown?.total !== undefined ? { activeCount: shown.total } : {}),
    counts: counts ?? 'unknown',
  };
}

const namespacesResource: GroupVersionResource = { group: '', version: 'v1', resource: 'namespaces' };

/** The subscription holding the namespaces to pick from: live ones, or those recorded at the moment. */
export function useNamespacesAt(travelTime: number | undefined): string | undefined {
  const live = useSubscription(travelTime === undefined ? namespacesResource : undefined);
  const past = useReplayAt(travelTime === undefined ? undefined : namespacesResource, travelTime);
  return travelTime === undefined ? live : past.replayId;
}

/** The least wall time between two moments the detail pane follows while playback moves. */
const detailSpacingMs = 500;

/**
 * The moment the detail pane shows: the travel moment itself while paused, and while playing the
 * moment as of at most detailSpacingMs ago, so its YAML, Events and Owners are asked for a few times a
 * second rather than on every cursor.
 */
export function useDetailMoment(travel: TravelState | undefined): number | undefined {
  const time = travel?.time;
  const playing = travel?.playing ?? false;
  const [spaced, setSpaced] = useState(time);
  const lastAt = useRef(0);
  useEffect(() => {
    const wait = playing ? lastAt.current + detailSpacingMs - Date.now() : 0;
    const show = () => {
      lastAt.current = Date.now();
      setSpaced(time);
    };
    if (wait <= 0) return show();
    const timer = setTimeout(show, wait);
    return () => clearTimeout(timer);
  }, [time, playing]);
  return playing ? spaced : time;
}
