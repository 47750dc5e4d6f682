// The historyTimeline reply from the query worker's figures: marks in the protocol's shape, and the
// retention that bounds the span (only the live recording has one: an imported file's span is all
// there is).
import type { HistoryTimeline, RecordingSource } from '../../shared/protocol/history-messages';
import type { TimelineFigures } from '../history/query-protocol';
import type { RetentionPolicy } from '../history/retention';

/**
 * Below this, the recording's end trails now by no more than its batches' flush interval and a
 * write (about a second or two): not worth a word.
 */
export const writingBehindShownMs = 5_000;

/** `writingBehindMs`: how far the live recording's end trails now (see Recorder.writingBehindMs). */
export function timelineReply(
  figures: TimelineFigures,
  source: RecordingSource,
  retention: RetentionPolicy | undefined,
  writingBehindMs = 0,
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
    ...(writingBehindMs >= writingBehindShownMs ? { writingBehindMs } : {}),
    from,
    to,
    density,
    marks,
  };
}
