// By hand (issue 15): the page's own stages of taking in a big row set, in Node on the renderer's
// store code, timed in this process's CPU time (its GC threads included) so a loaded machine does not
// stretch them.
//
//   node --expose-gc --import tsx test/bench/page-ingest.ts [--pods 150000] [--rounds 3] [--changed 0.13]
//     [--listing-rows tuples|objects] [--replay-rows tuples|objects]
//
// A travel's moment: --pods rows arrive as JSON messages of 2,000 rows (BatchStream's batches, their
// rows as tuples as main writes the worker's text; --replay-rows objects as before session 19) into a
// replay mirror, which holds them until the last; then the snapshot is applied whole and the table's
// default query (every row by name) runs. Reported apart: the work while chunks arrive (parse, hold)
// and the tail the user waits for after the last byte (its parse, the whole apply, the name order,
// the query). A first listing: the same rows as live batches, a frame of up to 8,000 rows each, with
// the table's query after every frame (the fastest the table follows a listing), each batch as main's
// WebSocket sends it (rows as tuples, batch-bytes.ts) taken through the page's decoder (its "parse"). Pod rows are made
// up with the shape main projects (labels, an owner, kubectl's pod columns), named as Deployments'
// pods are, and listed in key order as an API server lists them. Medians of --rounds.
//
// A travel from live (DeltaBatch.base): the moment differs from the live rows the page holds in
// --changed of its rows (a new resourceVersion), and in 1% more each way (pods deleted since, and
// created since); main compares the worker's chunks with the live rows (timed here too, as main's
// share) and sends the rows that differ, and the page starts from a copy of its live rows. Each
// chunk is a frame of the page's (MirrorStore: up to 8,000 rows a frame), followed by --idle-frames
// frames before the next chunk (the page's frames while the query worker rebuilds): in those frames
// the mirror writes the live rows it starts from (writeAhead, where the tree has it). Reported also:
// the longest such frame (CPU), and the tail's longest task.
import { parseArgs } from 'node:util';
import { queryRows } from '../../renderer/store/row-query';
import { SubscriptionMirror } from '../../renderer/store/subscription-mirror';
import type { EncodedRows } from '../../main/bridge/encoded-rows';
import { encodeRows, joinedRows } from '../../main/bridge/encoded-rows';
import { MomentDifference } from '../../main/bridge/moment-difference';
import { messageText } from '../../main/bridge/outgoing-message';
import { batchBytes } from '../../main/bridge/batch-bytes';
import { serverMessageOf } from '../../renderer/transport/websocket-link';
import { SentRows } from '../../main/bridge/sent-rows';
import type { Row } from '../../shared/protocol/row';
import type { DeltaBatch } from '../../shared/protocol/server-messages';
import { seededRandom } from '../support/seeded-random';
import { podRows } from './pod-rows';
import { rowLayoutOf } from '../../shared/protocol/row-tuples';
import { median, round } from './harness';

const { values } = parseArgs({
  options: {
    pods: { type: 'string', default: '150000' },
    rounds: { type: 'string', default: '3' },
    changed: { type: 'string', default: '0.13' },
    'idle-frames': { type: 'string', default: '2' },
    // Only the travel from live (its main and page shares): the other two left out.
    'from-live': { type: 'boolean', default: false },
    'listing-rows': { type: 'string', default: 'tuples' },
    // `objects`: a travel's batches with their rows as JSON objects, as the worker wrote them before
    // session 19 (now tuples under the kind's layout, replay-layout.ts).
    'replay-rows': { type: 'string', default: 'tuples' },
  },
});
const pods = Number(values.pods);
const chunkRows = 2_000;
const frameRows = 8_000;

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

/** The same batches as the WebSocket carries them (rows as tuples). */
function wireMessages(rows: readonly Row[]): string[] {
  return messages(rows, false).map((text) => batchBytes(JSON.parse(text) as DeltaBatch).toString('utf8'));
}

