// `npm start`: the desktop app when Electron can run here, otherwise browser mode with the same engine.
// Electron needs its binary (downloaded by build/scripts/postinstall.cjs, which may have been unable to)
// and, on Linux, a display; without either, this says why and serves the UI to a browser instead.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The Electron executable, or the reason it cannot be used on this machine. */
export function findElectron(
  environment: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  resolveElectron: () => string = () => createRequire(import.meta.url)('electron') as string,
): { executable: string } | { reason: string } {
  let executable: string;
  try {
    executable = resolveElectron();
  } catch {
    return { reason: 'the Electron binary is not installed (it could not be downloaded during npm ci)' };
  }
  if (!existsSync(executable)) return { reason: `the Electron binary is missing at ${executable}` };
  if (platform === 'linux' && !environment.DISPLAY && !environment.WAYLAND_DISPLAY) {
    return { reason: 'there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)' };
  }
  return { executable };
}

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const electron = findElectron();
  if ('executable' in electron) {
    const built = await run(process.execPath, [
      join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'),
      'build',
    ]);
    if (built !== 0) process.exit(built);
    process.exit(await run(electron.executable, [root, ...args]));
  }
  console.log(`kubetide: starting in browser mode because ${electron.reason}.`);
  console.log('kubetide: the same engine runs here in Node; open the printed address in your browser.');
  process.exit(
    await run(process.execPath, ['--import', 'tsx', join(root, 'main', 'app', 'serve.ts'), ...args]),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error('kubetide: could not start:', error);
    process.exit(1);
  });
}
