// Table rows encoded once, where they are made, and carried as text from there to a renderer's
// socket. A travel's moment is projected in the history query worker; sent as objects, its rows were
// structured-cloned to main (serialized in the worker, deserialized on main), kept there as objects,
// then serialized again as the batches' JSON for the WebSocket: in the ui bench's travel at 50,000
// pods that was about 2 s of main's CPU and much of its garbage. Encoded, a chunk crosses from the
// worker as one string, packed as columns (shared/protocol/packed-rows.ts), and main writes it into
// a batch's message as it is.
import type { Row } from '../../shared/protocol/row';
import type { PackedRows } from '../../shared/protocol/packed-rows';
import { packRows } from '../../shared/protocol/packed-rows';

export interface EncodedRows {
  /** JSON of the rows' PackedRows. */
  readonly json: string;
  /** The rows' keys, in order: what main needs of them (see ReplaySubscription). */
  readonly keys: readonly string[];
}

export function encodeRows(rows: readonly Row[]): EncodedRows {
  return { json: JSON.stringify(packRows(rows)), keys: rows.map((row) => row.key) };
}

/** The PackedRows of `rows`, parsed (for a transport that carries values, and for tests). */
export function parsedRows(rows: EncodedRows): PackedRows {
  return JSON.parse(rows.json) as PackedRows;
}
