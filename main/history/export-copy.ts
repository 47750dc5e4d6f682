// The export's copy of change rows: SQLite moves them from the source recording (attached to the
// export's connection as "source") as stored, a chunk per statement, so the source is read in short
// transactions. A damaged chunk is split until the rows that cannot be read are isolated.
import type { Database } from 'better-sqlite3';
import type { RecordingReader } from './recording-reader';
import { messageOf, problemKindOf } from './recording-error';

const columns = 'id, time, stream, object, type, resource_version, base, hint, encoding, payload';

/** What SQLite says of a page it cannot read: damage in the source, worth isolating. */
function isDamage(error: unknown): boolean {
  const code = String((error as { code?: unknown } | undefined)?.code ?? '');
  return code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_IOERR');
}

/**
 * Copies the source's changes matching `condition` (SQL over the changes columns) with id in
 * (afterId, throughId] into the export; returns how many. Rows lost to damage are added to the
 * reader's problems, one per run of ids, named by `where`; any other failure (the export's own disk)
 * is thrown.
 */
export function copyChanges(
  reader: RecordingReader,
  database: Database,
  where: string,
  condition: string,
  afterId: number,
  throughId: number,
): number {
  const insert = database.prepare(
    `INSERT INTO main.changes (${columns}) SELECT ${columns} FROM source.changes
     WHERE id > ? AND id <= ? AND (${condition})`,
  );
  const lost: { from: number; to: number; error: unknown }[] = [];
  const copy = (low: number, high: number): number => {
    try {
      return insert.run(low, high).changes;
    } catch (error) {
      if (!isDamage(error)) throw error;
      if (high - low > 1) {
        const middle = Math.floor((low + high) / 2);
        return copy(low, middle) + copy(middle, high);
      }
      const previous = lost[lost.length - 1];
      if (previous && previous.to === low) previous.to = high;
      else lost.push({ from: low + 1, to: high, error });
      return 0;
    }
  };
  const copied = afterId < throughId ? copy(afterId, throughId) : 0;
  for (const { from, to, error } of lost) {
    reader.problems.push({
      kind: problemKindOf(error),
      where: `${where}, changes ${from}..${to} unreadable`,
      message: messageOf(error),
    });
  }
  return copied;
}
