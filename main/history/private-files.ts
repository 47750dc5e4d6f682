// A recording holds every recorded object of a cluster (ConfigMaps, pods' environments, annotations)
// and the crashed containers' last logs: it is the user's alone, as kubectl keeps ~/.kube/config
// (0600). SQLite creates a database file with 0644 less the umask, readable by every local user, and
// its -wal and -shm files with the database's own permissions; so a recording is created 0600 before
// SQLite opens it (an empty file is an empty database to SQLite), the folders made for it 0700, and
// one written by an earlier version (0644) is narrowed once it is known to be a recording.
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';

/** Makes `folder` and any missing parent, each made here readable by the user alone. */
export function makePrivateFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
}

/** Creates `file` empty and readable by the user alone, unless it exists. */
export function makePrivateFile(file: string): void {
  try {
    closeSync(openSync(file, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** Narrows a recording and its -wal and -shm files to the user alone, where they exist and are theirs. */
export function keepPrivate(file: string): void {
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      chmodSync(path, 0o600);
    } catch {
      // Absent, or not the user's to change: SQLite says whether it can be written.
    }
  }
}
