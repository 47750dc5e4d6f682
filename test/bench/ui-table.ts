// The table under churn, by hand (issue 15): one synced page, then three phases with the ui bench's
// actions, each traced in Chromium so what the page thread did is told in its own terms:
//
//   npx tsx test/bench/ui-table.ts [--pods 50000] [--churn 2000] [--seconds 20] [--rounds 1]
//     [--phases churn,typing,scroll] [--invalidations]
//
// - churn: the page left alone under churn for --seconds: frames drawn, the page thread's time in them
//   (style and layout, paint, pre-paint, script), long tasks;
// - typing: the ui bench's filter texts typed and cleared: keystroke p50/p95, the thread's time per key;
// - scroll: the ui bench's wheel flick down and back: frame interval p50/p95/max, the same split.
// Thread time (CPU) is what to compare on a shared machine; the wall figures move with its load.
import { parseArgs } from 'node:util';
import type { BenchPage as Page } from './bench-page';
import type { CdpSession as CDPSession } from './cdp-connection';
import type { KubeList } from '../../shared/kube/object';
import { getBody, percentile, round } from './harness';
import { parseDriver, UiBenchSession } from './ui-session';
import { longTasksBetween, pageNow, scrollTable, typeFilters } from './ui-scenario';
import { rendererMain } from './trace-events';
import type { TraceEvent } from './trace-events';

const { values } = parseArgs({
  options: {
    // playwright (the default) or cdp (the bare DevTools driver: no devtools copy of each frame).
    driver: { type: 'string' },
    pods: { type: 'string', default: '50000' },
    churn: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '1' },
    invalidations: { type: 'boolean', default: false },
    phases: { type: 'string', default: 'churn,typing,scroll' },
  },
});
const started = performance.now();
const log = (message: string) =>
  console.log(`${((performance.now() - started) / 1000).toFixed(1)} s ${message}`);

const categories = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink',
  'cc',
  // What each frame restyled, laid out and repainted, by node (--invalidations; it slows the page).
  ...(values.invalidations ? ['disabled-by-default-devtools.timeline.invalidationTracking'] : []),
];

