// The Events tab: core/v1 Events whose involvedObject is the selected object, last seen newest first
// (series.lastObservedTime, then lastTimestamp, then eventTime, as kubectl events orders), warnings
// highlighted. Events are asked for once per open (listEvents), so a pane never holds a watch of its own.
import type { ReactNode } from 'react';
import type { KubeObject } from '../../shared/kube/object';
import { formatAge } from './format';
import { eventLastSeen, eventsNewestFirst } from './event-order';
import { useNow } from '../ui-state/now';

interface EventFields {
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  source?: { component?: string };
  reportingComponent?: string;
}

export function EventsTab(props: {
  readonly events: readonly KubeObject[] | undefined;
  readonly error?: string;
}): ReactNode {
  const now = useNow();
  if (props.error) return <div className="detail-message error">{props.error}</div>;
  if (!props.events) return <div className="detail-message">Loading events…</div>;
  if (props.events.length === 0) {
    return (
      <div className="detail-message">
        No events for this object. The API server keeps events for one hour by default (--event-ttl).
      </div>
    );
  }
  const sorted = eventsNewestFirst(props.events as readonly (EventFields & KubeObject)[]);
  return (
    <div className="detail-section" data-testid="events">
      <ul className="event-list">
        {sorted.map((event) => {
          const time = eventLastSeen(event);
          return (
            <li
              key={event.metadata.uid ?? event.metadata.name}
              className={`event${event.type === 'Warning' ? ' warning' : ''}`}
            >
              <div className="event-head">
                <span className="event-reason">{event.reason ?? 'Event'}</span>
                {event.count && event.count > 1 ? <span className="muted">×{event.count}</span> : null}
                <span className="event-when" title={time ? new Date(time).toISOString() : undefined}>
                  {time ? `${formatAge(time, now)} ago` : ''}
                  {event.source?.component || event.reportingComponent
                    ? ` · ${event.source?.component ?? event.reportingComponent}`
                    : ''}
                </span>
              </div>
              {event.message && <div className="event-message">{event.message}</div>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
