// The seam between a Recorder and the process that writes its file: requests go one way and replies
// come back, in order, as messages. A worker thread implements it in production (browser mode,
// `npm run record`; in Electron a utilityProcess can implement the same interface); tests that drive
// time with a FakeClock use the inline one, which runs the same RecordingServer on the calling thread.
import type { RecorderRequest, RecordingReply } from './recording-protocol';
import { RecordingServer } from './recording-server';

export interface RecordingProcess {
  post(request: RecorderRequest): void;
  /** Every reply, in the order the requests were served. */
  onReply(listener: (reply: RecordingReply) => void): void;
  /** The process ended without being asked to (it crashed or was killed). */
  onExit(listener: (error: Error) => void): void;
  /** Ends the process; whatever it had not served is lost. */
  terminate(): Promise<void>;
}

export type RecordingProcessFactory = () => RecordingProcess;

/** Serves requests on this thread, replying on a later microtask as a real process would. */
export const inlineRecordingProcess: RecordingProcessFactory = () => {
  const listeners: ((reply: RecordingReply) => void)[] = [];
  const server = new RecordingServer((reply) =>
    queueMicrotask(() => {
      for (const listener of listeners) listener(reply);
    }),
  );
  return {
    post: (request) => server.handle(request),
    onReply: (listener) => void listeners.push(listener),
    onExit: () => {},
    terminate: () => Promise.resolve(),
  };
};
