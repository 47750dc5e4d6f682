// Table rows serialized once, where they are made, and carried as text from there to a renderer's
// socket. A travel's moment is projected in the history query worker; sent as objects, its 150,000
// rows were structured-cloned to main (serialized in the worker, deserialized on main), kept there as
// objects, then serialized again as the batches' JSON for the WebSocket: in the ui bench's travel at
// 50,000 pods that was about 2 s of main's CPU and much of its garbage. As text, a chunk crosses from
// the worker as one string (copied, not parsed), and main passes it into a batch's message as it is.
import type { Row } from '../../shared/protocol/row';

export interface EncodedRows {
  /** JSON of the Row[] (an array, in order). */
  readonly json: string;
  /** The rows' keys, in the same order: what main needs of them (see ReplaySubscription). */
  readonly keys: readonly string[];
}

export function encodeRows(rows: readonly Row[]): EncodedRows {
  return { json: JSON.stringify(rows), keys: rows.map((row) => row.key) };
}

export function decodeRows(rows: EncodedRows): Row[] {
  return JSON.parse(rows.json) as Row[];
}

/** `parts` as one run of rows, in order, without parsing them (their JSON arrays are joined). */
export function joinedRows(parts: readonly EncodedRows[]): EncodedRows {
  if (parts.length === 1) return parts[0];
  const texts: string[] = [];
  const keys: string[] = [];
  for (const part of parts) {
    if (part.keys.length === 0) continue;
    // "[a,b]" + "[c]" -> "[a,b,c]": each part is an array; its brackets are dropped and commas joined.
    texts.push(part.json.slice(1, -1));
    for (const key of part.keys) keys.push(key);
  }
  return { json: `[${texts.join(',')}]`, keys };
}
