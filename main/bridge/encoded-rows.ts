// Table rows serialized once, where they are made, and carried as text from there to a renderer's
// socket. A travel's moment is projected in the history query worker; sent as objects, its 150,000
// rows were structured-cloned to main (serialized in the worker, deserialized on main), kept there as
// objects, then serialized again as the batches' JSON for the WebSocket: in the ui bench's travel at
// 50,000 pods that was about 2 s of main's CPU and much of its garbage. As text, a chunk crosses from
// the worker as one string (copied, not parsed), and main passes it into a batch's message as it is.
//
// The text is the rows as tuples under a layout (shared/protocol/row-tuples.ts), the form the live
// stream's batches carry, so a batch of them is a TupleBatch: a third fewer bytes than objects.
import type { Row } from '../../shared/protocol/row';
import type { RowLayout } from '../../shared/protocol/row-tuples';
import { rowLayoutOf, rowTuple, rowsFromTuples, sameLayout } from '../../shared/protocol/row-tuples';

export interface EncodedRows {
  /** JSON of the rows' tuples under `layout` (an array, in order). */
  readonly json: string;
  /** How every row of `json` is written (see RowLayout). */
  readonly layout: RowLayout;
  /** The rows' keys, in the same order: what main needs of them (see ReplaySubscription). */
  readonly keys: readonly string[];
}

/** `rows` as text, under `layout` (by default the one rowLayoutOf chooses for them). */
export function encodeRows(rows: readonly Row[], layout: RowLayout = rowLayoutOf(rows)): EncodedRows {
  return {
    json: JSON.stringify(rows.map((row) => rowTuple(row, layout))),
    layout,
    keys: rows.map((row) => row.key),
  };
}

/** The rows `rows` stands for; throws when its text is not tuples under its layout. */
export function decodeRows(rows: EncodedRows): Row[] {
  const decoded = rowsFromTuples(JSON.parse(rows.json), rows.layout);
  if (decoded === undefined) throw new Error('encoded rows that are not tuples under their layout');
  return decoded;
}

/**
 * `parts` as one run of rows, in order, without parsing them (their JSON arrays are joined) when they
 * share a layout, as a moment's chunks do (see replay-layout.ts); else decoded and written again.
 */
export function joinedRows(parts: readonly EncodedRows[]): EncodedRows {
  if (parts.length === 1) return parts[0];
  const written = parts.filter((part) => part.keys.length > 0);
  if (written.length === 0) return { json: '[]', layout: parts[0]?.layout ?? { cellFields: [] }, keys: [] };
  const layout = written[0].layout;
  if (!written.every((part) => sameLayout(part.layout, layout)))
    return encodeRows(written.flatMap((part) => decodeRows(part)));
  const texts: string[] = [];
  const keys: string[] = [];
  for (const part of written) {
    // "[a,b]" + "[c]" -> "[a,b,c]": each part is an array; its brackets are dropped and commas joined.
    texts.push(part.json.slice(1, -1));
    for (const key of part.keys) keys.push(key);
  }
  return { json: `[${texts.join(',')}]`, layout, keys };
}
