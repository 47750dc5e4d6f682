// The versions of an export that were encoded against a change it leaves out: the version before the
// range of each object live at its start, a new object stored against a sibling outside the range or
// in a namespace not exported, a version hinted by such a sibling. Each is rewritten whole, and the
// versions chained on it are re-encoded (see chainedDependents); every other row stays as copied.
// A version stored in a list's block (VersionEncoding.block) is rewritten whole too: an export copies
// no blocks, which hold the versions of objects its filters leave out beside those it keeps.
// A range starting mid-recording of a big cluster has one such version per live object (150,000
// pods), so they are read, decoded, rewritten and written a chunk at a time, never one query each.
import type { Database } from 'better-sqlite3';
import { VersionEncoding, encodeRewrittenVersion } from './object-codec';
import type { RecordingReader } from './recording-reader';
import type { DecodeGuard } from './standalone-versions';
import { chainedDependents, versionsPerQuery } from './standalone-versions';

/** The changes copied without their base or hint, as the copy goes (see watchForOrphans). */
export interface OrphanWatch {
  /** Stops watching and returns what was seen, in id order. */
  take(): number[];
}

/**
 * Notes each change copied into `database` (an export, empty so far) whose base or hint is not in it
 * yet, or that is stored in a block. The rows are copied in id order and a version's base and hint
 * always precede it, so those are the versions encoded against a change the export leaves out; a row
 * out of order is at worst rewritten for nothing. Checking each row as it lands costs far less than a
 * scan of the copy after.
 */
export function watchForOrphans(database: Database): OrphanWatch {
  database.exec(`
    CREATE TEMP TABLE orphans (id INTEGER PRIMARY KEY);
    CREATE TEMP TRIGGER orphan_change AFTER INSERT ON main.changes
    WHEN NEW.encoding = ${VersionEncoding.block}
      OR (NEW.base IS NOT NULL AND NOT EXISTS (SELECT 1 FROM main.changes WHERE id = NEW.base))
      OR (NEW.hint IS NOT NULL AND NOT EXISTS (SELECT 1 FROM main.changes WHERE id = NEW.hint))
    BEGIN INSERT OR IGNORE INTO temp.orphans (id) VALUES (NEW.id); END;`);
  return {
    take() {
      database.exec('DROP TRIGGER temp.orphan_change');
      const ids = database.prepare('SELECT id FROM temp.orphans ORDER BY id').pluck().all() as number[];
      database.exec('DROP TABLE temp.orphans');
      return ids;
    },
  };
}

/**
 * Makes every version in `database` (an export, its rows copied from `reader`'s recording with their
 * ids) readable from the export alone, starting from the orphans `watch` saw. A version the source
 * cannot decode is left out and reported; the versions that needed it are found by a scan of the
 * export and taken in the next round, until none is missing a base.
 */
export function makeExportStandAlone(reader: RecordingReader, database: Database, watch: OrphanWatch): void {
  const decoder = reader.decoder();
  const scan = database
    .prepare(
      `SELECT id FROM changes c WHERE c.encoding = ${VersionEncoding.block} OR
         (c.base IS NOT NULL AND NOT EXISTS (SELECT 1 FROM changes b WHERE b.id = c.base)) OR
         (c.hint IS NOT NULL AND NOT EXISTS (SELECT 1 FROM changes h WHERE h.id = c.hint))
       ORDER BY id`,
    )
    .pluck();
  const rewrite = database.prepare(
    `UPDATE changes SET base = NULL, hint = NULL, encoding = ${VersionEncoding.full}, payload = ? WHERE id = ?`,
  );
  const reencode = database.prepare('UPDATE changes SET encoding = ?, payload = ? WHERE id = ?');
  const remove = database.prepare('DELETE FROM changes WHERE id = ?');
  for (let orphans = watch.take(); orphans.length > 0;) {
    const unreadable: number[] = [];
    const guard: DecodeGuard = (id, decode) => {
      const decoded = reader.guard(`version of change ${id}`, undefined, decode);
      if (decoded === undefined) unreadable.push(id);
      return decoded;
    };
    for (let index = 0; index < orphans.length; index += versionsPerQuery) {
      const chunk = orphans.slice(index, index + versionsPerQuery);
      decoder.prefetch(chunk);
      const whole = new Map<number, Buffer>();
      for (const id of chunk) {
        const payload = guard(id, () => encodeRewrittenVersion(decoder.json(id)));
        if (payload !== undefined) whole.set(id, payload);
      }
      // Found while the chunk's versions are still in the decoder's memo, before they are rewritten:
      // chainedDependents reads the rows of their objects as they are.
      const dependents = chainedDependents(database, decoder, [...whole.keys()], guard);
      database.transaction(() => {
        for (const [id, payload] of whole) rewrite.run(payload, id);
        for (const [id, { encoding, payload }] of dependents) reencode.run(encoding, payload, id);
      })();
    }
    if (unreadable.length > 0) database.transaction(() => unreadable.forEach((id) => remove.run(id)))();
    orphans = unreadable.length > 0 ? (scan.all() as number[]) : [];
  }
}
