// By hand: what V8's collector did on a process's main thread, from its `--trace-gc-nvp` lines (one
// line per collection, prefixed "[pid:isolate]"). The isolate with the largest heap is taken as the
// main thread (a worker's heap is smaller), and only collections after --from ms of that isolate's
// life are counted, so a bench's start (the initial lists) can be left out:
//
//   KUBETIDE_BENCH_BACKEND_NODE_ARGS=--trace-gc-nvp npx tsx test/bench/ui-backend-churn.ts --pods 150000 --seconds 60 > run.log
//   npx tsx test/bench/gc-trace-summary.ts run.log [--from 30000]
//
// Prints the mark-compacts (their pauses, the incremental marking before each, the part of each pause
// spent clearing weak collections, the heap before and after), and the scavenges (how many, their
// pauses in all and at most, the bytes they promoted to the old generation: what later mark-compacts
// must mark and free).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { from: { type: 'string', default: '30000' } },
});
const from = Number(values.from);
const line = /^\[(\d+):(\w+)\]\s+(\d+) ms: (pause=.*)$/;

type Collection = { at: number; fields: Map<string, string> };
const number = (collection: Collection, field: string) => Number(collection.fields.get(field) ?? 0);
const mb = (bytes: number) => Math.round(bytes / 1e6);

for (const file of positionals) {
  const byIsolate = new Map<string, Collection[]>();
  for (const text of readFileSync(file, 'utf8').split('\n')) {
    const match = line.exec(text);
    if (!match) continue;
    const fields = new Map(match[4]!.split(' ').map((pair) => pair.split('=', 2) as [string, string]));
    const isolate = `${match[1]}:${match[2]}`;
    if (!byIsolate.has(isolate)) byIsolate.set(isolate, []);
    byIsolate.get(isolate)!.push({ at: Number(match[3]), fields });
  }
  const largest = (collections: Collection[]) =>
    Math.max(...collections.map((collection) => number(collection, 'total_size_before')));
  const main = [...byIsolate.values()].sort((a, b) => largest(b) - largest(a))[0] ?? [];
  const counted = main.filter((collection) => collection.at >= from);
  const markCompacts = counted.filter((collection) => collection.fields.get('gc') === 'mc');
  const scavenges = counted.filter((collection) => collection.fields.get('gc') === 's');
  const sum = (collections: Collection[], field: string) =>
    collections.reduce((total, collection) => total + number(collection, field), 0);
  console.log(`${file}: the largest isolate's collections from ${from} ms of its life`);
  console.log(
    `  mark-compacts ${markCompacts.length}: pauses ${markCompacts.map((c) => Math.round(number(c, 'pause'))).join(', ')} ms; ` +
      `incremental marking ${markCompacts.map((c) => Math.round(number(c, 'incremental'))).join(', ')} ms; ` +
      `weak collections cleared ${markCompacts.map((c) => Math.round(number(c, 'clear.weak_collections'))).join(', ')} ms; ` +
      `heap ${markCompacts.map((c) => `${mb(number(c, 'total_size_before'))} -> ${mb(number(c, 'total_size_after'))}`).join(', ')} MB`,
  );
  console.log(
    `  scavenges ${scavenges.length}: pauses ${Math.round(sum(scavenges, 'pause'))} ms in all, ` +
      `${Math.round(Math.max(0, ...scavenges.map((c) => number(c, 'pause'))))} at most; promoted ${mb(sum(scavenges, 'promoted'))} MB`,
  );
}
