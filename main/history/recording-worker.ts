// The entry point of the recording worker thread (see recordingWorkerProcess): lowers its own
// priority as asked, then serves the Recorder's requests from the parent port, in order, with a
// RecordingServer.
import { parentPort, workerData } from 'node:worker_threads';
import type { RecorderRequest } from './recording-protocol';
import { RecordingServer } from './recording-server';
import { setThisThreadNiceness } from './thread-priority';
import { nameThisThread } from './thread-name';

/** What the thread is started with. */
export interface RecordingWorkerData {
  /** Its nice value (see setThisThreadNiceness); 0 leaves it at the starting thread's. */
  readonly niceness: number;
}

const port = parentPort;
if (!port) throw new Error('recording-worker runs as a worker thread');
nameThisThread('kubetide-record');
const { niceness } = (workerData ?? { niceness: 0 }) as RecordingWorkerData;
if (niceness > 0) setThisThreadNiceness(niceness);
// A batch's buffer goes back as it came: moved, not copied (see BatchBuffer).
const server = new RecordingServer((reply) =>
  port.postMessage(
    reply,
    reply.type === 'written' && reply.entries ? [reply.entries.buffer as ArrayBuffer] : [],
  ),
);
port.on('message', (request: RecorderRequest) => server.handle(request));
