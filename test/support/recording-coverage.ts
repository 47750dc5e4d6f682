// The history invariant, checked on a recording: every instant of a stream's timeline is inside a
// marked gap (of the stream or of the whole recording) or in a live window, which starts with a list
// being in the cache (a relist mark) and lasts until the next gap starts.
import type { RecordingReader } from '../../main/history/recording-reader';
import { recordingMarks } from '../../main/history/replay';

export interface Span {
  readonly start: number;
  readonly end: number;
}

/** The spans of [from, to] where `gvr`'s timeline is neither in a gap nor live; [] when the invariant holds. */
export function uncoveredSpans(reader: RecordingReader, gvr: string, from: number, to: number): Span[] {
  const marks = recordingMarks(reader, from, to).filter((mark) => !mark.stream || mark.stream.gvr === gvr);
  const gaps = marks
    .filter((mark) => mark.kind === 'gap')
    .map((mark) => ({ start: mark.start, end: mark.end ?? to }));
  const covered: Span[] = [...gaps];
  for (const relist of marks.filter((mark) => mark.kind === 'relist')) {
    const next = Math.min(to, ...gaps.filter((gap) => gap.start >= relist.start).map((gap) => gap.start));
    covered.push({ start: relist.start, end: next });
  }
  covered.sort((a, b) => a.start - b.start);
  const holes: Span[] = [];
  let reached = from;
  for (const span of covered) {
    if (span.start > reached) holes.push({ start: reached, end: span.start });
    reached = Math.max(reached, span.end);
  }
  if (reached < to) holes.push({ start: reached, end: to });
  return holes;
}
