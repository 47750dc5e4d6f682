// One writer per recording: a recorder holds "<file>.lock", created exclusively and naming its
// process. Two writers would interleave their sessions' changes, gaps and keyframes into one timeline
// that neither could vouch for. A lock whose process is gone (killed, crashed) is stale and taken over.
import { hostname } from 'node:os';
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { makePrivateFolder } from './private-files';
import { RecordingError } from './recording-error';

interface LockOwner {
  readonly pid: number;
  readonly host: string;
}

export class RecordingLock {
  private released = false;

  private constructor(private readonly path: string) {}

  /**
   * Takes the lock of `file`, or throws a RecordingError of kind "locked" naming the live process
   * holding it. A lock left by a process that no longer runs on this host is removed and taken.
   */
  static acquire(file: string): RecordingLock {
    const path = `${file}.lock`;
    makePrivateFolder(dirname(file));
    const owner: LockOwner = { pid: process.pid, host: hostname() };
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        writeFileSync(path, JSON.stringify(owner), { flag: 'wx', mode: 0o600 });
        return new RecordingLock(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = readOwner(path);
      if (holder && isAlive(holder)) {
        throw new RecordingError(file, {
          kind: 'locked',
          where: 'lock',
          message: `another recorder (process ${holder.pid} on ${holder.host}) is writing it`,
        });
      }
      // Stale (or unreadable, i.e. written by a writer killed mid-write): removed, and one retry
      // creates ours; a writer racing us to it wins, and we see it alive on the next look.
      try {
        unlinkSync(path);
      } catch {
        // Another recorder removed it first.
      }
    }
    throw new RecordingError(file, {
      kind: 'locked',
      where: 'lock',
      message: 'another recorder took the lock',
    });
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    try {
      unlinkSync(this.path);
    } catch {
      // Already gone: nothing to release.
    }
  }
}

function readOwner(path: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.host === 'string'
      ? { pid: owner.pid, host: owner.host }
      : undefined;
  } catch {
    return undefined;
  }
}

/** A lock from another host cannot be checked: it is taken as alive. */
function isAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
