// The timeline strip under the table: how busy each kind was over the recording (a small stacked bar
// chart), where the recording has gaps (it cannot know what happened there) and relists, and the
// cursor. Click or drag to travel back; play, pause and pick a speed; LIVE (or Esc) comes back.
import { memo, useEffect, useMemo, useRef, useState, type PointerEvent, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { useStoreSlice } from './use-store-slice';
import type { GroupVersionResource } from '../../shared/kube/object';
import type { HistoryTimeline } from '../../shared/protocol';
import { playbackSpeeds } from '../ui-state/view-store';
import { useServices } from './app-context';
import { messageOf } from './message-of';
import { describeCoverage, formatClock, kindColour } from './timeline-format';
import { TimelineBars, timelineDensity } from './timeline-bars';

/** Density slices requested per timeline (the chart is scaled to its width). */
const buckets = 180;
/** How often a live recording's timeline is refreshed. */
const refreshMs = 2_000;

export interface TimelineProps {
  /** Travels to the previous/next change of the selected object; absent when nothing is selected. */
  readonly onStep?: (direction: 'previous' | 'next') => void;
  readonly onExport: (timeline: HistoryTimeline) => void;
  readonly onImport: () => void;
  /** Leaves time travel (and closes an imported recording). */
  readonly onLive: () => void;
  /** The table's kind, whose live rows a travel is sent against (see useTimeline). */
  readonly travelFrom?: GroupVersionResource;
}

/**
 * The recording's timeline, refreshed while it is the live one. Each question names the live
 * subscription of `travelFrom` (the table's kind), which a travel is sent against: main has its rows'
 * versions read ahead meanwhile, so the first travel costs what a later one does.
 */
function useTimeline(travelFrom: GroupVersionResource | undefined): {
  timeline: HistoryTimeline | undefined;
  error: string | undefined;
} {
  const { bridge, view } = useServices();
  const travelKind = useRef(travelFrom);
  travelKind.current = travelFrom;
  const imported = useStoreSlice(view, (state) => state.importedRecording);
  const connected = useStoreSlice(bridge.store.state, (state) => state.connection.phase === 'open');
  const [timeline, setTimeline] = useState<HistoryTimeline | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (!connected) return;
    let cancelled = false;
    const load = () => {
      const base = travelKind.current && bridge.liveMirrorOf?.(travelKind.current, undefined);
      return bridge
        .history<HistoryTimeline>({ type: 'historyTimeline', buckets, ...(base ? { base } : {}) })
        .then(
          (value) => {
            if (cancelled) return;
            // Rendered in the task whose message answered (every 2 s under churn), not in a task of
            // React's scheduler after it: one script task fewer to be stretched by the load.
            flushSync(() => {
              setTimeline(value);
              setError(undefined);
            });
          },
          (failure: unknown) => !cancelled && setError(messageOf(failure)),
        );
    };
    void load();
    const timer = imported ? undefined : setInterval(load, refreshMs);
    return () => {
      cancelled = true;
      if (timer) clearInterval(timer);
    };
  }, [bridge, connected, imported]);
  return { timeline, error };
}

function StepIcon(props: { readonly direction: 'previous' | 'next' }): ReactNode {
  return (
    <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">
      <g transform={props.direction === 'next' ? 'matrix(-1 0 0 1 12 0)' : undefined} fill="currentColor">
        <rect x="1.5" y="2" width="1.6" height="8" rx="0.5" />
        <path d="M10.5 2.4v7.2a.4.4 0 0 1-.62.33L4.6 6.33a.4.4 0 0 1 0-.66l5.28-3.6a.4.4 0 0 1 .62.33z" />
      </g>
    </svg>
  );
}

function PlayIcon(props: { readonly playing: boolean }): ReactNode {
  return (
    <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true" fill="currentColor">
      {props.playing ? (
        <>
          <rect x="2.5" y="2" width="2.4" height="8" rx="0.6" />
          <rect x="7.1" y="2" width="2.4" height="8" rx="0.6" />
        </>
      ) : (
        <path d="M3 1.9v8.2a.5.5 0 0 0 .76.43l6.6-4.1a.5.5 0 0 0 0-.86l-6.6-4.1A.5.5 0 0 0 3 1.9z" />
      )}
    </svg>
  );
}

/**
 * Memoized: the window renders on every keystroke and every live re-query, and none of them changes
 * the timeline (its own hooks follow the view's travel and the recording).
 */