async function traced(cdp: CDPSession, during: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  const collect = (data: { value: unknown }) => events.push(...(data.value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', collect);
  await cdp.send('Tracing.start', { categories: categories.join(','), transferMode: 'ReportEvents' });
  await during();
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.end');
  await complete;
  cdp.off('Tracing.dataCollected', collect);
  return events;
}

/** The page's thread time by stage (ms), summed over the trace's events of those names. */
const stages: Record<string, readonly string[]> = {
  frames: ['ProxyMain::BeginMainFrame'],
  'style+layout': ['LocalFrameView::RunStyleAndLayoutLifecyclePhases'],
  prePaint: ['PrePaint'],
  paint: ['LocalFrameView::RunPaintLifecyclePhase'],
  commit: ['Commit'],
  'rAF+scroll': ['WebFrameWidgetImpl::BeginMainFrame'],
  timers: ['TimerFire'],
  messages: ['MessagePort::Accept', 'SimpleWatcher::OnHandleReady'],
  input: ['WebFrameWidgetImpl::HandleInputEvent', 'EventDispatch'],
  gc: ['MinorGC', 'MajorGC', 'V8.GCScavenger', 'V8.GCFinalizeMC'],
};

function summarize(events: readonly TraceEvent[]): string {
  const thread = rendererMain(events);
  if (thread === undefined) return 'no renderer main thread in the trace';
  const mine = events.filter(
    (event) => event.pid === thread.pid && event.tid === thread.tid && event.ph === 'X',
  );
  const parts: string[] = [];
  for (const [stage, names] of Object.entries(stages)) {
    const inStage = mine.filter((event) => names.includes(event.name));
    const ms = inStage.reduce((sum, event) => sum + (event.tdur ?? 0) / 1000, 0);
    parts.push(`${stage} ${round(ms)} ms/${inStage.length}`);
  }
  const frames = mine
    .filter((event) => event.name === 'ProxyMain::BeginMainFrame')
    .map((event) => (event.tdur ?? 0) / 1000)
    .sort((left, right) => left - right);
  const tasks = mine.filter((event) => event.name === 'ThreadControllerImpl::RunTask');
  const taskMs = tasks.reduce((sum, event) => sum + (event.tdur ?? 0) / 1000, 0);
  parts.push(
    `frame thread ms p50/p95/max ${round(percentile(frames, 50))}/${round(percentile(frames, 95))}/${round(frames.at(-1) ?? 0)}`,
    `tasks ${round(taskMs)} ms/${tasks.length}`,
  );
  if (values.invalidations) {
    const counts = new Map<string, number>();
    for (const event of events) {
      if (!event.name.endsWith('InvalidationTracking')) continue;
      const what = `${event.name} ${event.args?.data?.nodeName ?? '?'} (${event.args?.data?.reason ?? '?'})`;
      counts.set(what, (counts.get(what) ?? 0) + 1);
    }
    const top = [...counts].sort((left, right) => right[1] - left[1]).slice(0, 25);
    parts.push(`invalidations:\n${top.map(([what, count]) => `  ${count}x ${what}`).join('\n')}`);
  }
  return parts.join('; ');
}

async function threadMs(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return (metrics.find((metric) => metric.name === 'ThreadTime')?.value ?? Number.NaN) * 1000;
}

async function filterTexts(clusterUrl: string): Promise<string[]> {
  const sample = JSON.parse((await getBody(`${clusterUrl}/api/v1/pods?limit=50`)).toString()) as KubeList;
  const pod = sample.items.find((item) => item.metadata.labels?.app) ?? sample.items[0]!;
  const app = pod.metadata.labels?.app ?? 'web';
  const freeText = (pod.metadata.name ?? 'web').slice(0, 8);
  return [`app=${app}`, `app in (${app}),pod-template-hash!=none`, '!canary', `app!=${app}`, freeText];
}

async function phase(
  page: Page,
  cdp: CDPSession,
  name: string,
  action: () => Promise<string>,
): Promise<void> {
  if (!values.phases.split(',').includes(name)) return;
  const from = await pageNow(page);
  const cpuBefore = await threadMs(cdp);
  let figures = '';
  const events = await traced(cdp, async () => {
    figures = await action();
  });
  const cpu = (await threadMs(cdp)) - cpuBefore;
  const longTasks = await longTasksBetween(page, from, await pageNow(page));
  log(`${name}: ${figures}; page thread ${round(cpu)} ms; long tasks ${longTasks.length}`);
  log(`${name} trace: ${summarize(events)}`);
}

const pods = Number(values.pods);
const session = await UiBenchSession.start(pods, log);
try {
  const backend = await session.startBackendProcess();
  const { page, cdp } = await session.openSyncedPage(backend, log, parseDriver(values.driver));
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const texts = await filterTexts(session.cluster.url);
  await session.cluster.setChurn(Number(values.churn));
  await page.waitForTimeout(5_000);
  for (let pass = 0; pass < Number(values.rounds); pass++) {
    await phase(page, cdp, 'churn', async () => {
      await page.waitForTimeout(Number(values.seconds) * 1000);
      return `${values.seconds} s`;
    });
    await phase(page, cdp, 'typing', async () => {
      const typing = await typeFilters(page, texts);
      const latencies = typing.latencies;
      return `${latencies.length} keys, keystroke p50/p95/max ${round(percentile(latencies, 50))}/${round(percentile(latencies, 95))}/${round(Math.max(...latencies))} ms, dropped ${typing.droppedKeys}, unanswered ${typing.unanswered}`;
    });
    await phase(page, cdp, 'scroll', async () => {
      const frames = await scrollTable(page, '[data-testid="table-body"]');
      return `${frames.length} frames, interval p50/p95/max ${round(percentile(frames, 50))}/${round(percentile(frames, 95))}/${round(Math.max(...frames))} ms`;
    });
  }
} finally {
  await session.close();
}
