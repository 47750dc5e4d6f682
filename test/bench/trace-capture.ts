// A Chromium trace of the page while something runs, with the categories the page's tasks are read
// by (trace-tasks.ts): Blink's timeline, V8's, its collector's and Oilpan's, and the compositor's.
import type { CdpSession } from './cdp-connection';
import type { TraceEvent } from './trace-events';

const categories = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'disabled-by-default-v8.gc',
  // Blink's own collector (Oilpan): a page's long task after a V8 memory-reducing GC held 118-319 ms
  // of thread time with no other event in it.
  'blink_gc',
  'disabled-by-default-cppgc',
  'blink',
  'cc',
].join(',');

/** Every trace event recorded while `during` runs, and what it returned. */
export async function captureTrace<T>(
  cdp: CdpSession,
  during: () => Promise<T>,
): Promise<{ events: TraceEvent[]; result: T }> {
  const events: TraceEvent[] = [];
  const collect = (data: { value: unknown }) => events.push(...(data.value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', collect);
  await cdp.send('Tracing.start', { categories, transferMode: 'ReportEvents' });
  const result = await during();
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.end');
  await complete;
  cdp.off('Tracing.dataCollected', collect);
  return { events, result };
}
