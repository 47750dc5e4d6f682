// A RecordingProcess on a worker thread: the recording's encoding, compression, SQLite writes and
// retention run there, so the thread that runs the informers and the bridge never waits on them.
import { startHistoryWorker } from './history-worker';
import type { RecordingWorkerData } from './recording-worker';
import type { RecordingReply } from './recording-protocol';
import type { RecordingProcess, RecordingProcessFactory } from './recording-process';

/**
 * The recording worker's nice value (see setThisThreadNiceness): 0, the informers' thread's own.
 * Lowered, the worker would give a shared core back to the informers' thread sooner, but it also
 * gets less of it whenever that thread is busy: in the history bench's flood (300,000 changes, the
 * machine at load 15-24), the capture queue overflowed at nice 5 and 10 (69,535-106,826 and 130,000-161,000
 * changes dropped into gaps) and never at 0, while the main thread's longest stall, mostly its wait
 * for a core behind other processes (an idle control process stalled 180-660 ms beside it), did not
 * fall. The history bench's KUBETIDE_BENCH_NICENESS measures other values.
 */
export const recordingWorkerNiceness = 0;

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
