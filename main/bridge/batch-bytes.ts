// A batch of rows as the UTF-8 bytes of its JSON, for the WebSocket. Sent as one string, a batch of
// 2,000 rows (1.1 MB) cost main far more than its JSON.stringify (3-4 ms): the string V8 builds is a
// rope of parts, and ws first measures its UTF-8 length (which flattens the rope into a copy), then
// zlib converts it to bytes with V8's character-by-character UTF-8 writer: 14-17 ms a batch, against
// 7-9 ms here (test/bench/batch-bytes.ts). Here each row is stringified alone (a short string that
// stays in the CPU's cache) and written straight into the batch's buffer.
//
// The rows go as tuples (shared/protocol/row-tuples.ts): the bytes are the JSON of a TupleBatch, the
// batch's other members as they are, then its rowLayout and, last, its tuples in order.
import type { DeltaBatch } from '../../shared/protocol/server-messages';
import { rowLayoutOf, rowTuple } from '../../shared/protocol/row-tuples';

/** Room left at the end of the first guess, so rows with a few multi-byte characters need no copy. */
const slackBytes = 64 * 1024;

const comma = 0x2c;
const closeBracket = 0x5d;
const closeBrace = 0x7d;

export function batchBytes(batch: DeltaBatch): Buffer {
  const { upserts, ...envelope } = batch;
  const layout = rowLayoutOf(upserts);
  // The envelope's JSON always has members (type, subscriptionId, seq): the rows join them.
  const head = `${JSON.stringify(envelope).slice(0, -1)},"rowLayout":${JSON.stringify(layout)},"tuples":[`;
  const texts = new Array<string>(upserts.length);
  // One byte a character holds for ASCII, what rows almost always are; a row with other characters
  // makes room for itself below.
  let guess = Buffer.byteLength(head) + upserts.length + 2 + slackBytes;
  for (let index = 0; index < upserts.length; index++) {
    const text = JSON.stringify(rowTuple(upserts[index], layout));
    texts[index] = text;
    guess += text.length;
  }
  let buffer: Buffer = Buffer.allocUnsafe(guess);
  let at = buffer.write(head, 0, 'utf8');
  for (let index = 0; index < texts.length; index++) {
    const text = texts[index];
    // A character takes at most 3 bytes (a surrogate pair, two characters, takes 4): when the room
    // left might not hold this row, its exact length decides, and the buffer grows if it must.
    if (buffer.length - at < text.length * 3 + 3) {
      const needed = at + Buffer.byteLength(text) + (texts.length - index) + 2;
      if (needed > buffer.length) buffer = grown(buffer, at, needed + slackBytes);
    }
    if (index > 0) buffer[at++] = comma;
    at += buffer.write(text, at, 'utf8');
  }
  buffer[at++] = closeBracket;
  buffer[at++] = closeBrace;
  return buffer.subarray(0, at);
}

/** A buffer of `size` bytes holding the first `used` bytes of `buffer`. */
function grown(buffer: Buffer, used: number, size: number): Buffer {
  const larger = Buffer.allocUnsafe(size);
  buffer.copy(larger, 0, 0, used);
  return larger;
}
