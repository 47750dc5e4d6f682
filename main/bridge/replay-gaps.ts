// The recording's gaps as a replay's cursor reports them: the gap a moment is in, if any, for the
// renderer to show that moment as not recorded rather than as recorded.
import type { ReplayGap } from '../../shared/protocol/history-messages';
import type { RecordingMark } from '../history/recorded-change';

/** A recording's gap mark as the cursor reports it. */
export function replayGapOf(mark: RecordingMark | undefined): ReplayGap | undefined {
  return (
    mark && {
      reason: mark.reason,
      detail: mark.detail,
      start: mark.start,
      ...(mark.end !== undefined ? { end: mark.end } : {}),
    }
  );
}

/**
 * The gap covering `time` for the kind `gvr` (or for the whole recording), as the cursor reports it. A
 * gap covers [start, end): at its end the list that closed it is in the recording.
 */
export function gapCovering(
  marks: readonly RecordingMark[],
  gvr: string,
  time: number,
): ReplayGap | undefined {
  const mark = marks.find(
    (candidate) =>
      candidate.kind === 'gap' &&
      (candidate.stream === undefined || candidate.stream.gvr === gvr) &&
      candidate.start <= time &&
      (candidate.end === undefined || candidate.end > time),
  );
  return replayGapOf(mark);
}

/**
 * The gap covering `time`, then each gap that follows it without a break (the recorder down, then
 * the kind listing once it is back), in order.
 */
function* gapChain(marks: readonly RecordingMark[], gvr: string, time: number): Generator<ReplayGap> {
  for (let gap = gapCovering(marks, gvr, time); gap;) {
    yield gap;
    gap = gap.end === undefined ? undefined : gapCovering(marks, gvr, gap.end);
  }
}

/**
 * Where the gap covering `time` ends, if it does by `end` (the recording played); through its chain.
 * A chain ending in a list's own record still open (the list still being written when the playback
 * began: at 150,000 pods that record outlasts a minute on a loaded machine) ends at `end` for the
 * playback: all it holds up to there is the list filling in, and its latest moment holds the most
 * of it.
 */
export function gapEnd(
  marks: readonly RecordingMark[],
  gvr: string,
  time: number,
  end: number,
): number | undefined {
  let last: ReplayGap | undefined;
  for (const gap of gapChain(marks, gvr, time)) last = gap;
  if (last === undefined) return undefined;
  if (last.end === undefined) return fillsWithList(last) ? end : undefined;
  return last.end <= end ? last.end : undefined;
}

/**
 * A gap while the kind's cache is recorded whole (its first list, a relist, the resync after an
 * overflow): its changes are the list's objects one by one, written at the recording process's pace
 * (tens of recorded seconds for 150,000 pods), and a moment inside it holds only those written by then.
 */
function fillsWithList(gap: ReplayGap): boolean {
  return gap.reason === 'listing' || gap.reason === 'relisting' || gap.reason === 'queue-overflow';
}

/**
 * Whether the gaps from `time` to where they end (gapEnd's chain) hold a list's own record: all that
 * comes before their end is then nothing recorded or the list filling in.
 */
export function listFillsGapsAt(marks: readonly RecordingMark[], gvr: string, time: number): boolean {
  for (const gap of gapChain(marks, gvr, time)) if (fillsWithList(gap)) return true;
  return false;
}
