// The historyTimeline reply from the query worker's figures: marks in the protocol's shape, and the
// retention that bounds the span (only the live recording has one: an imported file's span is all
// there is).
import type { HistoryTimeline, RecordingSource } from '../../shared/protocol/history-messages';
import type { TimelineFigures } from '../history/query-protocol';
import type { RetentionPolicy } from '../history/retention';

export function timelineReply(
  figures: TimelineFigures,
  source: RecordingSource,
  retention: RetentionPolicy | undefined,
): HistoryTimeline {
  const marks = figures.marks.map((mark) => ({
    kind: mark.kind,
    reason: mark.reason,
    start: mark.start,
    detail: mark.detail,
    ...(mark.end !== undefined ? { end: mark.end } : {}),
    ...(mark.stream ? { gvr: mark.stream.gvr } : {}),
  }));
  const { range, from, to, density } = figures;
  return {
    source,
    ...(range ? { range } : {}),
    ...(retention && (retention.maxAgeMs !== undefined || retention.maxBytes !== undefined)
      ? { retention: { ...retention } }
      : {}),
    from,
    to,
    density,
    marks,
  };
}
