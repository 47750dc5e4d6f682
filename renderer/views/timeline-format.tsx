// How the timeline names moments, spans and retention and colours kinds, shared by the strip, the
// banner and the History tab.
import type { HistoryTimeline } from '../../shared/protocol';

const pad = (value: number) => String(value).padStart(2, '0');

/** "12:04:31" in the viewer's local time. */
export function formatClock(time: number): string {
  const date = new Date(time);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** "2026-11-30 12:04:31.250" in local time: a version's exact stamp. */
export function formatStamp(time: number): string {
  const date = new Date(time);
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return `${day} ${formatClock(time)}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

/** "7 days", "36 hours", "90 minutes": a retention age as people set it. */
export function formatKeepAge(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes % (24 * 60) === 0) return plural(minutes / (24 * 60), 'day');
  if (minutes % 60 === 0) return plural(minutes / 60, 'hour');
  return plural(minutes, 'minute');
}

/** "2 GiB", "512 MiB". */
export function formatKeepSize(bytes: number): string {
  const gib = bytes / 1024 ** 3;
  if (gib >= 1) return `${Number.isInteger(gib) ? gib : gib.toFixed(1)} GiB`;
  return `${Math.round(bytes / 1024 ** 2)} MiB`;
}

const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;

/**
 * How far back history reaches and what bounds it: "history from 14:02 · 7 days / 2 GiB kept" for the
 * live recording (and how far its end trails now, when it does), "recording 14:02–15:10" for an
 * imported one (its span is all there is).
 */
export function describeCoverage(timeline: HistoryTimeline): string {
  if (!timeline.range) return 'nothing recorded yet';
  const { start, end } = timeline.range;
  const day = (time: number) => new Date(time).toDateString();
  const from = day(start) === day(end) ? formatClock(start) : formatStamp(start).slice(0, 16);
  if (timeline.source.kind === 'imported') return `recording ${from}–${formatClock(end)}`;
  const bounds = [
    timeline.retention?.maxAgeMs !== undefined ? formatKeepAge(timeline.retention.maxAgeMs) : undefined,
    timeline.retention?.maxBytes !== undefined ? formatKeepSize(timeline.retention.maxBytes) : undefined,
  ].filter((bound) => bound !== undefined);
  const kept = bounds.length > 0 ? ` · ${bounds.join(' / ')} kept` : ' · kept without limit';
  const behind = timeline.writingBehindMs === undefined ? '' : ` · ${formatBehind(timeline.writingBehindMs)}`;
  return `history from ${from}${kept}${behind}`;
}

/**
 * "writing 62 s behind", "writing 3 min behind": the recording's end trails now (its process is
 * still writing what was captured since), so the strip ends in the past for a reason the user sees.
 */
export function formatBehind(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 120 ? `writing ${seconds} s behind` : `writing ${Math.round(seconds / 60)} min behind`;
}

const palette: Record<string, string> = {
  pods: '#4d8cf5',
  events: '#9a7cf0',
  replicasets: '#3fb68b',
  deployments: '#2fa4b8',
  nodes: '#e0a040',
  statefulsets: '#d8738f',
  daemonsets: '#c9a227',
  services: '#7aa35a',
  namespaces: '#8b95a3',
};

/** A steady colour per kind (by resource name); kinds without one share a neutral grey. */
export function kindColour(gvr: string): string {
  return palette[gvr.split('.')[0] ?? ''] ?? '#6f7a88';
}
