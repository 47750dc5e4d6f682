// The recordings a history query worker has open, by path: opening one runs SQLite's quick_check
// (unless the worker skips it, see QueryWorkerData), which alone could hold a thread for seconds, so a
// reader is opened once and kept for the questions that follow; a live recording's is refreshed now
// and then, and a file replaced at the same path is opened anew.
import { statSync } from 'node:fs';
import type { RecordingReader } from './recording-reader';
import { openRecording } from './recording-reader';

/**
 * How long one opened reader answers before it is refreshed: a live recording's writer moves its
 * metadata (lastWritten, start) and adds streams meanwhile. Changes it reads as they are committed.
 */
const refreshAfterMs = 2000;

interface OpenReader {
  readonly reader: RecordingReader;
  /** The file's inode when opened: a file replaced at the same path is opened anew. */
  readonly inode: number;
  refreshedAt: number;
}

export class QueryReaders {
  private readonly open = new Map<string, OpenReader>();

  /** `checkIntegrity`: whether opening a recording runs quick_check, unless a question says. */
  constructor(private readonly checkIntegrity: boolean) {}

  /**
   * The reader of `file`, opened once (opening runs quick_check over the whole file, if `check`) and
   * refreshed every refreshAfterMs; reopened only if the path names another file since.
   */
  readerFor(file: string, check = this.checkIntegrity): RecordingReader {
    const now = Date.now();
    const open = this.open.get(file);
    const inode = inodeOf(file);
    if (open && open.inode === inode) {
      if (now - open.refreshedAt >= refreshAfterMs) {
        open.reader.refresh();
        open.refreshedAt = now;
      }
      return open.reader;
    }
    open?.reader.close();
    this.open.delete(file);
    const reader = openRecording(file, { checkIntegrity: check });
    this.open.set(file, { reader, inode, refreshedAt: now });
    return reader;
  }

  /** Closes the reader of `file` (and removes its salvage copy, if it has one). */
  release(file: string): void {
    this.open.get(file)?.reader.close();
    this.open.delete(file);
  }
}

/** The inode of `file`, or -1 when it cannot be read (openRecording then says why). */
function inodeOf(file: string): number {
  try {
    return statSync(file).ino;
  } catch {
    return -1;
  }
}
