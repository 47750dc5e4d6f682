// A byte delta of a text against a similar one, its dictionary: runs copied from the dictionary and
// bytes inserted, the way git's pack deltas are built. A pod's next version repeats most of its last
// one (a status update rewrites a few times, counts and the resourceVersion in place): finding those
// runs takes a fraction of what zlib spends setting itself up per call, and the copies cost about
// what deflate's back-references do. What it cannot do is entropy-code the bytes it inserts, so the
// writer deflates instead when a delta is mostly inserts.
//
// Format: the target's length (varint), then instructions, each opened by a varint n:
// - n even: n / 2 bytes follow, inserted as they are;
// - n odd: (n - 1) / 2 + minimumCopy bytes are copied from the dictionary, at the position given by
//   the zigzag varint that follows, as the distance from where the previous copy ended (from 0 for
//   the first): the texts mostly advance together, so the distance is often 0 and one byte.

/** Runs shorter than this are inserted: a copy instruction costs two or three bytes. */
const minimumCopy = 4;
/** A run this long is taken without looking for a longer one. */
const goodEnoughCopy = 16;
/**
 * Bytes inserted since the last copy before the dictionary is searched away from the aligned
 * position: texts that advance together mostly differ in short values rewritten in place (a time, a
 * count, a resourceVersion), after which the aligned position matches again. A run found later is
 * extended backwards over the bytes this let through, so they cost nothing.
 */
const resyncAfter = 8;
/**
 * How far either way from the aligned position the search looks first: a value that changed length
 * ("True" to "False", 9 to 10 restarts) shifts the rest of the text by a few bytes. Only when no run
 * is found that near is the dictionary indexed by hash (which had been a third of what a status
 * update's delta cost), and the rest of that insert run searched through it.
 */
const nearbyShift = 8;
/** Candidates tried per position in the dictionary's hash chains (zlib's level 3 tries 32). */
const maximumCandidates = 4;
const hashBits = 10;
/** Every how many bytes the dictionary is indexed (see index). */
const indexStep = 4;

/** Scratch tables, reused by every call (the thread encodes one delta at a time). */
const heads = new Int32Array(1 << hashBits);
let chain = new Int32Array(1024);
let output = Buffer.allocUnsafeSlow(4096);

function hashAt(bytes: Uint8Array, index: number): number {
  const word = bytes[index] | (bytes[index + 1] << 8) | (bytes[index + 2] << 16) | (bytes[index + 3] << 24);
  return Math.imul(word, 0x9e3779b1) >>> (32 - hashBits);
}

function matchLength(dictionary: Uint8Array, from: number, target: Uint8Array, at: number): number {
  const limit = Math.min(dictionary.length - from, target.length - at);
  let length = 0;
  while (length < limit && dictionary[from + length] === target[at + length]) length++;
  return length;
}

/** Room for `bytes` more in the output scratch, keeping the `used` bytes written. */
function reserve(used: number, bytes: number): void {
  if (used + bytes <= output.length) return;
  const grown = Buffer.allocUnsafeSlow(Math.max(output.length * 2, used + bytes));
  output.copy(grown, 0, 0, used);
  output = grown;
}

function writeVarint(at: number, value: number): number {
  while (value >= 0x80) {
    output[at++] = (value & 0x7f) | 0x80;
    value = Math.floor(value / 128);
  }
  output[at++] = value;
  return at;
}

/** Appends an insert of target[start, end) at `at`; returns where the output ends. */
function writeInsert(at: number, target: Uint8Array, start: number, end: number): number {
  if (end === start) return at;
  reserve(at, 10 + end - start);
  at = writeVarint(at, (end - start) * 2);
  output.set(target.subarray(start, end), at);
  return at + end - start;
}

/**
 * The delta turning `dictionary` into `target`, or undefined as soon as it would pass `limit` bytes.
 * Greedy: at each position, the run continuing the last copy is tried first (texts that differ in
 * values of the same length stay aligned); after resyncAfter bytes without one, the positions a few
 * bytes either side of it, then the dictionary's positions with the same four bytes, latest first.
 */
