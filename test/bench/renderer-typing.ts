// The filter bar's queries as the ui bench types them, measured in the renderer's store alone: each
// text typed key by key (then cleared), a churn batch applied between keys, and each key's query asked
// as the table asks it (a NarrowingQuery that keeps the last answer, sorted by name), with the filter
// bar's own parse. What a key costs here is its query's CPU time, apart from React, the paint and the
// machine's load: the ui bench's keystroke latency is this plus the page's share of a frame.
//
// Alone, on synthetic pods (renderer-churn-alone.ts's), without the cluster the renderer bench needs:
//
//   npx tsx test/bench/renderer-typing.ts [--rows 150000] [--profile FILE.cpuprofile] [--texts 'a|b']
//
// prints each text's keys' CPU ms (the cheapest of the rounds) and their max, sum and p95. --profile
// writes a V8 CPU profile of the typing alone (the mirror's setup left out; profile-summary.ts reads
// it); --texts types these texts (separated by |) rather than the ui bench's.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { pathToFileURL } from 'node:url';
import type { Row } from '../../shared/protocol/row';
import type { DeltaBatch } from '../../shared/protocol/server-messages';
import type { ManualFrameScheduler } from '../../renderer/store/frame-scheduler';
import type { MirrorStore } from '../../renderer/store/mirror-store';
import { NarrowingQuery } from '../../renderer/store/narrowing-query';
import type { RowFilter } from '../../renderer/store/row-query';
import type { SubscriptionMirror } from '../../renderer/store/subscription-mirror';
import { warmTextSearch } from '../../renderer/store/text-match';
import { parseFilterExpression } from '../../renderer/ui-state/filter-expression';
import { rowFilterOf } from '../../renderer/views/kind-rows-query';
import { loadedMirror } from './loaded-mirror';
import { syntheticRows } from './renderer-churn-alone';

/** Changes between two keys: 2,000 changes/s over the ui bench's 60 ms between key presses. */
const changesPerKey = 120;
/** Times every text is typed: a key's figure is its cheapest run. */
const rounds = 3;

/**
 * This process's CPU time in ms (its GC threads included, as a page's are), which a loaded machine
 * does not stretch as it does wall time; the thread's own clock (/proc/thread-self/schedstat) ticks
 * in 4 ms steps here, too coarse for one query.
 */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export interface TextCost {
  readonly text: string;
  /** CPU ms of each key's query (the cheapest of `rounds`), the clearing's last. */
  readonly keys: number[];
  /**
   * The same in the first round alone: what the page pays the first time a text is typed, when
   * whatever the query builds on first use (and idle-time warming has not) is built.
   */
  readonly firstKeys: number[];
}

/** The texts the ui bench types (ui.ts's filterTexts), from the first row with an app label. */
export function typedTexts(rows: readonly Row[]): string[] {
  const row = rows.find((candidate) => candidate.labels.app !== undefined) ?? rows[0];
  const app = row.labels.app ?? 'web';
  return [
    `app=${app}`,
    `app in (${app}),pod-template-hash!=none`,
    '!canary',
    `app!=${app}`,
    row.name.slice(0, 8),
  ];
}

/** The filter the view builds from the typed text (rowFilterOf, as use-kind-rows.ts asks it). */
function filterOf(text: string): RowFilter {
  return rowFilterOf(parseFilterExpression(text));
}

/**
 * Kubelet-like churn between keys: rows updated (status, resourceVersion), and rows deleted and added
 * back under new names, as ReplicaSets replace pods, so keys come and go as in the ui bench's cluster.
 */
