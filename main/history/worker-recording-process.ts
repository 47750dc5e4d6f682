// A RecordingProcess on a worker thread: the recording's encoding, compression, SQLite writes and
// retention run there, so the thread that runs the informers and the bridge never waits on them.
import { startHistoryWorker } from './history-worker';
import type { RecordingWorkerData } from './recording-worker';
import type { RecordingReply } from './recording-protocol';
import type { RecordingProcess, RecordingProcessFactory } from './recording-process';

/**
 * The recording worker's nice value (see setThisThreadNiceness). On a machine whose cores are all
 * busy, the worker at the informers' priority holds a core for its whole time slice while the
 * informers' thread, woken by a change, waits in the run queue for it: that wait, not the thread's
 * own work, made its longest event-loop stalls. Niced, the worker gives the core up as soon as the
 * informers' thread wants it, and still has every cycle nothing else wants.
 */
export const recordingWorkerNiceness = 10;

/** Starts recording-worker on a worker thread at `niceness` (0: the starting thread's priority). */
export function recordingWorkerProcess(niceness = recordingWorkerNiceness): RecordingProcessFactory {
  return () => {
    const data: RecordingWorkerData = { niceness };
    const worker = startHistoryWorker('recording-worker', data);
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
      // A batch's buffers are the Recorder's to give away (CaptureQueue.take): moved, not copied.
      post: (request) =>
        worker.postMessage(
          request,
          request.type === 'batch'
            ? [request.entries.buffer as ArrayBuffer, request.entryEnds.buffer as ArrayBuffer]
            : [],
        ),
      onReply: (listener) => void worker.on('message', (reply: RecordingReply) => listener(reply)),
      onExit: (listener) => void exitListeners.push(listener),
      terminate: async () => {
        terminating = true;
        await worker.terminate();
      },
    };
    return process;
  };
}

/** Starts recording-worker on a worker thread at recordingWorkerNiceness. */
export const workerRecordingProcess: RecordingProcessFactory = recordingWorkerProcess();
