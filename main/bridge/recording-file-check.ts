// The checks a recording file from outside (a file the user picked, an upload) passes before Kubetide
// reads it or copies any of it: a size within bounds, an SQLite header whose announced size is within
// bounds too (a 100-byte file claiming 13 GB would otherwise become a 13 GB salvage copy), and the
// schema of a Kubetide recording. Reading is read-only; nothing here writes. The size and header are
// a stat and 100 bytes; the schema is SQLite's to read, which a worker does (see HistoryQueries).
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { HistoryQueries, RecordingInspection } from '../history/history-queries';

/**
 * The largest recording accepted: twice the default retention of 2 GiB per context, so any export of
 * a kept recording fits, while a header or upload cannot ask main for unbounded disk.
 */
export const maxRecordingFileBytes = 4 * 1024 ** 3;

const sqliteMagic = 'SQLite format 3\0';

/**
 * Rejects with an Error saying why `file` is not an acceptable recording; resolves with what opening
 * it (in `queries`' worker, which keeps it open when `keep`) found when it is.
 */
export async function checkRecordingFile(
  file: string,
  queries: Pick<HistoryQueries, 'inspect'>,
  { keep, maxBytes = maxRecordingFileBytes }: { keep: boolean; maxBytes?: number },
): Promise<RecordingInspection> {
  const size = statSync(file).size;
  if (size > maxBytes)
    throw new Error(`the file is ${size} bytes, more than the ${maxBytes} a recording may have`);
  const header = Buffer.alloc(100);
  const descriptor = openSync(file, 'r');
  let read: number;
  try {
    read = readSync(descriptor, header, 0, 100, 0);
  } finally {
    closeSync(descriptor);
  }
  if (read < 100 || header.toString('latin1', 0, 16) !== sqliteMagic) {
    throw new Error('this is not a Kubetide recording (it is not an SQLite database)');
  }
  const rawPageSize = header.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  const announced = pageSize * header.readUInt32BE(28);
  if (announced > maxBytes) {
    throw new Error(
      `its header announces ${announced} bytes, more than the ${maxBytes} a recording may have`,
    );
  }
  // The schema: opening refuses a database without a recording's tables or of a newer format.
  return queries.inspect(file, { keep });
}
