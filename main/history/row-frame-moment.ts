// A moment's table rows from row frames: which change holds each object's version (the keyframe and
// the changes after it, as for any moment), the rows of those changes the frames hold (or the moment
// before kept), and for the others (the changes since the last frame, rows a frame could not keep)
// their change rows, to be decoded and projected as without frames; in the moment's order (see
// moment-order.ts).
import { parseGvrKey } from '../../shared/kube/object';
import { printerFor } from '../../shared/kinds/columns';
import { objectKey } from '../../shared/protocol/row';
import type { RecordingMark } from './recorded-change';
import type { RecordingReader } from './recording-reader';
import { printerSignature } from './row-frame-codec';
import type { DecodedRowFrame } from './row-frame-decoder';
import type { FrameChain, RowFrameReader } from './row-frame-reader';
import { printerKeepsRows } from './row-frame-writer';
import type { StateQuery } from './state-at';
import { changeRows, gapAt, streamMembers, streamsOf } from './state-at';
import { lastChangeAt } from './stream-state';
import type { MomentRow } from './moment-order';
import { MomentOrder, momentRow, sliceJoined, withText } from './moment-order';
import type { RowLayout } from '../../shared/protocol/row-tuples';
import { replayLayoutOf } from './replay-layout';

export interface FramedMoment {
  /** In the moment's order, one per namespace/name. */
  readonly rows: MomentRow[];
  readonly gap: RecordingMark | undefined;
}

/**
 * The moment of `query` from its streams' row frames, with rows `known` by change id (the moment
 * before's); undefined when a stream has no frame before the moment to read (the caller rebuilds the
 * moment from its versions).
 */
export function framedMoment(
  reader: RecordingReader,
  frames: RowFrameReader,
  query: StateQuery,
  known: ReadonlyMap<number, MomentRow>,
): FramedMoment | undefined {
  const streams = streamsOf(reader, query);
  const chains = framedChains(reader, frames, query, streams);
  if (chains === undefined) return undefined;
  const gap = gapAt(reader, new Set(streams.map((stream) => stream.id)), query.time);
  const namespace = query.namespace;
  const layout = replayLayoutOf(query.gvr);
  const order = new MomentOrder(known.size);
  for (const [position, stream] of streams.entries()) {
    const members = streamMembers(reader, stream, query.time).members;
    // Each frame row whose change is still its object's at the moment is the object's row; taken
    // once (the object leaves `members`), whichever frame of the chain holds it.
    for (const frame of chains[position]) takeRows(frame, members, known, namespace, layout, order);
    // The changes since the chain's last frame, and rows a frame could not keep.
    const missing: number[] = [];
    for (const change of members.values()) {
      const kept = withText(known, change);
      if (kept === undefined) missing.push(change);
      else if (namespace === undefined || kept.namespace === namespace) order.add(kept);
    }
    for (const changeRow of changeRows(reader, stream, missing)) {
      if (namespace !== undefined && changeRow.namespace !== namespace) continue;
      const key = objectKey(changeRow.namespace, changeRow.name);
      order.add(momentRow(key, changeRow.namespace, changeRow.id, undefined, changeRow));
    }
  }
  return { rows: order.ordered(), gap };
}

/**
 * Adds to `order` the rows of `frame` that `members` (object -> change) holds, taking them out of
 * `members`: those `known`, and the others with their text from the frame (tuples under `layout`),
 * in the frame's order (taken in the moment's order, each row read another frame at another place,
 * and cache misses made them three times as slow). Each row's text is a slice of one string joined
 * from the texts taken (sliceJoined).
 */
function takeRows(
  frame: DecodedRowFrame,
  members: Map<number, number>,
  known: ReadonlyMap<number, MomentRow>,
  namespace: string | undefined,
  layout: RowLayout,
  order: MomentOrder,
): void {
  const { objects, changes } = frame;
  const texts: string[] = [];
  /** The frame's positions of the rows whose texts are taken. */
  const made: number[] = [];
  for (let at = 0; at < objects.length; at++) {
    const change = changes[at];
    if (members.get(objects[at]) !== change) continue;
    const kept = withText(known, change);
    if (kept !== undefined) {
      members.delete(objects[at]);
      if (namespace === undefined || kept.namespace === namespace) order.add(kept);
      continue;
    }
    // Outside the namespace asked for: not the moment's row, and not to be decoded either.
    if (namespace !== undefined && frame.namespace(at) !== namespace) {
      members.delete(objects[at]);
      continue;
    }
    const text = frame.text(at, layout);
    // A row the frame cannot tell stays in `members`: its version is decoded, as one no frame holds.
    if (text === undefined) continue;
    members.delete(objects[at]);
    made.push(at);
    texts.push(text);
  }
  const owned = sliceJoined(texts);
  for (const [index, at] of made.entries())
    order.add(momentRow(frame.key(at), frame.namespace(at), changes[at], owned[index], undefined));
}

/** Each stream's chain of row frames before the moment, or undefined when one has none to read. */
export function framedChains(
  reader: RecordingReader,
  frames: RowFrameReader,
  query: StateQuery,
  streams: readonly { readonly id: number }[],
): FrameChain[] | undefined {
  const printer = printerFor(parseGvrKey(query.gvr));
  if (!printerKeepsRows(printer) || streams.length === 0) return undefined;
  const signature = printerSignature(printer);
  let lastChange: number;
  try {
    lastChange = lastChangeAt(reader.database, query.time);
  } catch {
    return undefined;
  }
  const chains: FrameChain[] = [];
  for (const stream of streams) {
    const chain = frames.chainAt(reader, stream.id, lastChange, signature);
    if (chain === undefined) return undefined;
    chains.push(chain);
  }
  return chains;
}
