// Answers a Recorder's requests inside the recording process: one RecordingSession, opened by the
// first request and closed by the last. The same code serves a worker thread (recording-worker.ts),
// an Electron utilityProcess, or, in tests, the calling thread itself (inlineRecordingProcess).
import type { CapturedEntry } from './captured-batch';
import { readCapturedBatch } from './captured-batch';
import { RecordingError, messageOf } from './recording-error';
import type { RecorderRequest, RecordingReply } from './recording-protocol';
import { RecordingSession } from './recording-session';
import { threadCpuMs } from './thread-cpu-time';

export class RecordingServer {
  private session: RecordingSession | undefined;
  private writeMs = 0;
  /** Undefined once the platform does not tell a thread's CPU time. */
  private writeCpuMs: number | undefined = 0;

  constructor(private readonly reply: (reply: RecordingReply) => void) {}

  handle(request: RecorderRequest): void {
    switch (request.type) {
      case 'open':
        try {
          this.session = new RecordingSession(request.settings, request.now, (context, message) =>
            this.reply({ type: 'error', context, message }),
          );
          this.reply({ type: 'opened', lastWritten: this.session.lastWritten });
        } catch (error) {
          this.reply({
            type: 'open-failed',
            file: request.settings.file,
            problem: error instanceof RecordingError ? error.problem : undefined,
            message: messageOf(error),
          });
        }
        return;
      case 'batch': {
        const session = this.requireSession();
        const started = performance.now();
        const startedCpu = this.writeCpuMs === undefined ? undefined : threadCpuMs();
        let entries: CapturedEntry[] = [];
        try {
          entries = readCapturedBatch(bufferOf(request.entries), request.entryEnds);
        } catch (error) {
          this.reply({
            type: 'error',
            context: 'a recorded batch could not be read',
            message: messageOf(error),
          });
        }
        const changesWritten = session.write(entries, request.now);
        this.writeMs += performance.now() - started;
        const endedCpu = startedCpu === undefined ? undefined : threadCpuMs();
        this.writeCpuMs =
          startedCpu === undefined || endedCpu === undefined
            ? undefined
            : this.writeCpuMs! + endedCpu - startedCpu;
        this.reply({
          type: 'written',
          sequence: request.sequence,
          changesWritten,
          bytes: session.bytes(),
          writeMs: this.writeMs,
          writeCpuMs: this.writeCpuMs,
          // Read: every entry kept was copied out of it (see readCapturedBatch), so it may go back.
          entries: request.entries,
        });
        return;
      }
      case 'retention':
        this.requireSession().enforceRetention(request.policy, request.now);
        return;
      case 'metric-samples': {
        const started = performance.now();
        this.requireSession().writeMetricSamples(request.samples, request.now);
        this.writeMs += performance.now() - started;
        return;
      }
      case 'close': {
        const session = this.requireSession();
        session.close(request.now);
        this.reply({ type: 'closed', bytes: session.bytes() });
        return;
      }
    }
  }

  private requireSession(): RecordingSession {
    if (!this.session) throw new Error('the recording is not open');
    return this.session;
  }
}

/** The bytes as a Buffer, without copying them (a transferred buffer arrives as a plain Uint8Array). */
function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
