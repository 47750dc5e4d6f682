// The ui bench's churn window: where it starts and where it ends, shared by ui.ts and ui-churn.ts
// `--bench-window` so that a traced window is the one the bench counts long tasks over. The page's
// long-task entries are counted between two reads of the page's clock that bound the wait alone: the
// figures' reads around it come before the start's and after the end's. Until session 21 the start's
// clock came before the cluster's revision read and the end's after the figures, and at 150,000 pods
// under churn the simulator answered each pods read 26-27 s late (load 8-10): the bench counted the
// entries of 113 s and divided them by 60.
import type { BenchPage } from './bench-page';
import type { KubeList } from '../../shared/kube/object';
import type { BackendFigures, BackendProcess } from './ui-backend-process';
import { getBody } from './harness';
import { pageThreadCpuMs } from './ui-before-churn';
import { pageNow } from './ui-scenario';

/** The cluster's resourceVersion: one counter over every kind, so its growth counts the changes made. */
export async function podsRevision(clusterUrl: string): Promise<number> {
  const list = JSON.parse((await getBody(`${clusterUrl}/api/v1/pods?limit=1`)).toString()) as KubeList;
  return Number(list.metadata.resourceVersion);
}

export interface ChurnWindowStart {
  /** The page's clock at the start, after the reads: long-task entries are counted from here. */
  pageStart: number;
  /** The page's clock before the reads: where the count started until session 21. */
  pageBeforeReads: number;
  revision: number;
  /** Wall ms the revision read, the backend's start and the page's CPU read took (before the start). */
  readsMs: number;
  pageCpuMs: number;
}

export interface ChurnWindowEnd {
  /** The page's clock at the wait's end, before the figures are read: entries are counted up to here. */
  pageEnd: number;
  /** The page's clock after the figures' reads: where the count ended until session 21. */
  pageAfterReads: number;
  pageCpuMs: number;
  backend: BackendFigures;
  changes: number;
  /** Wall ms each read at the end took, in order (after the window). */
  readsMs: { clock: number; pageCpu: number; backend: number; revision: number };
}

/** Starts the window: the revision, the backend's measuring, the page's CPU, then the page's clock. */
export async function startChurnWindow(
  page: BenchPage,
  backend: BackendProcess,
  clusterUrl: string,
): Promise<ChurnWindowStart> {
  const pageBeforeReads = await pageNow(page);
  const started = performance.now();
  const revision = await podsRevision(clusterUrl);
  await backend.startMeasuring();
  const pageCpuMs = await pageThreadCpuMs(page.cdp);
  const readsMs = performance.now() - started;
  return { pageStart: await pageNow(page), pageBeforeReads, revision, pageCpuMs, readsMs };
}

/** Ends it, right after the wait: the page's clock, then each figure. */
export async function endChurnWindow(
  page: BenchPage,
  backend: BackendProcess,
  clusterUrl: string,
  start: ChurnWindowStart,
): Promise<ChurnWindowEnd> {
  let at = performance.now();
  const lap = (): number => {
    const now = performance.now();
    const ms = now - at;
    at = now;
    return ms;
  };
  const pageEnd = await pageNow(page);
  const clock = lap();
  const pageCpuMs = (await pageThreadCpuMs(page.cdp)) - start.pageCpuMs;
  const pageCpu = lap();
  const figures = await backend.stopMeasuring();
  const backendMs = lap();
  const changes = (await podsRevision(clusterUrl)) - start.revision;
  const revision = lap();
  return {
    pageEnd,
    pageAfterReads: await pageNow(page),
    pageCpuMs,
    backend: figures,
    changes,
    readsMs: { clock, pageCpu, backend: backendMs, revision },
  };
}
