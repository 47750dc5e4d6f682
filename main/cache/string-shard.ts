// Which shard of a table split by its string keys a key belongs to. A Map or Set grows by rehashing
// every entry into a table twice the size, in one call: past 131,072 entries that took 31-53 ms of
// the informers' thread's CPU (load 18-28), an iteration of the loop no turn budget can cut, since it
// is one insertion. Split into 64 shards, each grows an entry count 64 times smaller.
//
// The hash reads a string's length, its last 16 characters (where timestamps and generated names
// differ) and every (length / 8 + 1)th before them (a message's middle): about as much as one lookup,
// where hashing every character cost several times that.

const shardBits = 6;
/** How many shards a table is split into. */
export const shardCount = 1 << shardBits;

/** The shard of `value`, in [0, shardCount). */
export function stringShard(value: string): number {
  const length = value.length;
  let hash = length;
  let index = length - 1;
  const last = length > 16 ? length - 16 : 0;
  for (; index >= last; index--) hash = (Math.imul(hash, 31) + value.charCodeAt(index)) | 0;
  const stride = (length >> 3) + 1;
  for (; index >= 0; index -= stride) hash = (Math.imul(hash, 31) + value.charCodeAt(index)) | 0;
  // The top bits of a multiplicative hash: every bit of `hash` reaches them.
  return Math.imul(hash, 0x9e3779b1) >>> (32 - shardBits);
}