export function encodeTextDelta(
  target: Uint8Array,
  dictionary: Uint8Array,
  limit = Infinity,
): Buffer | undefined {
  let indexed = false;
  let at = writeVarint(0, target.length);
  let position = 0;
  let inserted = 0;
  let lastCopyEnd = 0;
  // The dictionary position aligned with `position`, were the texts to advance together.
  let aligned = 0;
  const last = target.length - minimumCopy;
  while (position <= last) {
    let bestLength = aligned < dictionary.length ? matchLength(dictionary, aligned, target, position) : 0;
    let bestFrom = aligned;
    // Once an insert run is resyncAfter long: near the aligned position first, once per run.
    if (bestLength < minimumCopy && position - inserted === resyncAfter) {
      for (let shift = 1; shift <= nearbyShift && bestLength < minimumCopy; shift++) {
        for (let from = aligned - shift; from <= aligned + shift; from += 2 * shift) {
          if (from < 0 || from >= dictionary.length) continue;
          const length = matchLength(dictionary, from, target, position);
          if (length > bestLength) {
            bestLength = length;
            bestFrom = from;
          }
        }
      }
    }
    if (bestLength < minimumCopy && position - inserted >= resyncAfter && dictionary.length >= minimumCopy) {
      if (!indexed) {
        index(dictionary);
        indexed = true;
      }
      let candidate = heads[hashAt(target, position)];
      for (let tries = 0; candidate >= 0 && tries < maximumCandidates; tries++) {
        const length = matchLength(dictionary, candidate, target, position);
        if (length > bestLength) {
          bestLength = length;
          bestFrom = candidate;
          if (length >= goodEnoughCopy) break;
        }
        candidate = chain[candidate];
      }
    }
    if (bestLength < minimumCopy) {
      position++;
      aligned++;
      // Each byte inserted costs at least itself.
      if (at + position - inserted > limit) return undefined;
      continue;
    }
    // A run found by its hash may also cover bytes before it that were about to be inserted.
    while (position > inserted && bestFrom > 0 && dictionary[bestFrom - 1] === target[position - 1]) {
      position--;
      bestFrom--;
      bestLength++;
    }
    at = writeInsert(at, target, inserted, position);
    reserve(at, 20);
    at = writeVarint(at, (bestLength - minimumCopy) * 2 + 1);
    const distance = bestFrom - lastCopyEnd;
    at = writeVarint(at, distance >= 0 ? distance * 2 : -distance * 2 - 1);
    position += bestLength;
    inserted = position;
    lastCopyEnd = bestFrom + bestLength;
    aligned = lastCopyEnd;
    if (at > limit) return undefined;
  }
  at = writeInsert(at, target, inserted, target.length);
  if (at > limit) return undefined;
  return Buffer.from(output.subarray(0, at));
}

/**
 * Chains every indexStep-th position of `dictionary` under the hash of its four bytes, latest
 * first. A run of at least indexStep + 3 bytes holds an indexed position, found when the
 * scan reaches it and then extended backwards; shorter runs save too little to be worth indexing.
 */
function index(dictionary: Uint8Array): void {
  heads.fill(-1);
  if (chain.length < dictionary.length) chain = new Int32Array(Math.max(chain.length * 2, dictionary.length));
  for (let position = 0; position + minimumCopy <= dictionary.length; position += indexStep) {
    const hash = hashAt(dictionary, position);
    chain[position] = heads[hash];
    heads[hash] = position;
  }
}

/** The text `delta` (from encodeTextDelta) makes of `dictionary`; throws on a damaged delta. */
export function decodeTextDelta(delta: Uint8Array, dictionary: Uint8Array): Buffer {
  let at = 0;
  const readVarint = (): number => {
    let value = 0;
    for (let scale = 1; ; scale *= 128) {
      if (at >= delta.length || scale > 2 ** 35) throw new Error('a text delta ends inside a number');
      const byte = delta[at++];
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
    }
  };
  const length = readVarint();
  // Each byte of a delta brings at most a byte or a whole dictionary's worth: a larger length is damage.
  if (length > delta.length * (dictionary.length + 1)) throw new Error('a text delta names a text too long');
  const target = Buffer.allocUnsafe(length);
  let written = 0;
  let lastCopyEnd = 0;
  while (at < delta.length) {
    const instruction = readVarint();
    if (instruction % 2 === 0) {
      const length = instruction / 2;
      if (at + length > delta.length || written + length > target.length)
        throw new Error('a text delta inserts past its end');
      target.set(delta.subarray(at, at + length), written);
      at += length;
      written += length;
    } else {
      const length = (instruction - 1) / 2 + minimumCopy;
      const distance = readVarint();
      const from = lastCopyEnd + (distance % 2 === 0 ? distance / 2 : -(distance + 1) / 2);
      if (from < 0 || from + length > dictionary.length || written + length > target.length)
        throw new Error('a text delta copies from outside its dictionary');
      target.set(dictionary.subarray(from, from + length), written);
      written += length;
      lastCopyEnd = from + length;
    }
  }
  if (written !== target.length) throw new Error('a text delta is shorter than the text it names');
  return target;
}