function churnBatch(
  subscriptionId: string,
  mirror: SubscriptionMirror,
  pool: readonly Row[],
  random: () => number,
): DeltaBatch {
  const seq = mirror.lastSeq + 1;
  const upserts = new Map<string, Row>();
  const deletes = new Set<string>();
  while (upserts.size + deletes.size < changesPerKey) {
    const row = pool[Math.floor(random() * pool.length)];
    const current = mirror.rows.get(row.key);
    const choice = random();
    if (current !== undefined && choice < 0.25) deletes.add(row.key);
    else if (current === undefined)
      upserts.set(row.key, { ...row, resourceVersion: `${row.resourceVersion}.${seq}` });
    else
      upserts.set(row.key, {
        ...current,
        resourceVersion: `${row.resourceVersion}.${seq}`,
        status: choice < 0.6 ? 'Running' : 'CrashLoopBackOff',
      });
  }
  for (const key of upserts.keys()) deletes.delete(key);
  return { type: 'batch', subscriptionId, seq, upserts: [...upserts.values()], deletes: [...deletes] };
}

/**
 * Types each of `texts` key by key into a NarrowingQuery over `mirror`, then clears it, with
 * `changesPerKey` changes applied before each key; `pool` is the rows churn draws from (deleted keys
 * come back from it). Before the first key the table has been shown unfiltered and the label indexes
 * and free-text search read, as the page has done by then (use-warm-label-indexes.ts).
 */
export function typeTexts(
  subscriptionId: string,
  store: MirrorStore,
  scheduler: ManualFrameScheduler,
  mirror: SubscriptionMirror,
  pool: readonly Row[],
  texts: readonly string[],
  random: () => number,
): TextCost[] {
  const narrowing = new NarrowingQuery();
  const sort = { column: 'name' } as const;
  const costs = texts.map((text) => ({
    text,
    keys: new Array<number>(text.length + 1).fill(Infinity),
    firstKeys: new Array<number>(text.length + 1).fill(0),
  }));
  narrowing.query(mirror, {}, sort);
  // An idle page reads them once a second (useWarmLabelIndexes) for as long as it has been idle: a
  // few seconds here, each warming step's builds done.
  for (let second = 0; second < 3; second++) {
    void mirror.indexes.byLabel;
    warmTextSearch(mirror);
  }
  for (let round = 0; round < rounds; round++) {
    for (const { text, keys, firstKeys } of costs) {
      for (let length = 1; length <= text.length + 1; length++) {
        // The last step is the clearing: select-all and Backspace leave an empty bar.
        const typed = length <= text.length ? text.slice(0, length) : '';
        store.receive(churnBatch(subscriptionId, mirror, pool, random));
        scheduler.runFrame();
        const started = cpuMs();
        narrowing.query(mirror, filterOf(typed), sort);
        const cost = cpuMs() - started;
        keys[length - 1] = Math.min(keys[length - 1], cost);
        if (round === 0) firstKeys[length - 1] = cost;
      }
    }
  }
  narrowing.release();
  return costs;
}

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function main(): Promise<void> {
  const count = Number(argument('--rows') ?? 150_000);
  const profile = argument('--profile');
  const random = seededRandom(7);
  const rows = syntheticRows(count, random);
  const subscriptionId = 'typing';
  const { scheduler, store, mirror } = loadedMirror(subscriptionId, rows);
  const session = new Session();
  if (profile !== undefined) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
  }
  const texts = argument('--texts')?.split('|') ?? typedTexts(rows);
  const costs = typeTexts(subscriptionId, store, scheduler, mirror, rows, texts, random);
  if (profile !== undefined) {
    const { profile: written } = await session.post('Profiler.stop');
    writeFileSync(profile, JSON.stringify(written));
    session.disconnect();
  }
  const all = costs.flatMap((text) => text.keys).sort((first, second) => first - second);
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  for (const { text, keys } of costs)
    console.log(
      `"${text}" max ${Math.max(...keys).toFixed(1)} sum ${sum(keys).toFixed(1)} [${keys.map((key) => key.toFixed(1)).join(' ')}]`,
    );
  const p95 = all[Math.min(all.length - 1, Math.ceil(all.length * 0.95) - 1)];
  console.log(
    `${count} rows, ${all.length} keys: p50 ${all[Math.floor(all.length / 2)].toFixed(1)} p95 ${p95.toFixed(1)} max ${all[all.length - 1].toFixed(1)} sum ${sum(all).toFixed(1)} ms of CPU`,
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
