// The versions of an export that were encoded against a change it leaves out: the version before the
// range of each object live at its start, a new object stored against a sibling outside the range or
// in a namespace not exported, a version hinted by such a sibling. Each is rewritten whole, and the
// versions chained on it are re-encoded (see chainedDependents); every other row stays as copied.
import type { Database } from 'better-sqlite3';
import { VersionEncoding, encodeVersion } from './object-codec';
import type { RecordingReader } from './recording-reader';
import { chainedDependents } from './standalone-versions';

/**
 * Makes every version in `database` (an export, its rows copied from `reader`'s recording with their
 * ids) readable from the export alone. A version the source cannot decode is left out and reported,
 * and the versions that needed it are taken in the next round, until none is missing a base.
 */
export function makeExportStandAlone(reader: RecordingReader, database: Database): void {
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
  for (;;) {
    const ids = orphans.all() as number[];
    if (ids.length === 0) return;
    // Computed before any rewrite of this round: chainedDependents reads the rows as copied.
    const whole = new Map<number, Buffer>();
    const dependents = new Map<number, Buffer>();
    for (const id of ids) {
      const rewritten = reader.guard(`version of change ${id}`, undefined, () => ({
        payload: encodeVersion(decoder.json(id)),
        dependents: chainedDependents(database, decoder, [id]),
      }));
      if (!rewritten) {
        remove.run(id);
        continue;
      }
      whole.set(id, rewritten.payload);
      for (const [dependent, payload] of rewritten.dependents) dependents.set(dependent, payload);
    }
    database.transaction(() => {
      for (const [id, payload] of whole) rewrite.run(payload, id);
      for (const [id, payload] of dependents) reencode.run(payload, id);
    })();
  }
}
