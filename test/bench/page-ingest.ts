// By hand (issue 15): the page's own stages of taking in a big row set, in Node on the renderer's
// store code, timed in this process's CPU time (its GC threads included) so a loaded machine does not
// stretch them.
//
//   npx tsx test/bench/page-ingest.ts [--pods 150000] [--rounds 3]
//
// A travel's moment: --pods rows arrive as JSON messages of 2,000 rows (BatchStream's batches) into a
// replay mirror, which holds them until the last; then the snapshot is applied whole and the table's
// default query (every row by name) runs. Reported apart: the work while chunks arrive (parse, hold)
// and the tail the user waits for after the last byte (its parse, the whole apply, the name order,
// the query). A first listing: the same rows as live batches, a frame of up to 8,000 rows each, with
// the table's query after every frame (the fastest the table follows a listing). Pod rows are made
// up with the shape main projects (labels, an owner, kubectl's pod columns), named as Deployments'
// pods are, and listed in key order as an API server lists them. Medians of --rounds.
import { parseArgs } from 'node:util';
import { queryRows } from '../../renderer/store/row-query';
import { SubscriptionMirror } from '../../renderer/store/subscription-mirror';
import type { Row } from '../../shared/protocol/row';
import type { DeltaBatch } from '../../shared/protocol/server-messages';
import { seededRandom } from '../support/seeded-random';
import { median, round } from './harness';

const { values } = parseArgs({
  options: { pods: { type: 'string', default: '150000' }, rounds: { type: 'string', default: '3' } },
});
const pods = Number(values.pods);
const chunkRows = 2_000;
const frameRows = 8_000;

function podRows(count: number): Row[] {
  const random = seededRandom(7);
  const suffix = (length: number) =>
    Math.floor(random() * 36 ** length)
      .toString(36)
      .padStart(length, '0');
  const rows: Row[] = [];
  for (let index = 0; index < count; index++) {
    const namespace = `team-${index % 40}`;
    const app = `api-${Math.floor(index / 40) % 300}`;
    const hash = `7f${suffix(8)}`;
    const name = `${app}-${hash}-${suffix(5)}`;
    rows.push({
      key: `${namespace}/${name}`,
      uid: `${suffix(8)}-${suffix(4)}-${suffix(4)}-${suffix(4)}-${suffix(12)}`,
      name,
      namespace,
      resourceVersion: String(1_000 + index),
      labels: { app, 'pod-template-hash': hash },
      owners: [{ kind: 'ReplicaSet', name: `${app}-${hash}`, uid: suffix(12), controller: true }],
      node: `node-${index % 500}`,
      status: 'Running',
      createdAt: 1_700_000_000_000 + index,
      cells: [
        name,
        '1/1',
        'Running',
        0,
        1_700_000_000_000 + index,
        `10.0.${index % 250}.${index % 200}`,
        `node-${index % 500}`,
      ],
    });
  }
  return rows.sort((left, right) => (left.key < right.key ? -1 : 1));
}

/** JSON messages of `chunkRows` rows: the first replaces, the last ends the snapshot when `snapshot`. */
function messages(rows: readonly Row[], snapshot: boolean): string[] {
  const texts: string[] = [];
  for (let from = 0, seq = 1; from < rows.length; from += chunkRows, seq++) {
    const batch: DeltaBatch = {
      type: 'batch',
      subscriptionId: 's',
      seq,
      upserts: rows.slice(from, from + chunkRows),
      deletes: [],
      ...(from === 0 ? { replace: true } : {}),
      ...(from + chunkRows >= rows.length && snapshot ? { snapshotEnd: true } : {}),
    };
    texts.push(JSON.stringify(batch));
  }
  return texts;
}

/** This process's CPU time in ms (user + system). */
function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

function timed<T>(stages: Map<string, number>, stage: string, work: () => T): T {
  const start = cpuMs();
  const result = work();
  stages.set(stage, (stages.get(stage) ?? 0) + cpuMs() - start);
  return result;
}

function travel(texts: readonly string[]): Map<string, number> {
  const stages = new Map<string, number>();
  const mirror = new SubscriptionMirror(0, undefined, { wholeSnapshots: true });
  // The table reads the empty replay mirror before its snapshot ends.
  queryRows(mirror);
  texts.forEach((text, index) => {
    const last = index === texts.length - 1;
    const batch = timed(
      stages,
      last ? 'tail: parse last chunk' : 'arriving: parse',
      () => JSON.parse(text) as DeltaBatch,
    );
    timed(stages, last ? 'tail: apply whole' : 'arriving: hold', () => mirror.apply(batch));
  });
  const keys = timed(stages, 'tail: query (name order)', () => queryRows(mirror));
  if (keys.length !== mirror.rows.size)
    throw new Error(`query returned ${keys.length} of ${mirror.rows.size}`);
  return stages;
}

function listing(texts: readonly string[]): Map<string, number> {
  const stages = new Map<string, number>();
  const mirror = new SubscriptionMirror();
  let inFrame = 0;
  for (const text of texts) {
    const batch = timed(stages, 'parse', () => JSON.parse(text) as DeltaBatch);
    timed(stages, 'apply', () => mirror.apply(batch));
    inFrame += batch.upserts.length;
    if (inFrame >= frameRows) {
      inFrame = 0;
      timed(stages, 'query (name order)', () => queryRows(mirror));
    }
  }
  timed(stages, 'query (name order)', () => queryRows(mirror));
  return stages;
}

function report(title: string, runs: Map<string, number>[]): void {
  console.log(title);
  for (const stage of runs[0].keys())
    console.log(
      `  ${stage.padEnd(28)} ${String(round(median(runs.map((run) => run.get(stage)!)))).padStart(8)} ms`,
    );
}

const rows = podRows(pods);
const snapshot = messages(rows, true);
const live = messages(rows, false);
const travels: Map<string, number>[] = [];
const listings: Map<string, number>[] = [];
for (let index = 0; index < Number(values.rounds); index++) {
  travels.push(travel(snapshot));
  listings.push(listing(live));
}
report(`travel to a moment of ${pods} rows (CPU, median of ${values.rounds})`, travels);
report(
  `first listing of ${pods} rows, queried every ${frameRows} rows (CPU, median of ${values.rounds})`,
  listings,
);
