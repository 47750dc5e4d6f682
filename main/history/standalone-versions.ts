// Making stored versions stand alone when what they were encoded against goes away: retention drops
// the changes before its new start, an export leaves out the changes outside its range and filters.
// A version whose base or hint goes is rewritten whole; the versions chained on it are re-encoded.
import { VersionEncoding, encodeVersion, encodingKind } from './object-codec';
import type { SqliteDatabase } from './schema';
import type { VersionDecoder } from './version-decoder';

/**
 * A chainedPatch is deflated against its base's stored text, which becomes the whole JSON once the
 * base is rewritten as a full version (so does the text of a repeat, a NULL payload, of that base).
 * Each such dependent is re-encoded as a patch against its base's JSON, which the rewrite keeps: its
 * own stored text, the patch, stays the same, so nothing further along its chain changes. Chains
 * stay within one object and end at its next full version.
 *
 * `database` holds the changes rows as they are before any rewrite (read for each object's later
 * changes); `decoder` reads the same versions, from it or from the recording they were copied from.
 */
export function chainedDependents(
  database: SqliteDatabase,
  decoder: VersionDecoder,
  rewritten: readonly number[],
): Map<number, Buffer> {
  const later = database.prepare(
    'SELECT id, base, encoding, payload IS NULL AS repeat FROM changes WHERE object = (SELECT object FROM changes WHERE id = ?) AND id > ? ORDER BY id',
  );
  const payloads = new Map<number, Buffer>();
  for (const start of rewritten) {
    const changed = new Set([start]);
    for (const row of later.iterate(start, start) as IterableIterator<{
      id: number;
      base: number | null;
      encoding: number;
      repeat: number;
    }>) {
      if (row.base === null) break;
      if (!changed.has(row.base)) continue;
      if (row.repeat) changed.add(row.id);
      else if (encodingKind(row.encoding) === VersionEncoding.chainedPatch)
        payloads.set(row.id, encodeVersion(decoder.stored(row.id), decoder.json(row.base)));
    }
  }
  return payloads;
}
