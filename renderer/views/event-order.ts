// Events ordered as kubectl events and k9s order them: by when they were last seen, newest first. The
// time is the Events table's Last Seen cell (series.lastObservedTime, else lastTimestamp, else the
// first sighting), so the tab and the table never disagree about which event is newest.
import type { KubeObject } from '../../shared/kube/object';
import { eventOccurrences } from '../../shared/kinds/columns/cluster';

/** When the event was last seen (epoch ms); its creation when it carries no time of its own, else 0. */
export function eventLastSeen(event: KubeObject): number {
  const created = event.metadata.creationTimestamp;
  return eventOccurrences(event).lastSeen ?? (created ? Date.parse(created) || 0 : 0);
}

/** `events` newest first by last seen; ties keep the server's order. */
export function eventsNewestFirst<T extends KubeObject>(events: readonly T[]): T[] {
  return events
    .map((event) => ({ event, time: eventLastSeen(event) }))
    .sort((left, right) => right.time - left.time)
    .map((entry) => entry.event);
}
