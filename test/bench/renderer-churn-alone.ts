// The page's store under churn without a cluster: synthetic pod rows (names, namespaces, nodes and
// labels shaped like the simulator's), then frames of 2,000 changes a second with the table's live
// re-query at the page's cadence (useKindRows' requeryGapMs: every 300 ms at 150,000 rows), as
// renderer-churn.ts frames them. Prints the frames' CPU time and the collections they caused, so a
// change to what a re-query allocates can be compared back to back without the ui bench:
//
//   node --expose-gc --import tsx test/bench/renderer-churn-alone.ts [--rows 150000] [--seconds 30]
import type { Row } from '../../shared/protocol/row';
import { requeryGapMs } from '../../renderer/views/use-kind-rows';
import { churnWithTable } from './renderer-churn';
import { loadedMirror } from './loaded-mirror';

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Pods of 40 apps in 200 namespaces on 500 nodes, five-character suffixes as ReplicaSets name them. */
export function syntheticRows(count: number, random: () => number): Row[] {
  const rows: Row[] = [];
  const letters = 'bcdfghjklmnpqrstvwxz2456789';
  const suffix = () => {
    let text = '';
    for (let index = 0; index < 5; index++) text += letters[Math.floor(random() * letters.length)];
    return text;
  };
  for (let index = 0; index < count; index++) {
    const app = `api-${index % 40}`;
    const hash = `${(index % 997).toString(16)}f7c9d`;
    const namespace = `team-${index % 200}`;
    const name = `${app}-${hash}-${suffix()}`;
    rows.push({
      key: `${namespace}/${name}`,
      uid: `uid-${index}`,
      name,
      namespace,
      resourceVersion: String(1_000 + index),
      labels: { app, 'pod-template-hash': hash, ...(index % 10 === 0 ? { track: 'canary' } : {}) },
      owners: [{ kind: 'ReplicaSet', name: `${app}-${hash}`, uid: `rs-${index % 997}`, controller: true }],
      node: `node-${index % 500}`,
      status: 'Running',
      createdAt: 1_700_000_000_000 + index,
      cells: [name, '1/1', 'Running', 0, 1_700_000_000_000 + index, `10.0.${index % 250}.${index % 200}`],
    });
  }
  return rows;
}

async function main(): Promise<void> {
  const count = argument('--rows', 150_000);
  const seconds = argument('--seconds', 30);
  const random = seededRandom(7);
  const rows = syntheticRows(count, random);
  const subscriptionId = 'alone';
  const { scheduler, store, mirror } = loadedMirror(subscriptionId, rows);
  (globalThis as { gc?: () => void }).gc?.();
  const gapFrames = Math.max(1, Math.round(requeryGapMs(0, 'live', count) / (1000 / 60)));
  const started = process.cpuUsage();
  const cost = await churnWithTable(subscriptionId, store, scheduler, mirror, rows, random, {
    frames: seconds * 60,
    queryEvery: gapFrames,
  });
  const used = process.cpuUsage(started);
  const sorted = [...cost.frames].sort((first, second) => first - second);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  console.log(
    JSON.stringify({
      rows: count,
      frames: cost.frames.length,
      query_every_frames: gapFrames,
      cpu_s: Math.round((used.user + used.system) / 1e4) / 100,
      frame_p50_ms: Math.round(at(0.5) * 100) / 100,
      frame_p99_ms: Math.round(at(0.99) * 100) / 100,
      frame_max_ms: Math.round(at(1) * 100) / 100,
      collections: cost.collections.length,
      gc_ms: Math.round(sum(cost.collections)),
      major_gcs: cost.majorCollections.length,
      major_gc_ms: Math.round(sum(cost.majorCollections)),
      heap_mb: Math.round(process.memoryUsage().heapUsed / 1e6),
    }),
  );
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) await main();
