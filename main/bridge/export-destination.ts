// Where an export may be written: only a new file, in a folder that already exists, outside the data
// directory's recordings (a file there could be taken for a recording, or be the live one). The path
// comes from main's save dialog, never from a renderer; these rules hold even so, because a dialog
// can be answered with a typed path, a symlinked folder or the name of a file that exists.
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, sep } from 'node:path';

/** The real path to create for `chosen`; throws with the reason when it may not be written. */
export function exportDestination(chosen: string, recordingsFolder: string | undefined): string {
  const path = chosen.endsWith('.kubetide') ? chosen : `${chosen}.kubetide`;
  if (!isAbsolute(path)) throw new Error(`an export goes to an absolute path, not "${path}"`);
  let folder: string;
  try {
    folder = realpathSync(dirname(path));
  } catch {
    throw new Error(`the folder ${dirname(path)} does not exist, and Kubetide creates no folders`);
  }
  if (recordingsFolder && existsSync(recordingsFolder)) {
    const recordings = realpathSync(recordingsFolder);
    if (folder === recordings || folder.startsWith(recordings + sep)) {
      throw new Error(`${path} is in Kubetide's recordings folder; choose another folder`);
    }
  }
  const destination = join(folder, basename(path));
  let exists = false;
  try {
    lstatSync(destination);
    exists = true;
  } catch {
    // Nothing there, not even a dangling symlink: the copy may create it.
  }
  if (exists) throw new Error(`${path} already exists; Kubetide never replaces a file, so choose a new name`);
  return destination;
}
