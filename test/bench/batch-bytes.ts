// By hand (issue 15, session 15): main's CPU to turn one batch of rows into what the WebSocket sends,
// the batch's text as before (messageText, then what ws and zlib do with a string: its UTF-8 length,
// which flattens V8's rope, and its bytes) against batchBytes (each row stringified and written into
// one buffer; since session 16 each row as a tuple, shared/protocol/row-tuples.ts). Rows from a real listing when --rows-file names a batch's JSON (one the backend sent),
// else pod-rows.ts's. CPU time of this process, medians of --rounds, the two alternated.
//
//   npx tsx test/bench/batch-bytes.ts [--rows 2000] [--rounds 7] [--rows-file batch.json]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { batchBytes } from '../../main/bridge/batch-bytes';
import { messageText } from '../../main/bridge/outgoing-message';
import type { DeltaBatch } from '../../shared/protocol/server-messages';
import { podRows } from './pod-rows';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '7' },
    'rows-file': { type: 'string' },
  },
});
const upserts = values['rows-file']
  ? (JSON.parse(readFileSync(values['rows-file'], 'utf8')) as DeltaBatch).upserts
  : podRows(Number(values.rows));
const batch: DeltaBatch = { type: 'batch', subscriptionId: 's1', seq: 1, upserts, deletes: [] };
const perRound = 20;

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

const contenders: Record<string, () => Buffer> = {
  text: () => {
    const text = messageText(batch);
    Buffer.byteLength(text);
    return Buffer.from(text);
  },
  bytes: () => batchBytes(batch),
};
const spent: Record<string, number[]> = { text: [], bytes: [] };
for (let round = 0; round < Number(values.rounds); round++) {
  const order = round % 2 === 0 ? ['text', 'bytes'] : ['bytes', 'text'];
  for (const name of order) {
    const start = cpuMs();
    for (let index = 0; index < perRound; index++) contenders[name]();
    spent[name].push((cpuMs() - start) / perRound);
  }
}
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const size = contenders.bytes().length;
console.log(`a batch of ${upserts.length} rows (${(size / 1024).toFixed(0)} KiB), CPU ms per batch, median:`);
for (const name of ['text', 'bytes'])
  console.log(
    `  ${name.padEnd(5)} ${median(spent[name]).toFixed(2)} (${spent[name].map((ms) => ms.toFixed(1)).join(' ')})`,
  );