export const Timeline = memo(function Timeline(props: TimelineProps): ReactNode {
  const { view } = useServices();
  const travel = useStoreSlice(view, (state) => state.travel);
  const speed = useStoreSlice(view, (state) => state.playbackSpeed);
  const imported = useStoreSlice(view, (state) => state.importedRecording);
  const { timeline, error } = useTimeline(props.travelFrom);
  const chart = useRef<HTMLDivElement>(null);
  const [dragTime, setDragTime] = useState<number | undefined>(undefined);

  const from = timeline?.from ?? 0;
  const to = timeline?.to ?? 1;
  const span = Math.max(1, to - from);
  const fraction = (time: number) => Math.min(1, Math.max(0, (time - from) / span));
  // The scale a press started on, kept until the pointer is released: a live timeline's refresh
  // (every refreshMs) moves `to`, and a pixel would otherwise mean a later moment at release than at
  // press (up to refreshMs later near the end), so the moment reached would not be the one pointed at.
  const pressScale = useRef<{ readonly from: number; readonly span: number } | undefined>(undefined);
  const timeAt = (clientX: number) => {
    const box = chart.current!.getBoundingClientRect();
    const scale = pressScale.current ?? { from, span };
    return Math.round(scale.from + Math.min(1, Math.max(0, (clientX - box.left) / box.width)) * scale.span);
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (!timeline || event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    pressScale.current = { from, span };
    setDragTime(timeAt(event.clientX));
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (dragTime !== undefined) setDragTime(timeAt(event.clientX));
  };
  const onPointerCancel = () => {
    pressScale.current = undefined;
    setDragTime(undefined);
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (dragTime === undefined) return;
    const time = timeAt(event.clientX);
    pressScale.current = undefined;
    setDragTime(undefined);
    view.setState({ travel: { time, playing: false } });
  };

  const density = useMemo(() => timelineDensity(timeline, buckets), [timeline]);
  const cursorTime = dragTime ?? travel?.time;
  const playing = travel?.playing ?? false;

  return (
    <section
      className={`timeline${travel ? ' traveling' : ''}`}
      aria-label="Timeline"
      data-testid="timeline"
      data-from={from}
      data-to={to}
    >
      <div className="timeline-controls">
        <button
          type="button"
          className="timeline-button"
          title="Previous change of the selected object ([)"
          aria-label="Previous change"
          disabled={!props.onStep}
          onClick={() => props.onStep?.('previous')}
        >
          <StepIcon direction="previous" />
        </button>
        <button
          type="button"
          className="timeline-button play"
          data-testid="timeline-play"
          title={playing ? 'Pause (Space)' : 'Play from the cursor (Space)'}
          aria-label={playing ? 'Pause' : 'Play'}
          disabled={!travel}
          onClick={() => travel && view.setState({ travel: { ...travel, playing: !playing } })}
        >
          <PlayIcon playing={playing} />
        </button>
        <button
          type="button"
          className="timeline-button"
          title="Next change of the selected object (])"
          aria-label="Next change"
          disabled={!props.onStep}
          onClick={() => props.onStep?.('next')}
        >
          <StepIcon direction="next" />
        </button>
        <select
          className="timeline-speed"
          aria-label="Playback speed"
          data-testid="timeline-speed"
          value={speed}
          onChange={(event) => view.setState({ playbackSpeed: Number(event.target.value) })}
        >
          {playbackSpeeds.map((option) => (
            <option key={option} value={option}>
              {option}×
            </option>
          ))}
        </select>
      </div>
      <div
        ref={chart}
        className="timeline-chart"
        data-testid="timeline-chart"
        role="slider"
        aria-label="Moment shown"
        aria-valuemin={from}
        aria-valuemax={to}
        aria-valuenow={cursorTime ?? to}
        aria-valuetext={cursorTime === undefined ? 'live' : formatClock(cursorTime)}
        tabIndex={-1}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerCancel}
      >
        <TimelineBars density={density} buckets={buckets} />
        {(timeline?.marks ?? []).map((mark, index) =>
          mark.kind === 'gap' ? (
            <div
              key={index}
              className="timeline-gap"
              data-testid="timeline-gap"
              data-reason={mark.reason}
              data-kind={mark.gvr ?? ''}
              data-start={mark.start}
              data-end={mark.end ?? ''}
              title={`Not recorded ${formatClock(mark.start)}–${mark.end ? formatClock(mark.end) : 'now'}: ${mark.detail}`}
              style={{
                left: `${fraction(mark.start) * 100}%`,
                width: `max(3px, ${(fraction(mark.end ?? to) - fraction(mark.start)) * 100}%)`,
              }}
            />
          ) : (
            <div
              key={index}
              className="timeline-relist"
              data-testid="timeline-relist"
              data-kind={mark.gvr ?? ''}
              data-start={mark.start}
              title={`Relist of ${mark.gvr ?? 'every kind'} at ${formatClock(mark.start)} (${mark.reason})`}
              style={{ left: `${fraction(mark.start) * 100}%` }}
            />
          ),
        )}
        {cursorTime !== undefined && (
          <div
            className="timeline-cursor"
            data-testid="timeline-cursor"
            style={{ left: `${fraction(cursorTime) * 100}%` }}
          >
            <span className="timeline-cursor-label">{formatClock(cursorTime)}</span>
          </div>
        )}
        {timeline && (
          <div className="timeline-axis" aria-hidden="true">
            <span>{formatClock(from)}</span>
            <span>{formatClock(to)}</span>
          </div>
        )}
      </div>
      <div className="timeline-legend" aria-label="Kinds">
        {density.kinds.slice(0, 4).map((kind) => (
          <span key={kind.gvr} className="timeline-legend-entry" title={`${kind.total} changes`}>
            <i style={{ background: kindColour(kind.gvr) }} />
            {kind.gvr.split('.')[0]}
          </span>
        ))}
        {timeline && (
          <span className="timeline-coverage" data-testid="history-coverage">
            {describeCoverage(timeline)}
          </span>
        )}
        {error && <span className="timeline-error">{error}</span>}
      </div>
      <div className="timeline-actions">
        <button
          type="button"
          className="timeline-text-button"
          data-testid="history-export-open"
          disabled={!timeline?.range}
          onClick={() => timeline && props.onExport(timeline)}
        >
          Export…
        </button>
        <button
          type="button"
          className="timeline-text-button"
          data-testid="history-import-open"
          onClick={props.onImport}
        >
          Import…
        </button>
        <button
          type="button"
          className={`live-button${travel ? '' : ' live'}`}
          data-testid="timeline-live"
          title={imported ? 'Close the recording and show the live cluster (Esc)' : 'Back to live (Esc)'}
          onClick={props.onLive}
        >
          <span className="live-dot" />
          {imported ? 'Close recording' : 'LIVE'}
        </button>
      </div>
    </section>
  );
});
