// A RecordingProcess on a worker thread: the recording's encoding, compression, SQLite writes and
// retention run there, so the thread that runs the informers and the bridge never waits on them.
import { startHistoryWorker } from './history-worker';
import type { RecordingReply } from './recording-protocol';
import type { RecordingProcess, RecordingProcessFactory } from './recording-process';

/** Starts recording-worker on a worker thread. */
export const workerRecordingProcess: RecordingProcessFactory = () => {
  const worker = startHistoryWorker('recording-worker');
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
    // A batch's buffer is the Recorder's to give away (CaptureQueue.take): moved, not copied.
    post: (request) =>
      worker.postMessage(request, request.type === 'batch' ? [request.entries.buffer as ArrayBuffer] : []),
    onReply: (listener) => void worker.on('message', (reply: RecordingReply) => listener(reply)),
    onExit: (listener) => void exitListeners.push(listener),
    terminate: async () => {
      terminating = true;
      await worker.terminate();
    },
  };
  return process;
};
