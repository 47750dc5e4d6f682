// Benchmark 4 (issue 7): the renderer's mirror (renderer/store, plain TypeScript run in Node) holding
// 150,000 pod rows: applying a 5,000-delta batch, a label-selector filter and the namespace and node
// index lookups, each as the views run them (queryRows sorts by name). Rows are projected from the
// embedded cluster's pods with main/bridge's RowProjector, repeated under new names up to 150,000.
import { RowProjector } from '../../main/bridge/row-projection';
import { printerFor } from '../../shared/kinds/columns';
import type { KubeList } from '../../shared/kube/object';
import type { Row } from '../../shared/protocol/row';
import type { DeltaBatch } from '../../shared/protocol/server-messages';
import { parseLabelSelector } from '../../shared/selectors/label-selector';
import { queryRows } from '../../renderer/store/row-query';
import type { RowFilter } from '../../renderer/store/row-query';
import type { BenchOptions, BenchResult } from './harness';
import { atMost, collectGarbage, getBody, median, percentile, podsResource, round } from './harness';
import type { SyncTarget } from './sync';
import { typeTexts, typedTexts } from './renderer-typing';
import { churnFrames, churnWithTable } from './renderer-churn';
import { loadedMirror } from './loaded-mirror';

export const rendererRows = 150_000;
const deltaBatchSize = 5_000;
const repetitions = 7;
const subscriptionId = 'bench';

/**
 * Projects the cluster's pods, then repeats them in suffixed namespaces on suffixed nodes until there
 * are `total` rows, so rows per namespace and per node stay those of the seeded cluster.
 */
function buildRows(list: KubeList, total: number): Row[] {
  const projector = new RowProjector(printerFor(podsResource));
  const now = Date.now();
  const base = list.items.map((pod) => projector.project(pod, now));
  const rows: Row[] = [];
  for (let index = 0; rows.length < total; index++) {
    const row = base[index % base.length];
    const copy = Math.floor(index / base.length);
    if (copy === 0) rows.push(row);
    else {
      // A bigger cluster has proportionally more namespaces and nodes, not fuller ones.
      const namespace = `${row.namespace}-r${copy}`;
      const node = row.node === undefined ? undefined : `${row.node}-r${copy}`;
      rows.push({ ...row, namespace, node, key: `${namespace}/${row.name}`, uid: `${row.uid}-r${copy}` });
    }
  }
  return rows;
}

/** 5,000 distinct rows changed as kubelet churn changes them: status, restarts, a label, the RV. */
function churnBatch(rows: readonly Row[], seq: number, random: () => number): DeltaBatch {
  const chosen = new Map<string, Row>();
  while (chosen.size < Math.min(deltaBatchSize, rows.length)) {
    const row = rows[Math.floor(random() * rows.length)];
    if (chosen.has(row.key)) continue;
    chosen.set(row.key, {
      ...row,
      resourceVersion: `${row.resourceVersion}.${seq}`,
      status: seq % 2 === 0 ? 'Running' : 'CrashLoopBackOff',
      labels: { ...row.labels, 'bench-revision': String(seq % 3) },
      cells: row.cells.map((cell) => (typeof cell === 'number' ? cell + 1 : cell)),
    });
  }
  return { type: 'batch', subscriptionId, seq, upserts: [...chosen.values()], deletes: [] };
}

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * Median of `repetitions` runs of `query`, each right after `applyBatch` (untimed), as a view queries
 * after every frame. The mirror's indexes catch up with a batch when they are read, so a query
 * repeated on an unchanged mirror would time that catch-up once and hide it from the median.
 */
