// Browser mode serves the built renderer. From a clean clone out/renderer does not exist yet, so the
// first `npm run serve` builds it with vite (a few seconds); later runs rebuild only when a renderer or
// shared source is newer than the build, so an edited UI is never served stale. A build is written
// beside out/renderer and swapped into place whole (folder-swap.ts): a server or test page reading the
// old build while another process rebuilds never finds the folder emptied under it.
import { existsSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeAbandonedSiblings, replaceFolder, siblingFolder } from './folder-swap';

export const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const rendererOutput = join(repositoryRoot, 'out', 'renderer');
const sourceFolders = [join(repositoryRoot, 'renderer'), join(repositoryRoot, 'shared')];
/** How the build is made counts as a source too: a change here must not leave an old build served. */
const buildScript = fileURLToPath(import.meta.url);

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
  if ((await stat(buildScript)).mtimeMs > built) return true;
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
  // Always a production build (minified, React without its development checks). Vite and the React
  // plugin decide that from NODE_ENV when it is set, and vitest sets it to "test", so it is set for the
  // duration of the build.
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  await removeAbandonedSiblings(output);
  const building = siblingFolder(output, 'building');
  try {
    await build({
      configFile: join(repositoryRoot, 'renderer', 'vite.config.ts'),
      mode: 'production',
      // Outside vite's root, so emptied only because asked: it is this build's own new folder.
      build: { outDir: building, emptyOutDir: true },
      logLevel: 'warn',
    });
    await replaceFolder(building, output);
  } catch (error) {
    await rm(building, { recursive: true, force: true });
    throw error;
  } finally {
    if (previous === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previous;
  }
  return true;
}
