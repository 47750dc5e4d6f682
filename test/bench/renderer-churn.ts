// The page's frames under churn, measured in the renderer's store alone: every frame applies one
// frame's share of 2,000 changes a second (updates, and pods deleted and created under new names as
// ReplicaSets replace them) and then answers the table's query, unfiltered and by name, as the table
// does at most once a frame. What a frame costs here is CPU beside React and the paint; what the
// page's idle time under churn holds, beside them, is V8's collections of what these frames
// allocate: a major one is a long task (83-240 ms in the ui bench's churn profiles). Once a second
// of frames the idle page's reads run too (useWarmLabelIndexes: the label indexes and the free
// text's structures caught up), timed apart: the longest is an idle task of the page.
import { PerformanceObserver, constants } from 'node:perf_hooks';
import type { Row } from '../../shared/protocol/row';
import type { DeltaBatch } from '../../shared/protocol/server-messages';
import type { ManualFrameScheduler } from '../../renderer/store/frame-scheduler';
import type { MirrorStore } from '../../renderer/store/mirror-store';
import { NarrowingQuery } from '../../renderer/store/narrowing-query';
import type { SubscriptionMirror } from '../../renderer/store/subscription-mirror';
import { warmTextSearch } from '../../renderer/store/text-match';
import { cpuMs } from './renderer-typing';

/** 2,000 changes a second at 60 frames a second. */
const changesPerFrame = 34;
/** Thirty seconds of frames. */
export const churnFrames = 1_800;

export interface ChurnCost {
  /** CPU ms of each frame: the batch applied, then the table's query. */
  readonly frames: number[];
  /** Pause of every collection in the run, in ms. */
  readonly collections: number[];
  /** Pause of every major (mark-compact) collection. */
  readonly majorCollections: number[];
  /** CPU ms of each idle-time read (one a second of frames). */
  readonly idleReads: number[];
}

/**
 * One frame of the simulator's churn: 47% updates (status, resourceVersion), 28% deletes, 25%
 * creates under a new name (the pod a ReplicaSet makes in place of one deleted). Creates take their
 * rows from `pool` with a fresh name suffix, so keys come and go as in the ui bench's cluster.
 */
function frameBatch(
  subscriptionId: string,
  mirror: SubscriptionMirror,
  live: string[],
  pool: readonly Row[],
  random: () => number,
): DeltaBatch {
  const seq = mirror.lastSeq + 1;
  const upserts: Row[] = [];
  const deletes: string[] = [];
  const touched = new Set<string>();
  // Live from the next frame on: this frame's updates and deletes pick among rows the mirror holds.
  const created: string[] = [];
  while (upserts.length + deletes.length < changesPerFrame) {
    const choice = random();
    if (choice < 0.25) {
      const template = pool[Math.floor(random() * pool.length)];
      const name = `${template.name}-c${seq}-${upserts.length}`;
      const key = `${template.namespace}/${name}`;
      upserts.push({ ...template, name, key, uid: `${template.uid}-c${seq}-${upserts.length}` });
      created.push(key);
      continue;
    }
    const at = Math.floor(random() * live.length);
    const key = live[at];
    if (touched.has(key)) continue;
    touched.add(key);
    if (choice < 0.53) {
      deletes.push(key);
      live[at] = live[live.length - 1];
      live.pop();
    } else {
      const current = mirror.rows.get(key)!;
      upserts.push({
        ...current,
        resourceVersion: `${current.resourceVersion}.${seq}`,
        status: choice < 0.8 ? 'Running' : 'CrashLoopBackOff',
      });
    }
  }
  live.push(...created);
  return { type: 'batch', subscriptionId, seq, upserts, deletes };
}

/**
 * Runs `churnFrames` frames of churn over `mirror` (`pace.frames`), each followed by the table's query
 * (every `pace.queryEvery` frames).
 */
export async function churnWithTable(
  subscriptionId: string,
  store: MirrorStore,
  scheduler: ManualFrameScheduler,
  mirror: SubscriptionMirror,
  pool: readonly Row[],
  random: () => number,
  pace: { readonly frames?: number; readonly queryEvery?: number } = {},
): Promise<ChurnCost> {
  const frameCount = pace.frames ?? churnFrames;
  // The table re-queries every frame here unless asked otherwise (the page waits requeryGapMs).
  const queryEvery = pace.queryEvery ?? 1;
  const live = [...mirror.rows.keys()];
  const narrowing = new NarrowingQuery();
  const sort = { column: 'name' } as const;
  narrowing.query(mirror, {}, sort);
  const frames: number[] = [];
  const collections: number[] = [];
  const majorCollections: number[] = [];
  const idleReads: number[] = [];
  // Node delivers gc entries from a later turn of the loop: the frames yield once a second of them.
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      collections.push(entry.duration);
      const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) majorCollections.push(entry.duration);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  for (let frame = 0; frame < frameCount; frame++) {
    const batch = frameBatch(subscriptionId, mirror, live, pool, random);
    const started = cpuMs();
    store.receive(batch);
    scheduler.runFrame();
    if (frame % queryEvery === queryEvery - 1) narrowing.query(mirror, {}, sort);
    frames.push(cpuMs() - started);
    if (frame % 60 === 59) {
      const idleStarted = cpuMs();
      void mirror.indexes.byLabel;
      warmTextSearch(mirror);
      idleReads.push(cpuMs() - idleStarted);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  narrowing.release();
  return { frames, collections, majorCollections, idleReads };
}
