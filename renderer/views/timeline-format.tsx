// How the timeline names moments and colours kinds, shared by the strip, the banner and the History tab.

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
