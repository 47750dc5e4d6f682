// A RecordingProcess on a worker thread: the recording's encoding, compression, SQLite writes and
// retention run there, so the thread that runs the informers and the bridge never waits on them.
import { Worker } from 'node:worker_threads';
import type { RecordingReply } from './recording-protocol';
import type { RecordingProcess, RecordingProcessFactory } from './recording-process';

/**
 * Starts the worker from recording-worker's source. A built app loads the compiled .js; run from
 * TypeScript (tsx, vitest), the worker loads the .ts through tsx's API, since loader flags in a
 * worker's execArgv do not reach its module loading on Node 20.
 */
export const workerRecordingProcess: RecordingProcessFactory = () => {
  const worker = import.meta.url.endsWith('.ts')
    ? new Worker(
        `import('tsx/esm/api').then((tsx) => tsx.tsImport(${JSON.stringify(
          new URL('./recording-worker.ts', import.meta.url).href,
        )}, ${JSON.stringify(import.meta.url)}));`,
        { eval: true },
      )
    : new Worker(new URL('./recording-worker.js', import.meta.url));
  let terminating = false;
  const exitListeners: ((error: Error) => void)[] = [];
  const died = (error: Error) => {
    if (terminating) return;
    terminating = true;
    for (const listener of exitListeners) listener(error);
  };
  worker.on('error', died);
  worker.on('exit', (code) => died(new Error(`the recording worker exited with code ${code}`)));
  const process: RecordingProcess = {
    post: (request) => worker.postMessage(request),
    onReply: (listener) => void worker.on('message', (reply: RecordingReply) => listener(reply)),
    onExit: (listener) => void exitListeners.push(listener),
    terminate: async () => {
      terminating = true;
      await worker.terminate();
    },
  };
  return process;
};
