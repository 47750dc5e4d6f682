// A reply whose value is megabytes of arrays (a past moment's metrics at 150,000 pods: 8 MB of JSON)
// goes in parts: main sends its arrays' slices as replyPart messages, one per task, then the reply,
// whose value holds the rest with those arrays empty and `joinParts` saying how many parts to join.
// Sent whole, the one message held the connection for as long as it took to deflate and send (the
// rows and cursor of a playback waiting behind it), and the page's thread for its whole parse; in
// parts, the playback's messages go in between and each part is a few ms of the page's.
import { sliceParallelArrays } from './parallel-arrays';

/** The arrays cut into parts, and how many items of each a part holds at most. */
export interface PartedArrays {
  readonly fields: readonly string[];
  readonly itemsPerPart: number;
}

/** A value as the reply carries it once parted: its parted arrays empty, the parts' count beside them. */
export type PartedHead<T> = T & { readonly joinParts: number };

/**
 * `value` cut for sending: undefined when no parted array is longer than a part (sent whole, as any
 * reply); else the head (the reply's value) and the parts (each replyPart's value, in order).
 */
export function splitReplyValue<T extends object>(
  value: T,
  parted: PartedArrays,
): { head: PartedHead<T>; parts: Record<string, unknown[]>[] } | undefined {
  const parts = sliceParallelArrays(value, parted.fields, parted.itemsPerPart);
  if (parts.length <= 1) return undefined;
  const head: Record<string, unknown> = { ...value, joinParts: parts.length };
  for (const field of Object.keys(parts[0]!)) head[field] = [];
  return { head: head as PartedHead<T>, parts };
}

/**
 * The value a parted reply stands for: `head` with each of its empty arrays replaced by that array's
 * parts joined in order (one concat each). Throws when the parts are not the ones `head` counts.
 */
export function joinReplyValue(head: unknown, parts: readonly unknown[]): unknown {
  if (typeof head !== 'object' || head === null || !('joinParts' in head)) return head;
  const { joinParts, ...value } = head as Record<string, unknown>;
  if (joinParts !== parts.length)
    throw new Error(`a parted reply came with ${parts.length} of its ${String(joinParts)} parts`);
  for (const [field, empty] of Object.entries(value)) {
    if (!Array.isArray(empty) || empty.length !== 0) continue;
    const slices = parts.map((part) => (part as Record<string, unknown[]> | null)?.[field]);
    if (slices.some((slice) => slice !== undefined && !Array.isArray(slice)))
      throw new Error(`a parted reply's part holds no array for "${field}"`);
    value[field] = empty.concat(...slices.filter((slice) => slice !== undefined));
  }
  return value;
}
