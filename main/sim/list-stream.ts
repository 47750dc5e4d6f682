// A list's body written item by item in ~64 KiB chunks (never one giant string), yielding the event
// loop every itemsPerTurn items: a LIST's items and the metrics list's alike. The embedded cluster's
// API server, its controllers and its churn share one thread: the metrics list of 150,000 pods is 57 MB
// of JSON, which one JSON.stringify wrote in 6.4 s of that thread (17 s once under load), and the
// controller loop's ticks, with the churn they make, stopped for as long (a real API server and
// metrics-server answer from processes of their own). Waiting for the socket to drain is not enough:
// a client that reads as fast as it is written never makes the writer wait.
import type { ServerResponse } from 'node:http';
import { ResponseBody } from './response-compression';
import type { ResponseCompression } from './response-compression';

/** Items serialized between two turns of the event loop: a few ms of JSON. */
export const itemsPerTurn = 1_000;

/**
 * Writes `head`, each item's text comma-separated, then `tail`, as a 200 JSON response; gzipped over
 * 128 KiB given a `compression` (the client accepts gzip and the cluster compresses).
 */
export async function streamList<T>(
  response: ServerResponse,
  head: string,
  items: readonly T[],
  itemText: (item: T) => string,
  tail: string,
  compression?: ResponseCompression,
): Promise<void> {
  const writer = new ResponseBody(
    response,
    { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' },
    compression,
  );
  await writer.push(head);
  for (let index = 0; index < items.length; index++) {
    const pending = writer.push(index === 0 ? itemText(items[index]!) : `,${itemText(items[index]!)}`);
    if (pending) await pending;
    else if ((index + 1) % itemsPerTurn === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await writer.push(tail);
  await writer.end();
}
