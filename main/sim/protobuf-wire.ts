// The protocol buffers wire format, read-only: a message is a run of (field number, wire type, value)
// records. Only the three wire types Kubernetes' generated messages use appear here: varint (ints,
// bools), length-delimited (strings, bytes, nested messages, map entries) and, for completeness of
// skipping, the fixed 32/64-bit ones. Groups (types 3 and 4) are deprecated and never generated.
import { badRequest } from './api-errors';

export type WireField =
  | { number: number; wireType: 'varint'; value: bigint }
  | { number: number; wireType: 'bytes'; value: Uint8Array }
  | { number: number; wireType: 'fixed'; value: Uint8Array };

function truncated(): never {
  throw badRequest('the protobuf body is truncated');
}

/** A varint at `offset`, as a bigint so int64s keep every bit; returns the offset after it too. */
function readVarint(bytes: Uint8Array, offset: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  for (let index = offset; index < bytes.length && shift < 70n; index++) {
    const byte = bytes[index];
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return [result, index + 1];
    shift += 7n;
  }
  return truncated();
}

/** Every field record of one message, in wire order (repeated fields arrive as repeated records). */
export function* readFields(bytes: Uint8Array): Generator<WireField> {
  let offset = 0;
  while (offset < bytes.length) {
    const [key, afterKey] = readVarint(bytes, offset);
    const number = Number(key >> 3n);
    const wireType = Number(key & 7n);
    offset = afterKey;
    if (wireType === 0) {
      const [value, next] = readVarint(bytes, offset);
      offset = next;
      yield { number, wireType: 'varint', value };
    } else if (wireType === 2) {
      const [length, next] = readVarint(bytes, offset);
      const end = next + Number(length);
      if (end > bytes.length) truncated();
      offset = end;
      yield { number, wireType: 'bytes', value: bytes.subarray(next, end) };
    } else if (wireType === 1 || wireType === 5) {
      const end = offset + (wireType === 1 ? 8 : 4);
      if (end > bytes.length) truncated();
      yield { number, wireType: 'fixed', value: bytes.subarray(offset, end) };
      offset = end;
    } else {
      throw badRequest(`the protobuf body has an unsupported wire type ${wireType} in field ${number}`);
    }
  }
}

/** A varint as the signed 64-bit integer it encodes (negative int32s are sign-extended to 64 bits). */
export function signed(value: bigint): number {
  return Number(BigInt.asIntN(64, value));
}
