// The sync badge's pill: a dot, the text, and a progress bar while something is being read. The live
// badge (sync-badge.tsx) and the replay badge (replay-badge.tsx) say different things in the same
// shape, and tests find either by its test id.
import type { ReactNode } from 'react';

export function StatusPill(props: {
  /** The pill's class after "sync": a phase (synced, listing, ...) or replay-PHASE. */
  readonly phase: string;
  readonly text: string;
  /** The tooltip (default: the text). */
  readonly title?: string;
  /** 0-100 while reading; absent otherwise. */
  readonly progress?: number;
}): ReactNode {
  return (
    <span
      className={`sync ${props.phase}`}
      role="status"
      aria-live="polite"
      title={props.title ?? props.text}
      data-testid="sync-state"
    >
      <span className="sync-dot" aria-hidden="true" />
      <span className="sync-text">{props.text}</span>
      {props.progress !== undefined && (
        <span className="sync-progress" aria-hidden="true">
          <span style={{ width: `${props.progress}%` }} />
        </span>
      )}
    </span>
  );
}
