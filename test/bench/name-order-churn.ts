// The page's kept name order under the ui bench's churn, alone in Node (issue 15): a mirror of --rows
// pods, then --reads re-queries, each after --changes row changes (a share of them pods deleted and
// created, as the simulator's churn does), each read timed in this thread's CPU time. What one live
// re-query of the unfiltered table pays to bring the order up to date. Each answer is leased until the
// next replaces it, as the table's view does (key-leases.ts), so the order writes into its replaced
// arrays as on the page; the distinct key arrays the reads returned are printed with the times:
//
//   npx tsx test/bench/name-order-churn.ts [--rows 150000] [--changes 600] [--reads 200] [--excluded 100]
//
// --excluded N: each query also leaves N present keys out (as `!canary` or a typed exclusion does),
// which finds them by rank through the key -> rank Map: a read after the order ranked every key again
// pays that Map's rebuild (session 18: under the simulator's job pods, named by a counter, each arrival
// lands just after the last and uses up its gap within a few reads).
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { leaseKeys, returnKeys } from '../../renderer/store/key-leases';
import { nameOrder, nameOrderWithout } from '../../renderer/store/name-order';
import { SubscriptionMirror } from '../../renderer/store/subscription-mirror';
import type { Row } from '../../shared/protocol/row';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '150000' },
    changes: { type: 'string', default: '600' },
    reads: { type: 'string', default: '200' },
    /** Share of the changes that delete a pod and create another (the rest update in place). */
    replaced: { type: 'string', default: '0.25' },
    excluded: { type: 'string', default: '0' },
  },
});
const rowCount = Number(values.rows);
let seed = 7;
const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const suffix = (): string =>
  Math.floor(random() * 36 ** 5)
    .toString(36)
    .padStart(5, '0');
const namespaces = Array.from({ length: 50 }, (_, index) => `team-${index}`);
let jobs = 0;
function newKey(): string {
  const namespace = namespaces[Math.floor(random() * namespaces.length)];
  // Deployment pods (random suffixes) and job pods (a counter, as the simulator's churn names them).
  return random() < 0.2
    ? `${namespace}/batch-${(jobs++).toString(36)}-${suffix()}`
    : `${namespace}/app-${Math.floor(random() * 400)}-${suffix()}-${suffix()}`;
}
function row(key: string, version: number): Row {
  const [namespace, name] = key.split('/');
  return {
    key,
    uid: `uid-${key}`,
    name,
    namespace,
    resourceVersion: String(version),
    labels: {},
    owners: [],
    createdAt: 0,
    cells: [name],
  };
}

const mirror = new SubscriptionMirror();
const keys: string[] = [];
const initial: Row[] = [];
while (keys.length < rowCount) {
  const key = newKey();
  keys.push(key);
  initial.push(row(key, 1));
}
let seq = 1;
mirror.apply({
  type: 'batch',
  subscriptionId: 's',
  seq: seq++,
  upserts: initial,
  deletes: [],
  replace: true,
  snapshotEnd: true,
});
nameOrder(mirror);
const changes = Number(values.changes);
const replaced = Number(values.replaced);
const times: number[] = [];
const answers = new Set<readonly string[]>();
let shown: readonly string[] | undefined;
for (let read = 0; read < Number(values.reads); read++) {
  const upserts: Row[] = [];
  const deletes: string[] = [];
  const touched = new Set<string>();
  for (let change = 0; change < changes; change++) {
    const index = Math.floor(random() * keys.length);
    const key = keys[index];
    if (touched.has(key)) continue;
    touched.add(key);
    if (random() < replaced) {
      deletes.push(key);
      const created = newKey();
      keys[index] = created;
      upserts.push(row(created, seq));
    } else upserts.push(row(key, seq));
  }
  mirror.apply({ type: 'batch', subscriptionId: 's', seq: seq++, upserts, deletes });
  const started = performance.now();
  const cpu = process.cpuUsage();
  // What the unfiltered table's query asks for (queryRows -> nameOrderExcluding).
  const excluded = Number(values.excluded);
  const answer = nameOrderWithout(mirror, excluded > 0 ? [new Set(keys.slice(0, excluded))] : []);
  const used = process.cpuUsage(cpu);
  leaseKeys(answer);
  if (shown) returnKeys(shown);
  shown = answer;
  answers.add(answer);
  times.push((used.user + used.system) / 1000);
  void started;
}
times.sort((left, right) => left - right);
const sum = times.reduce((total, time) => total + time, 0);
const at = (share: number) => times[Math.min(times.length - 1, Math.floor(share * times.length))].toFixed(2);
console.log(
  `${rowCount} rows, ${times.length} reads of ${changes} changes${values.excluded === '0' ? '' : ` (${values.excluded} keys left out)`}: CPU per read mean ${(sum / times.length).toFixed(2)} ms, p50 ${at(0.5)}, p95 ${at(0.95)}, max ${times.at(-1)!.toFixed(2)} ms, over 20 ms ${times.filter((time) => time > 20).length}; ${answers.size} distinct key arrays`,
);
