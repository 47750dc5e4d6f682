// One log line on screen: an optional timestamp, the pod/container column of a multi-pod view in the
// pod's colour, and the text with its SGR colours and the search's highlights laid over them.
import { memo, type ReactNode } from 'react';
import type { AnsiSegment, AnsiStyle } from './ansi';
import { parseAnsi } from './ansi';

export interface LogLineProps {
  readonly text: string;
  readonly timestamp?: string;
  readonly source?: { label: string; colour: number };
  /** [start, end) ranges in the text without escapes. */
  readonly highlights?: readonly [number, number][];
  readonly current?: boolean;
}

function styleOf(style: AnsiStyle): { className?: string; style?: Record<string, string> } {
  const classes: string[] = [];
  const inline: Record<string, string> = {};
  const [foreground, background] = style.inverse
    ? [style.background, style.foreground]
    : [style.foreground, style.background];
  if (foreground?.startsWith('ansi-')) classes.push(`fg-${foreground}`);
  else if (foreground) inline.color = foreground;
  if (background?.startsWith('ansi-')) classes.push(`bg-${background}`);
  else if (background) inline.backgroundColor = background;
  if (style.bold) classes.push('sgr-bold');
  if (style.dim) classes.push('sgr-dim');
  if (style.italic) classes.push('sgr-italic');
  if (style.underline) classes.push('sgr-underline');
  return {
    ...(classes.length > 0 ? { className: classes.join(' ') } : {}),
    ...(Object.keys(inline).length > 0 ? { style: inline } : {}),
  };
}

/** The segments cut at highlight boundaries, each piece marked highlighted or not. */
function pieces(segments: AnsiSegment[], highlights: readonly [number, number][]): ReactNode[] {
  const nodes: ReactNode[] = [];
  let offset = 0;
  let range = 0;
  for (const segment of segments) {
    const attributes = styleOf(segment.style);
    let start = 0;
    while (start < segment.text.length) {
      const absolute = offset + start;
      while (range < highlights.length && highlights[range][1] <= absolute) range++;
      const current = highlights[range];
      const inside = current !== undefined && current[0] <= absolute;
      const boundary = inside ? current[1] : (current?.[0] ?? Number.POSITIVE_INFINITY);
      const end = Math.min(segment.text.length, boundary - offset);
      const text = segment.text.slice(start, end);
      const key = nodes.length;
      nodes.push(
        inside ? (
          <mark key={key} {...attributes}>
            {text}
          </mark>
        ) : attributes.className || attributes.style ? (
          <span key={key} {...attributes}>
            {text}
          </span>
        ) : (
          text
        ),
      );
      start = end;
    }
    offset += segment.text.length;
  }
  return nodes;
}

export const LogLine = memo(function LogLine(props: LogLineProps): ReactNode {
  const segments = parseAnsi(props.text);
  return (
    <>
      {props.timestamp !== undefined && <span className="log-timestamp">{props.timestamp}</span>}
      {props.source && (
        <span className={`log-source source-${props.source.colour}`}>{props.source.label}</span>
      )}
      <span className={`log-text${props.current ? ' current-match' : ''}`}>
        {pieces(segments, props.highlights ?? [])}
      </span>
    </>
  );
});