/** The same batches as main writes a travel's (the worker's text, see EncodedRows; one layout). */
function replayMessages(rows: readonly Row[], snapshot: boolean): string[] {
  if (values['replay-rows'] === 'objects') return messages(rows, snapshot);
  const layout = rowLayoutOf(rows);
  return messages(rows, snapshot).map((text) => {
    const { upserts, ...envelope } = JSON.parse(text) as DeltaBatch;
    return messageText({ ...envelope, upserts: encodeRows(upserts, layout) });
  });
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
      () => serverMessageOf(text) as DeltaBatch,
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
    const batch = timed(stages, 'parse', () => serverMessageOf(text) as DeltaBatch);
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

/** The moment: `rows` with a share changed, 1% gone since (in the moment only) and 1% created since. */
function momentOf(rows: readonly Row[]): { live: Row[]; moment: Row[] } {
  const random = seededRandom(11);
  const share = Number(values.changed);
  const live: Row[] = [];
  const moment: Row[] = [];
  for (const row of rows) {
    const roll = random();
    if (roll < 0.01) moment.push(row);
    else if (roll < 0.02) live.push(row);
    else {
      live.push(row);
      moment.push(random() < share ? { ...row, resourceVersion: `${row.resourceVersion}-${roll}` } : row);
    }
  }
  return { live, moment };
}

/** Main's share of a travel from live: the worker's chunks compared with the live rows, and the batches' text. */
async function againstLiveOnMain(
  live: readonly Row[],
  moment: readonly Row[],
  stages: Map<string, number>,
): Promise<string[]> {
  const sentRows = new SentRows();
  sentRows.sent({ upserts: live, deletes: [], replace: true, snapshotEnd: true });
  // What the worker sends: the moment as text (tuples under one layout for the kind, see
  // replay-layout.ts), a chunk of 1,000 rows at a time.
  const chunks: EncodedRows[] = [];
  const layout = rowLayoutOf(moment);
  for (let from = 0; from < moment.length; from += 1_000)
    chunks.push(encodeRows(moment.slice(from, from + 1_000), layout));
  const texts: string[] = [];
  // The worker's text arrives flat (structured clone); JSON.stringify's is flattened on first read,
  // a cost of making the bench's chunks. Their garbage is not the comparison's either (--expose-gc).
  for (const chunk of chunks) chunk.json.indexOf('"');
  (globalThis as { gc?: () => void }).gc?.();
  const difference = new MomentDifference(sentRows.base(1)!, new Set());
  const changed = timed(stages, 'main: compare chunks', () =>
    chunks.map((chunk) => difference.changed(chunk) as EncodedRows),
  );
  const started = cpuMs();
  const deletes = await difference.deletes(() => Promise.resolve());
  stages.set('main: deletes', cpuMs() - started);
  timed(stages, 'main: batches as text', () => {
    const envelope = { type: 'batch' as const, subscriptionId: 'r', deletes: [] };
    texts.push(
      messageText({ ...envelope, seq: 1, replace: true, base: { subscriptionId: 's', seq: 1 }, upserts: [] }),
    );
    // As BatchStream sends them: whole chunks joined up to a batch's rows, the deletes with the last.
    let parts: EncodedRows[] = [];
    let size = 0;
    const send = (last: boolean) => {
      const upserts = joinedRows(parts.length > 0 ? parts : [encodeRows([], layout)]);
      texts.push(
        messageText({
          ...envelope,
          seq: texts.length + 1,
          upserts,
          ...(last ? { deletes, snapshotEnd: true } : {}),
        }),
      );
      parts = [];
      size = 0;
    };
    for (const chunk of changed) {
      if (size > 0 && size + chunk.keys.length > chunkRows) send(false);
      parts.push(chunk);
      size += chunk.keys.length;
    }
    send(true);
  });
  return texts;
}

function travelAgainstLive(live: readonly Row[], texts: readonly string[]): Map<string, number> {
  const stages = new Map<string, number>();
  const liveMirror = new SubscriptionMirror();
  liveMirror.apply({
    type: 'batch',
    subscriptionId: 's',
    seq: 1,
    replace: true,
    snapshotEnd: true,
    upserts: [...live],
    deletes: [],
  });
  // The live table's name order is current when the user travels.
  queryRows(liveMirror);
  const mirror = new SubscriptionMirror(0, undefined, { wholeSnapshots: true });
  queryRows(mirror);
  // A tree without writeAhead (before session 17) writes the live rows at the first chunk.
  const ahead = mirror as { writeAhead?: (maxRows: number) => number };
  const writeAhead = (maxRows: number) => ahead.writeAhead?.(maxRows) ?? 0;
  let longestFrame = 0;
  texts.forEach((text, index) => {
    const last = index === texts.length - 1;
    const frameStart = cpuMs();
    const batch = timed(
      stages,
      last ? 'tail: parse last chunk' : 'arriving: parse',
      () => serverMessageOf(text) as DeltaBatch,
    );
    timed(
      stages,
      index === 0 ? 'arriving: copy the live rows' : last ? 'tail: apply whole' : 'arriving: hold',
      () => mirror.apply(batch, liveMirror),
    );
    if (last) return;
    const left = frameRows - batch.upserts.length - batch.deletes.length;
    if (left > 0) timed(stages, 'arriving: write ahead', () => writeAhead(left));
    longestFrame = Math.max(longestFrame, cpuMs() - frameStart);
    for (let frame = 0; frame < Number(values['idle-frames']); frame++) {
      const idleStart = cpuMs();
      timed(stages, 'arriving: write ahead', () => writeAhead(frameRows));
      longestFrame = Math.max(longestFrame, cpuMs() - idleStart);
    }
  });
  const keys = timed(stages, 'tail: query (name order)', () => queryRows(mirror));
  if (keys.length !== mirror.rows.size)
    throw new Error(`query returned ${keys.length} of ${mirror.rows.size}`);
  stages.set('arriving: longest frame', longestFrame);
  stages.set('arriving: write ahead', stages.get('arriving: write ahead') ?? 0);
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
const snapshot = replayMessages(rows, true);
// `--listing-rows objects`: the listing's batches as the WebSocket carried them before (JSON.parse).
const live = values['listing-rows'] === 'objects' ? messages(rows, false) : wireMessages(rows);
const travels: Map<string, number>[] = [];
const listings: Map<string, number>[] = [];
const againstLive: Map<string, number>[] = [];
const present = momentOf(rows);
const wholeMoment = replayMessages(present.moment, true);
let sentBytes = 0;
for (let index = 0; index < Number(values.rounds); index++) {
  if (!values['from-live']) {
    travels.push(travel(snapshot));
    listings.push(listing(live));
  }
  const stages = new Map<string, number>();
  const texts = await againstLiveOnMain(present.live, present.moment, stages);
  sentBytes = texts.reduce((total, text) => total + text.length, 0);
  for (const [stage, ms] of travelAgainstLive(present.live, texts)) stages.set(stage, ms);
  againstLive.push(stages);
}
if (travels.length > 0) {
  report(`travel to a moment of ${pods} rows (CPU, median of ${values.rounds})`, travels);
  console.log(`  sent: ${round(snapshot.reduce((total, text) => total + text.length, 0) / 1e6)} MB`);
}
report(
  `travel from live to a moment of ${present.moment.length} rows, ${values.changed} of them changed (CPU, median of ${values.rounds})`,
  againstLive,
);
console.log(
  `  sent: ${round(sentBytes / 1e6)} MB (the whole moment: ${round(wholeMoment.reduce((total, text) => total + text.length, 0) / 1e6)} MB)`,
);
if (listings.length > 0)
  report(
    `first listing of ${pods} rows, queried every ${frameRows} rows (CPU, median of ${values.rounds})`,
    listings,
  );
