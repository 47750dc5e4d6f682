// What `--only ui` (ui.ts) does between "synced" and its churn window, shared with ui-churn.ts
// `--as-bench` so that the by-hand window starts from the page the bench leaves: churn started, a
// warm-up, the page's Performance domain enabled, five filter texts typed and cleared, the wheel scroll,
// Pods -> Deployments -> Pods twice, three details opened and closed. Until session 18 (issue 15) the
// by-hand window typed three texts of its own (no scan), warmed up 5 s rather than 3 and ran without the
// backend's stall monitor (a 1 ms timer); one sequence now serves both, so a by-hand count is the
// bench's.
import type { BenchPage } from './bench-page';
import type { CdpSession } from './cdp-connection';
import type { KubeList } from '../../shared/kube/object';
import { getBody } from './harness';
import type { KindSwitch, TypingResult } from './ui-scenario';
import { openDetail, scrollTable, switchKindsInRounds, typeFilters } from './ui-scenario';

/** Time for churn's changes to reach the page before the first measurement under it. */
export const churnWarmupMs = 3_000;

/**
 * The filter texts typed, from a real pod: index-narrowed selectors, scans, and free text (a brief
 * run types one of each).
 */
export async function filterTexts(clusterUrl: string, brief: boolean): Promise<string[]> {
  const sample = JSON.parse((await getBody(`${clusterUrl}/api/v1/pods?limit=50`)).toString()) as KubeList;
  const pod = sample.items.find((item) => item.metadata.labels?.app) ?? sample.items[0]!;
  const app = pod.metadata.labels?.app ?? 'web';
  const freeText = (pod.metadata.name ?? 'web').slice(0, 8);
  if (brief) return [`app=${app}`, '!canary', freeText];
  return [`app=${app}`, `app in (${app}),pod-template-hash!=none`, '!canary', `app!=${app}`, freeText];
}

/**
 * The page's main-thread CPU time (Chromium's ThreadTime metric), which a loaded machine stretches
 * far less than wall time: what the page's own work costs, apart from waiting for a core.
 */
export async function pageThreadCpuMs(cdp: CdpSession): Promise<number> {
  const { metrics } = await cdp.send<{ metrics: { name: string; value: number }[] }>(
    'Performance.getMetrics',
  );
  return (metrics.find((metric) => metric.name === 'ThreadTime')?.value ?? Number.NaN) * 1000;
}

export interface BeforeChurn {
  typing: TypingResult;
  typingCpuMs: number;
  frames: number[];
  scrollCpuMs: number;
  switches: number[];
  /** The same switches with the kind switched to and the round (0-based), in the order made. */
  kindSwitches: KindSwitch[];
  details: number[];
}

/** Runs `action` as is, or wrapped (ui.ts's CPU profile of a step, by name). */
export type StepWrapper = <T>(name: string, action: () => Promise<T>) => Promise<T>;

/**
 * From a synced page with its cluster churning since `churnWarmupMs` ago: the bench's steps before its
 * churn window, each measured as the bench reports it.
 */
export async function beforeChurnWindow(
  page: BenchPage,
  texts: readonly string[],
  log: (message: string) => void,
  wrap: StepWrapper = (_name, action) => action(),
): Promise<BeforeChurn> {
  const { cdp } = page;
  await cdp.send('Performance.enable');
  const typingCpuStart = await pageThreadCpuMs(cdp);
  const typing = await wrap('typing', () => typeFilters(page, texts));
  const typingCpuMs = (await pageThreadCpuMs(cdp)) - typingCpuStart;
  log('ui: scrolling...');
  const scrollCpuStart = await pageThreadCpuMs(cdp);
  const frames = await wrap('scroll', () => scrollTable(page, '[data-testid="table-body"]'));
  const scrollCpuMs = (await pageThreadCpuMs(cdp)) - scrollCpuStart;
  log('ui: switching kinds, opening details...');
  const kindSwitches = await switchKindsInRounds(page, 2, ({ kind, round, ms }, parts) =>
    log(`ui: switch to ${kind} (round ${round + 1}): ${Math.round(ms)} ms (${parts})`),
  );
  const switches = kindSwitches.map((made) => made.ms);
  const details: number[] = [];
  for (const index of [2, 5, 8]) details.push(await openDetail(page, index));
  return { typing, typingCpuMs, frames, scrollCpuMs, switches, kindSwitches, details };
}
