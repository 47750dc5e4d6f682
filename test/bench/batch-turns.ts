// By hand (issue 15, session 12): the longest task a live subscription's snapshot costs main, its
// batches sent all at once (before) or one per turn of the event loop (BatchStream's oneBatchPerTurn,
// what SessionConnection now asks for), in this process's CPU time so a loaded machine does not
// stretch it. Each send is what the WebSocket transport does on main: the batch's JSON text and a
// Buffer of it (ws's deflate then runs on libuv's threads).
//
//   npx tsx test/bench/batch-turns.ts [--rows 16000] [--rounds 4]
import { parseArgs } from 'node:util';
import { BatchStream } from '../../main/bridge/batch-stream';
import { messageText } from '../../main/bridge/outgoing-message';
import { realClock } from '../../main/cache/real-clock';
import { podRows } from './pod-rows';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '16000' },
    rounds: { type: 'string', default: '4' },
  },
});
const rows = podRows(Number(values.rows));
const batchesExpected = Math.ceil(rows.length / 2_000);

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** The snapshot of `rows` to a renderer that acknowledges nothing meanwhile (a window of them all). */
async function snapshot(oneBatchPerTurn: boolean): Promise<{ longestMs: number; totalMs: number }> {
  let batches = 0;
  const stream = new BatchStream({
    subscriptionId: 's1',
    clock: realClock,
    oneBatchPerTurn,
    maxUnacknowledgedBatches: batchesExpected,
    send: (batch) => {
      batches++;
      Buffer.from(messageText(batch));
    },
  });
  await nextTurn();
  // A task ends where the loop gets a turn: a setImmediate chain marks each.
  const start = cpuMs();
  let taskStart = start;
  let longestMs = 0;
  let running = true;
  const mark = () => {
    const now = cpuMs();
    longestMs = Math.max(longestMs, now - taskStart);
    taskStart = now;
    if (running) setImmediate(mark);
  };
  setImmediate(mark);
  stream.snapshot(rows);
  while (batches < batchesExpected) await new Promise((resolve) => setTimeout(resolve, 1));
  await nextTurn();
  running = false;
  stream.close();
  return { longestMs, totalMs: cpuMs() - start };
}

console.log(`a snapshot of ${rows.length} rows, ${batchesExpected} batches (CPU ms)`);
for (let round = 0; round < Number(values.rounds); round++) {
  for (const oneBatchPerTurn of [false, true]) {
    const { longestMs, totalMs } = await snapshot(oneBatchPerTurn);
    const mode = oneBatchPerTurn ? 'one per turn' : 'all at once ';
    console.log(`  ${mode}: longest task ${longestMs.toFixed(0)}, in all ${totalMs.toFixed(0)}`);
  }
}
