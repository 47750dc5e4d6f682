// Making stored versions stand alone when what they were encoded against goes away: retention drops
// the changes before its new start, an export leaves out the changes outside its range and filters.
// A version whose base or hint goes is rewritten whole; the versions chained on it are re-encoded.
// Both happen to tens of thousands of objects at once (every pod live at the new start), so the rows
// are read in bulk: a query per chunk of rewritten versions, then the decoder's read-ahead.
import { VersionEncoding, encodeChainedPatch, encodingKind, storedRaw } from './object-codec';
import type { SqliteDatabase } from './schema';
import type { VersionDecoder } from './version-decoder';

/**
 * Versions rewritten (and decoded) per chunk: few enough that the decoder's memo (32 Mi characters,
 * cleared whole when full) still holds a chunk's versions when their dependents are re-encoded, which
 * decodes their bases again.
 */
export const versionsPerQuery = 250;

/**
 * Decodes what one change needs, or says it cannot: the export reports the change and leaves it out
 * (undefined), retention lets the error end its transaction (the default).
 */
export type DecodeGuard = <T>(id: number, decode: () => T) => T | undefined;

const unguarded: DecodeGuard = (_id, decode) => decode();

/** A dependent's new storage: its encoding column and payload. */
export interface Reencoded {
  readonly encoding: number;
  readonly payload: Buffer;
}

interface LaterRow {
  id: number;
  base: number | null;
  encoding: number;
  repeat: number;
}

/**
 * A chainedPatch is deflated against its base's stored text, which becomes the whole JSON once the
 * base is rewritten as a full version (so does the text of a repeat, a NULL payload, of that base).
 * Each such dependent is deflated again, against that JSON: its own stored text, the patch, stays the
 * same, so nothing further along its chain changes. A patch stored raw names no dictionary and stays
 * as it is. Chains stay within one object and end at its next full version.
 *
 * `database` holds the rows chained on `rewritten` as they were stored against the versions before
 * their rewrite (read from each object's later changes); `decoder` reads the same versions, from it or
 * from the recording they were copied from. A dependent `guard` refuses is left out of the result.
 */
export function chainedDependents(
  database: SqliteDatabase,
  decoder: VersionDecoder,
  rewritten: readonly number[],
  guard: DecodeGuard = unguarded,
): Map<number, Reencoded> {
  // The rows of a chunk's objects from its first id on, in id order: a base precedes its dependents,
  // so one pass finds the whole of each chain.
  const later = database.prepare(
    `SELECT id, base, encoding, payload IS NULL AS repeat FROM changes
     WHERE object IN (SELECT object FROM changes WHERE id IN (SELECT value FROM json_each(?))) AND id > ?
     ORDER BY id`,
  );
  // Whose stored text is now the whole JSON: the rewritten versions and the repeats of them.
  const changed = new Set(rewritten);
  const payloads = new Map<number, Reencoded>();
  for (let index = 0; index < rewritten.length; index += versionsPerQuery) {
    const chunk = rewritten.slice(index, index + versionsPerQuery);
    const dependents: LaterRow[] = [];
    for (const row of later.iterate(
      JSON.stringify(chunk),
      Math.min(...chunk),
    ) as IterableIterator<LaterRow>) {
      if (row.base === null || !changed.has(row.base) || changed.has(row.id)) continue;
      if (row.repeat) changed.add(row.id);
      else if (isChainedOnStoredText(row.encoding)) dependents.push(row);
    }
    decoder.prefetch(dependents.map((row) => row.id));
    for (const row of dependents) {
      const reencoded = guard(row.id, () =>
        encodeChainedPatch(Buffer.from(decoder.stored(row.id)), Buffer.from(decoder.json(row.base!))),
      );
      if (reencoded !== undefined) payloads.set(row.id, reencoded);
    }
  }
  return payloads;
}

/** Whether a stored encoding depends on its base's stored text, not only on its base's version. */
function isChainedOnStoredText(encoding: number): boolean {
  return encodingKind(encoding) === VersionEncoding.chainedPatch && (encoding & storedRaw) === 0;
}
