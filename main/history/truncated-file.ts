// A recording cut short (a copy interrupted, a disk filled) is shorter than its SQLite header says,
// and SQLite refuses to open it at all. Padding a copy with empty pages to the announced size lets it
// open: only the queries that reach the missing pages fail, and everything before the cut is read.
import {
  closeSync,
  copyFileSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  statSync,
  truncateSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export interface Truncation {
  readonly presentBytes: number;
  readonly expectedBytes: number;
}

/** The header's database size when the file is shorter (SQLite file format, offsets 16, 24, 28, 92). */
export function truncationOf(file: string): Truncation | undefined {
  const header = Buffer.alloc(100);
  const descriptor = openSync(file, 'r');
  try {
    if (readSync(descriptor, header, 0, 100, 0) < 100) return undefined;
  } finally {
    closeSync(descriptor);
  }
  if (header.toString('latin1', 0, 16) !== 'SQLite format 3\0') return undefined;
  const rawPageSize = header.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  const pages = header.readUInt32BE(28);
  if (header.readUInt32BE(24) !== header.readUInt32BE(92) || pages === 0) return undefined;
  const presentBytes = statSync(file).size;
  const expectedBytes = pages * pageSize;
  return presentBytes < expectedBytes ? { presentBytes, expectedBytes } : undefined;
}

/** A copy of `file` extended with zeros to `bytes`, in a temporary directory that remove() deletes. */
export function paddedCopy(file: string, bytes: number): { path: string; remove: () => void } {
  const directory = mkdtempSync(join(tmpdir(), 'kubetide-salvage-'));
  const path = join(directory, basename(file));
  copyFileSync(file, path);
  truncateSync(path, bytes);
  return { path, remove: () => rmSync(directory, { recursive: true, force: true }) };
}
