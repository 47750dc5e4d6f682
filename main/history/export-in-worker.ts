// Export off the main thread: exportRecording runs in a worker thread of its own, reading the
// recording (which the recording worker keeps writing meanwhile: WAL readers never block it) and
// writing the export file, with progress and cancel.
import { rmSync } from 'node:fs';
import type { ExportOptions, ExportSummary } from './export-recording';
import type { ExportReply, ExportRequest } from './export-worker';
import { startHistoryWorker } from './history-worker';

export interface ExportInWorkerOptions extends Omit<ExportOptions, 'onProgress'> {
  /** Told the number of changes exported so far, every `progressEvery` changes (default 10,000). */
  readonly onProgress?: (changes: number) => void;
  /** Aborting stops the export and removes the partial file; the promise rejects with the reason. */
  readonly signal?: AbortSignal;
}

/** Exports [from, to] of the recording `source` into `destination` (replacing it) in a worker thread. */
export function exportInWorker(
  source: string,
  destination: string,
  options: ExportInWorkerOptions,
): Promise<ExportSummary> {
  const { onProgress, signal, ...exportOptions } = options;
  signal?.throwIfAborted();
  const request: ExportRequest = { source, destination, options: exportOptions };
  const worker = startHistoryWorker('export-worker', request);
  return new Promise<ExportSummary>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', cancel);
      void worker.terminate();
      outcome();
    };
    const cancel = () =>
      settle(() => {
        // terminate() stops the worker between statements; what it had written is partial.
        void worker.terminate().then(() => {
          for (const suffix of ['', '-journal', '-wal', '-shm'])
            rmSync(`${destination}${suffix}`, { force: true });
          reject(signal?.reason ?? new Error('export cancelled'));
        });
      });
    signal?.addEventListener('abort', cancel, { once: true });
    worker.on('message', (reply: ExportReply) => {
      if (reply.type === 'progress') onProgress?.(reply.changes);
      else if (reply.type === 'done')
        settle(() => resolve({ file: destination, changes: reply.changes, problems: reply.problems }));
      else settle(() => reject(new Error(`export of ${source} failed: ${reply.message}`)));
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) =>
      settle(() => reject(new Error(`the export worker exited with code ${code} before finishing`))),
    );
  });
}
