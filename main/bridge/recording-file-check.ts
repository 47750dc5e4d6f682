// The checks a recording file from outside (a file the user picked, an upload) passes before Kubetide
// reads it or copies any of it: a size within bounds, an SQLite header whose announced size is within
// bounds too (a 100-byte file claiming 13 GB would otherwise become a 13 GB salvage copy), and the
// schema of a Kubetide recording. Reading is read-only; nothing here writes.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { openRecording } from '../history/recording-reader';

/**
 * The largest recording accepted: twice the default retention of 2 GiB per context, so any export of
 * a kept recording fits, while a header or upload cannot ask main for unbounded disk.
 */
export const maxRecordingFileBytes = 4 * 1024 ** 3;

const sqliteMagic = 'SQLite format 3\0';

/** Throws an Error saying why `file` is not an acceptable recording; returns when it is. */
export function checkRecordingFile(file: string, maxBytes = maxRecordingFileBytes): void {
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
  // The schema: openRecording refuses a database without a recording's tables or of a newer format.
  openRecording(file).close();
}
