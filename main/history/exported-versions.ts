// The versions of an export that were encoded against a change it leaves out: the version before the
// range of each object live at its start, a new object stored against a sibling outside the range or
// in a namespace not exported, a version hinted by such a sibling. Each is rewritten whole, and the
// versions chained on it are re-encoded (see chainedDependents); every other row stays as copied.
import type { Database } from 'better-sqlite3';
import { VersionEncoding, encodeVersion } from './object-codec';
import type { RecordingReader } from './recording-reader';
import { chainedDependents } from './standalone-versions';

/** The ids of the changes copied without their base or hint, as the copy goes (see watchForOrphans). */
export interface OrphanWatch {
  /** Stops watching and returns what was seen. */
  take(): number[];
}

/**
 * Notes each change copied into `database` (an export, empty so far) whose base or hint is not in it
 * yet. The rows are copied in id order and a version's base and hint always precede it, so those are
 * the versions encoded against a change the export leaves out; a row out of order is at worst
 * rewritten for nothing. Checking each row as it lands costs far less than a scan of the copy after.
 */
export function watchForOrphans(database: Database): OrphanWatch {
  database.exec(`
    CREATE TEMP TABLE orphans (id INTEGER PRIMARY KEY);
    CREATE TEMP TRIGGER orphan_change AFTER INSERT ON main.changes
    WHEN (NEW.base IS NOT NULL AND NOT EXISTS (SELECT 1 FROM main.changes WHERE id = NEW.base))
      OR (NEW.hint IS NOT NULL AND NOT EXISTS (SELECT 1 FROM main.changes WHERE id = NEW.hint))
    BEGIN INSERT OR IGNORE INTO temp.orphans (id) VALUES (NEW.id); END;`);
  return {
    take() {
      database.exec('DROP TRIGGER temp.orphan_change');
      const ids = database.prepare('SELECT id FROM temp.orphans').pluck().all() as number[];
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
  const orphans = database
    .prepare(
      `SELECT id FROM changes c WHERE
         (c.base IS NOT NULL AND NOT EXISTS (SELECT 1 FROM changes b WHERE b.id = c.base)) OR
         (c.hint IS NOT NULL AND NOT EXISTS (SELECT 1 FROM changes h WHERE h.id = c.hint))
       ORDER BY id`,
    )
    .pluck();
  const rewrite = database.prepare(
    `UPDATE changes SET base = NULL, hint = NULL, encoding = ${VersionEncoding.full}, payload = ? WHERE id = ?`,
  );
  const reencode = database.prepare(
    `UPDATE changes SET encoding = ${VersionEncoding.patch}, payload = ? WHERE id = ?`,
  );
  const remove = database.prepare('DELETE FROM changes WHERE id = ?');
  for (let ids = watch.take(); ids.length > 0;) {
    // Computed before any rewrite of this round: chainedDependents reads the rows as copied.
    const whole = new Map<number, Buffer>();
    const dependents = new Map<number, Buffer>();
    let removed = false;
    for (const id of ids) {
      const rewritten = reader.guard(`version of change ${id}`, undefined, () => ({
        payload: encodeVersion(decoder.json(id)),
        dependents: chainedDependents(database, decoder, [id]),
      }));
      if (!rewritten) {
        remove.run(id);
        removed = true;
        continue;
      }
      whole.set(id, rewritten.payload);
      for (const [dependent, payload] of rewritten.dependents) dependents.set(dependent, payload);
    }
    database.transaction(() => {
      for (const [id, payload] of whole) rewrite.run(payload, id);
      for (const [id, payload] of dependents) reencode.run(payload, id);
    })();
    ids = removed ? (orphans.all() as number[]) : [];
  }
}
