// The top bar's badge while the view shows the past: the recording's state at the viewed moment, never
// the live cluster's. "rebuilding 16,000 of 50,076" until every row of the moment has arrived, then
// "recorded" where live watches covered the moment, or the gap's cause where they did not (the
// recording cannot know what happened there, so the rows are the last state it saw before).
import type { ReactNode } from 'react';
import type { ReplayGap } from '../../shared/protocol';
import type { ReplayStatus } from '../store/mirror-state';
import { StatusPill } from '../components/status-pill';

const integer = new Intl.NumberFormat('en-US');

/** Why the recording has a hole (main/history's gap reasons), in the words a user reads on the badge. */
const gapCauses: Record<string, string> = {
  'not-recording': 'not recording',
  'watch-disconnected': 'watch down',
  listing: 'listing',
  relisting: 'relisting',
  'queue-overflow': 'recording fell behind',
};

export function describeGap(gap: ReplayGap): string {
  const cause = gapCauses[gap.reason] ?? gap.reason;
  return gap.detail ? `gap · ${cause}: ${gap.detail}` : `gap · ${cause}`;
}

/**
 * What the table shows of `kind` (its title, lower case) at a moment inside `gap`, for the travel
 * banner. A listing gap's rows are not the state before it: the list is recorded a slice at a time
 * (CacheResync), each slice stamped when written, so a moment inside it holds the part recorded by
 * then (9,236 of 150,000 pods, in a ui bench run); a relist's, or a resync's after the recording fell
 * behind, holds the old rows with the part re-recorded by then. Only a watch down, or no recording,
 * leaves the rows exactly as they were last seen before the gap.
 */
export function describeGapRows(gap: ReplayGap, kind: string): string {
  if (gap.reason === 'listing')
    return `${kind} were still being listed: only those recorded by then are shown`;
  if (gap.reason === 'relisting' || gap.reason === 'queue-overflow') {
    return `${kind} were being recorded again: rows may be out of date`;
  }
  return `${kind} as last seen before the gap`;
}

/**
 * The badge's words and colour for a replay. `holds` says the status is the whole of the viewed
 * moment (see replayHolds); a status of another moment means that moment is still being read.
 */
export function describeReplay(
  status: ReplayStatus | undefined,
  holds: boolean,
): { text: string; phase: 'rebuilding' | 'recorded' | 'gap'; progress?: number } {
  if (status?.total === undefined && status?.rebuilt) {
    return { text: `reading the recording… ${integer.format(status.rebuilt)} so far`, phase: 'rebuilding' };
  }
  // No status, one of another moment, or main still reading this one: no count to show yet.
  if (!status || status.total === undefined || (!holds && status.rebuilt >= status.total)) {
    return { text: 'reading the recording…', phase: 'rebuilding' };
  }
  if (!holds) {
    return {
      text: `rebuilding ${integer.format(status.rebuilt)} of ${integer.format(status.total)}`,
      phase: 'rebuilding',
      progress: status.total > 0 ? Math.min(100, (status.rebuilt / status.total) * 100) : 0,
    };
  }
  if (status.gap) return { text: describeGap(status.gap), phase: 'gap' };
  return { text: 'recorded', phase: 'recorded' };
}

export function ReplayBadge(props: {
  readonly status: ReplayStatus | undefined;
  readonly holds: boolean;
}): ReactNode {
  const { text, phase, progress } = describeReplay(props.status, props.holds);
  return (
    <StatusPill phase={`replay-${phase}`} text={text} {...(progress !== undefined ? { progress } : {})} />
  );
}
