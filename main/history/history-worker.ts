// Starts a worker thread from one of main/history's worker entry files ("recording-worker",
// "export-worker", "query-worker"). A built app loads the compiled .js; run from TypeScript (tsx, vitest), the worker
// loads the .ts through tsx's API, since loader flags in a worker's execArgv do not reach its module
// loading on Node 20.
import { Worker } from 'node:worker_threads';

export function startHistoryWorker(
  entry: 'recording-worker' | 'export-worker' | 'query-worker',
  workerData?: unknown,
): Worker {
  const options = workerData === undefined ? {} : { workerData };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL(`./${entry}.js`, import.meta.url), options);
  const source = new URL(`./${entry}.ts`, import.meta.url).href;
  return new Worker(
    `import('tsx/esm/api').then((tsx) => tsx.tsImport(${JSON.stringify(source)}, ${JSON.stringify(import.meta.url)}));`,
    { ...options, eval: true },
  );
}
