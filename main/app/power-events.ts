// Sleep and resume (Electron's powerMonitor): after a laptop wakes, every connection is likely dead
// and half-open, which would otherwise go unnoticed until the HTTP/2 health check (up to 45 s) or,
// over HTTP/1.1, the watch silence limit. On resume, the context's connections are dropped and every
// watch is re-established at once on a new one, and the UI is told how long the data was stale.
import type { PowerMonitor } from 'electron';

export interface Reconnector {
  reconnect(reason: string, staleSince?: number): void;
}

/** Follows suspend/resume; returns a function that stops following. */
export function followPowerEvents(
  powerMonitor: Pick<PowerMonitor, 'on' | 'off'>,
  target: Reconnector,
  now: () => number = Date.now,
): () => void {
  let suspendedAt: number | undefined;
  const onSuspend = () => {
    suspendedAt = now();
  };
  const onResume = () => {
    target.reconnect('resumed from sleep', suspendedAt);
    suspendedAt = undefined;
  };
  powerMonitor.on('suspend', onSuspend);
  powerMonitor.on('resume', onResume);
  return () => {
    powerMonitor.off('suspend', onSuspend);
    powerMonitor.off('resume', onResume);
  };
}
