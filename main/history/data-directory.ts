// Where recordings live: the app's data directory per OS, one recording file per kubeconfig context.
import { homedir } from 'node:os';
import { join, win32, posix } from 'node:path';

export interface DataDirectoryEnvironment {
  platform?: NodeJS.Platform;
  env?: Record<string, string | undefined>;
  home?: string;
  /** Overrides everything else (a command-line flag or setting). */
  override?: string;
}

/**
 * The app's data directory: $XDG_DATA_HOME/kubetide (default ~/.local/share/kubetide) on Linux and
 * other Unixes, ~/Library/Application Support/Kubetide on macOS, %APPDATA%\Kubetide on Windows.
 */
export function dataDirectory(environment: DataDirectoryEnvironment = {}): string {
  if (environment.override) return environment.override;
  const platform = environment.platform ?? process.platform;
  const env = environment.env ?? process.env;
  const home = environment.home ?? homedir();
  if (platform === 'win32')
    return win32.join(env.APPDATA || win32.join(home, 'AppData', 'Roaming'), 'Kubetide');
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support', 'Kubetide');
  return posix.join(env.XDG_DATA_HOME || posix.join(home, '.local', 'share'), 'kubetide');
}

/**
 * The recording file of `context` under `directory`/recordings. Context names may hold any character
 * (ARNs carry ':' and '/'), so everything outside [A-Za-z0-9._-] is percent-encoded: distinct
 * contexts never share a file, and the name stays valid on every OS.
 */
export function recordingFile(directory: string, context: string): string {
  const safe = context.replace(/[^A-Za-z0-9._-]/g, (character) =>
    [...Buffer.from(character)]
      .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
      .join(''),
  );
  return join(directory, 'recordings', `${safe || '%00'}.kubetide`);
}
