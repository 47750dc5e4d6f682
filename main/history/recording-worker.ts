// The entry point of the recording worker thread (see workerRecordingProcess): serves the Recorder's
// requests from the parent port, in order, with a RecordingServer.
import { parentPort } from 'node:worker_threads';
import type { RecorderRequest } from './recording-protocol';
import { RecordingServer } from './recording-server';

const port = parentPort;
if (!port) throw new Error('recording-worker runs as a worker thread');
const server = new RecordingServer((reply) => port.postMessage(reply));
port.on('message', (request: RecorderRequest) => server.handle(request));
