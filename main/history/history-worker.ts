// Starts a worker thread from one of main's worker entry files (main/history's "recording-worker",
// "export-worker", "query-worker", main/bridge's "metrics-worker", main/kube's "kubeconfig-worker").
// A built app loads the compiled .js, which electron.vite.config.ts writes beside its index.js. Run from TypeScript (tsx,
// vitest), the worker loads the .ts through tsx's API, since loader flags in a worker's execArgv do
// not reach its module loading on Node 20; tsx is resolved from here, whatever the working directory.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** Each entry's source, from this folder. */
const sources = {
  'recording-worker': './recording-worker.ts',
  'export-worker': './export-worker.ts',
  'query-worker': './query-worker.ts',
  'metrics-worker': '../bridge/metrics-worker.ts',
  'kubeconfig-worker': '../kube/kubeconfig-worker.ts',
} as const;

export function startHistoryWorker(entry: keyof typeof sources, workerData?: unknown): Worker {
  const options = workerData === undefined ? {} : { workerData };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL(`./${entry}.js`, import.meta.url), options);
  const source = new URL(sources[entry], import.meta.url).href;
  const tsx = tsxApi();
  return new Worker(
    `import(${JSON.stringify(tsx)}).then((tsx) => tsx.tsImport(${JSON.stringify(source)}, ${JSON.stringify(import.meta.url)}));`,
    { ...options, eval: true },
  );
}

/** The ES module of tsx's API ("tsx/esm/api", by its package's exports map), as a file URL. */
function tsxApi(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return pathToFileURL(join(dirname(manifest), exports['./esm/api'].import.default)).href;
}
