// Puts a freshly built folder in place of another, so that whoever reads the target (a browser-mode
// server, a test's page) finds a whole build, never one a builder is still writing or emptying: the
// build is written into a sibling folder (the same file system, so a rename moves it whole) and two
// renames exchange them. Between the two the target is briefly absent, which a reader sees as "not
// built yet", never as half a build. Two processes may build at once (two app instances, two test
// runners from a clean clone): the one that loses the race finds the other's build in place, as good
// as its own, and removes its own.
import { readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** A sibling of `target` for this process to build into; name it with `kind` "building". */
export function siblingFolder(target: string, kind: 'building' | 'retired'): string {
  return `${target}.${kind}-${process.pid}-${Date.now().toString(36)}`;
}

/** Moves `built` to `target`, replacing what was there; `built` is gone afterwards either way. */
export async function replaceFolder(built: string, target: string): Promise<void> {
  const retired = siblingFolder(target, 'retired');
  try {
    await rename(target, retired);
  } catch (error) {
    // Nothing there yet, or another process has just moved it aside itself.
    if (errorCode(error) !== 'ENOENT') throw error;
  }
  try {
    await rename(built, target);
  } catch (error) {
    // Another process put its build in place between our two renames: keep it, drop ours.
    if (errorCode(error) !== 'ENOTEMPTY' && errorCode(error) !== 'EEXIST') throw error;
    await rm(built, { recursive: true, force: true });
  }
  await rm(retired, { recursive: true, force: true });
}

/**
 * Removes the siblings of `target` that processes no longer running left behind (a build killed
 * halfway, a crash between the renames). A running process's are its own business.
 */
export async function removeAbandonedSiblings(target: string): Promise<void> {
  const prefix = `${basename(target)}.`;
  const names = await readdir(dirname(target)).catch(() => [] as string[]);
  for (const name of names) {
    const match = /^(?:building|retired)-(\d+)-[0-9a-z]+$/.exec(name.slice(prefix.length));
    if (!name.startsWith(prefix) || !match) continue;
    if (processIsRunning(Number(match[1]))) continue;
    await rm(join(dirname(target), name), { recursive: true, force: true });
  }
}

function processIsRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return errorCode(error) === 'EPERM';
  }
}
