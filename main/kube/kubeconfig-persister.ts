// Writes an auth provider's refreshed config back into the kubeconfig file that defines its user, as
// kubectl's persister does (clientcmd.ModifyConfig): under clientcmd's lock (the file's name plus
// ".lock", created exclusively, so kubectl and Kubetide never write it at once), the user's
// auth-provider config replaced and nothing else. Unlike kubectl, which re-serializes the whole file,
// the YAML is edited in place: comments, order and other users stay as the person wrote them. The new
// text goes to a sibling file renamed over the real one (through a symlink, as kubectl writes
// through it), so a crash mid-write never leaves half a kubeconfig, with the old file's mode.
// readAuthProviderConfig reads what the file holds of it now, which another client may have
// refreshed since.
import { randomBytes } from 'node:crypto';
import { open, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isMap, isSeq, parse, parseDocument } from 'yaml';
import type { Clock } from '../cache/clock';

/**
 * Where an auth provider's config is written back and read again: in place (these functions, on the
 * calling thread), or on a worker thread the app supplies (main/app/kubeconfig-reading.ts), since
 * both parse the whole kubeconfig.
 */
export interface AuthProviderFiles {
  persist(file: string, userName: string, config: Readonly<Record<string, string>>): Promise<void>;
  read(file: string, userName: string): Promise<Record<string, string> | undefined>;
}

/** The functions below, on the calling thread. */
export function inPlaceAuthProviderFiles(clock: Clock): AuthProviderFiles {
  return {
    persist: (file, userName, config) => persistAuthProviderConfig(file, userName, config, clock),
    read: (file, userName) => readAuthProviderConfig(file, userName),
  };
}

/** How long a write waits for another's lock (kubectl holds it for one write) before giving up. */
export const lockWaitMs = 5_000;
const lockRetryMs = 50;

/** Replaces `userName`'s auth-provider config in `file` with `config`. */
export async function persistAuthProviderConfig(
  file: string,
  userName: string,
  config: Readonly<Record<string, string>>,
  clock: Clock,
): Promise<void> {
  const lock = `${file}.lock`;
  await takeLock(lock, clock);
  try {
    const target = await realpath(file);
    const document = parseDocument(await readFile(target, 'utf8'));
    if (document.errors.length > 0) throw new Error(`${file} no longer parses as YAML`);
    const users = document.get('users');
    const entry = isSeq(users)
      ? users.items.find((item) => isMap(item) && item.get('name') === userName)
      : undefined;
    if (!isMap(entry) || !entry.hasIn(['user', 'auth-provider'])) {
      throw new Error(`${file} no longer defines user "${userName}" with an auth-provider`);
    }
    const existing = entry.getIn(['user', 'auth-provider', 'config']);
    for (const [key, value] of Object.entries(config)) {
      if (!isMap(existing) || existing.get(key) !== value)
        entry.setIn(['user', 'auth-provider', 'config', key], value);
    }
    const { mode } = await stat(target);
    const sibling = path.join(
      path.dirname(target),
      `.${path.basename(target)}.${randomBytes(6).toString('hex')}`,
    );
    try {
      // lineWidth 0: no long value is folded over lines, so the rest of the file reads as it was.
      await writeFile(sibling, document.toString({ lineWidth: 0 }), { mode: mode & 0o777, flag: 'wx' });
      await rename(sibling, target);
    } catch (error) {
      await rm(sibling, { force: true });
      throw error;
    }
  } finally {
    await rm(lock, { force: true });
  }
}

/** `userName`'s auth-provider config as `file` holds it now; undefined when it no longer defines one. */
export async function readAuthProviderConfig(
  file: string,
  userName: string,
): Promise<Record<string, string> | undefined> {
  const document = parse(await readFile(file, 'utf8')) as {
    users?: { name?: string; user?: { 'auth-provider'?: { config?: Record<string, unknown> } } }[];
  } | null;
  const config = document?.users?.find((entry) => entry?.name === userName)?.user?.['auth-provider']?.config;
  if (typeof config !== 'object' || config === null) return undefined;
  return Object.fromEntries(
    Object.entries(config).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/** clientcmd's lockFile: the lock file created exclusively; waits while another writer holds it. */
async function takeLock(lock: string, clock: Clock): Promise<void> {
  const started = clock.now();
  for (;;) {
    try {
      await (await open(lock, 'wx')).close();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (clock.now() - started >= lockWaitMs) {
        throw new Error(
          `${lock} exists: another kubectl is writing the kubeconfig, or one left its lock (remove it)`,
          {
            cause: error,
          },
        );
      }
      await clock.sleep(lockRetryMs);
    }
  }
}
