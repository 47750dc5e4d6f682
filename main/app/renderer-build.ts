// Browser mode serves the built renderer. From a clean clone out/renderer does not exist yet, so the
// first `npm run serve` builds it with vite (a few seconds); later runs rebuild only when a renderer or
// shared source is newer than the build, so an edited UI is never served stale.
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const rendererOutput = join(repositoryRoot, 'out', 'renderer');
const sourceFolders = [join(repositoryRoot, 'renderer'), join(repositoryRoot, 'shared')];

async function newestModification(folder: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const info = await stat(join(entry.parentPath, entry.name));
    newest = Math.max(newest, info.mtimeMs);
  }
  return newest;
}

/** True when out/renderer is missing or older than some renderer or shared source file. */
export async function rendererBuildIsStale(output = rendererOutput): Promise<boolean> {
  const index = join(output, 'index.html');
  if (!existsSync(index)) return true;
  const built = (await stat(index)).mtimeMs;
  for (const folder of sourceFolders) {
    if ((await newestModification(folder)) > built) return true;
  }
  return false;
}

/** Builds the renderer into `output` when it is missing or stale; returns whether it built. */
export async function ensureRendererBuilt(
  log: (message: string) => void = console.log,
  output = rendererOutput,
): Promise<boolean> {
  if (!(await rendererBuildIsStale(output))) return false;
  log('kubetide: building the UI (first run or sources changed)...');
  const { build } = await import('vite');
  // Always a production build (minified, React without its development checks), whatever NODE_ENV
  // the caller runs under (vitest sets "test").
  await build({
    configFile: join(repositoryRoot, 'renderer', 'vite.config.ts'),
    mode: 'production',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: { outDir: output },
    logLevel: 'warn',
  });
  return true;
}