function timeAfterBatch(applyBatch: () => void, query: () => unknown): number {
  const samples: number[] = [];
  for (let index = 0; index < repetitions; index++) {
    applyBatch();
    const start = performance.now();
    query();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

export async function runRenderer(options: BenchOptions, target: SyncTarget): Promise<BenchResult> {
  const list = JSON.parse((await getBody(`${target.url}/api/v1/pods`)).toString('utf8')) as KubeList;
  const rows = buildRows(list, rendererRows);
  const { scheduler, store, mirror } = loadedMirror(subscriptionId, rows);
  collectGarbage();

  const random = seededRandom(11);
  const applySamples: number[] = [];
  for (let index = 0; index < repetitions; index++) {
    const batch = churnBatch(rows, mirror.lastSeq + 1, random);
    const start = performance.now();
    store.receive(batch);
    scheduler.runFrame();
    applySamples.push(performance.now() - start);
  }
  if (mirror.rows.size !== rows.length)
    throw new Error(`the mirror holds ${mirror.rows.size} rows, not ${rows.length}`);

  const first = rows[0];
  const app = first.labels.app ?? '';
  const indexed: RowFilter = { labelSelector: parseLabelSelector(`app in (${app}),pod-template-hash!=none`) };
  const scan: RowFilter = { labelSelector: parseLabelSelector(`app!=${app}`) };
  const applyBatch = () => {
    store.receive(churnBatch(rows, mirror.lastSeq + 1, random));
    scheduler.runFrame();
  };
  const selectorIndexedMs = timeAfterBatch(applyBatch, () => queryRows(mirror, indexed));
  const selectorScanMs = timeAfterBatch(applyBatch, () => queryRows(mirror, scan));
  const namespaceMs = timeAfterBatch(applyBatch, () => queryRows(mirror, { namespaces: [first.namespace] }));
  const nodeMs = timeAfterBatch(applyBatch, () => queryRows(mirror, { node: first.node }));

  const typing = typeTexts(subscriptionId, store, scheduler, mirror, rows, typedTexts(rows), random);
  const keyCosts = typing.flatMap((text) => text.keys);
  collectGarbage();
  const churn = await churnWithTable(subscriptionId, store, scheduler, mirror, rows, random);
  const churnMinutes = churnFrames / 60 / 60;
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

  const applyMs = median(applySamples);
  const selectorMs = Math.max(selectorIndexedMs, selectorScanMs);
  const indexMs = Math.max(namespaceMs, nodeMs);
  return {
    bench: 'renderer',
    fields: {
      rows: mirror.rows.size,
      delta_batch: deltaBatchSize,
      apply_ms: round(applyMs),
      selector_ms: round(selectorMs),
      index_ms: round(indexMs),
      selector_indexed_ms: round(selectorIndexedMs),
      selector_scan_ms: round(selectorScanMs),
      namespace_index_ms: round(namespaceMs),
      node_index_ms: round(nodeMs),
      typing_key_p50_ms: round(percentile(keyCosts, 50)),
      typing_key_p95_ms: round(percentile(keyCosts, 95)),
      typing_key_max_ms: round(Math.max(...keyCosts)),
      typing_first_round_key_max_ms: round(Math.max(...typing.flatMap((text) => text.firstKeys))),
      churn_frame_p50_ms: round(percentile(churn.frames, 50)),
      churn_frame_p99_ms: round(percentile(churn.frames, 99)),
      churn_gc_ms_per_min: round(sum(churn.collections) / churnMinutes),
      churn_major_gcs_per_min: round(churn.majorCollections.length / churnMinutes),
      churn_gc_max_ms: round(Math.max(0, ...churn.collections)),
      churn_idle_read_max_ms: round(Math.max(0, ...churn.idleReads)),
      churn_idle_read_ms_per_min: round(sum(churn.idleReads) / churnMinutes),
    },
    goals: [
      atMost('renderer: apply a 5,000-delta batch in at most 8 ms', applyMs, 8, ' ms'),
      atMost('renderer: label-selector filter at most 50 ms', selectorMs, 50, ' ms'),
      atMost('renderer: namespace/node index lookup at most 5 ms', indexMs, 5, ' ms'),
    ],
    notes: [
      `selector_ms is the slower of "app in (${app}),pod-template-hash!=none" (index-narrowed) and "app!=${app}" (a scan); both sorted by name`,
      'each selector and index query is timed right after a 5,000-upsert batch, as a view queries after a frame',
      "typing: the ui bench's texts typed key by key and cleared, 120 changes between keys, each key's query in ms of CPU, the cheapest of 3 rounds (max / sum): " +
        typing
          .map(
            ({ text, keys }) =>
              `"${text}" ${round(Math.max(...keys))} / ${round(keys.reduce((sum, key) => sum + key, 0))} [${keys.map((key) => key.toFixed(1)).join(' ')}]`,
          )
          .join(', '),
      'typing, first round (what a text costs the first time it is typed), max / sum: ' +
        typing
          .map(
            ({ text, firstKeys }) =>
              `"${text}" ${round(Math.max(...firstKeys))} / ${round(firstKeys.reduce((sum, key) => sum + key, 0))} [${firstKeys.map((key) => key.toFixed(1)).join(' ')}]`,
          )
          .join(', '),
      `churn: ${churnFrames} frames of 34 changes (2,000/s at 60 frames/s: updates, deletes, creates under new names), each applied and followed by the table's query (unfiltered, by name); frame CPU ms and the collections in that time, per minute of frames; once a second of frames the idle page's reads (label indexes, free-text structures), CPU ms`,
      ...(options.pods < rendererRows
        ? [`rows repeat the ${list.items.length} seeded pods in renamed namespaces and nodes`]
        : []),
    ],
  };
}
