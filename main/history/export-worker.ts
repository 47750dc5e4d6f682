// The entry point of an export worker thread (see exportInWorker): exports one recording range into
// one file, posting progress, then the summary or the error, and ends.
import { parentPort, workerData } from 'node:worker_threads';
import type { ExportOptions } from './export-recording';
import { exportRecording } from './export-recording';
import { messageOf } from './recording-error';
import { openRecording } from './recording-reader';
import { nameThisThread } from './thread-name';

export interface ExportRequest {
  readonly source: string;
  readonly destination: string;
  readonly options: Omit<ExportOptions, 'onProgress'>;
}

export type ExportReply =
  | { readonly type: 'progress'; readonly changes: number }
  | { readonly type: 'done'; readonly changes: number; readonly problems: ExportSummaryProblems }
  | { readonly type: 'failed'; readonly message: string };

type ExportSummaryProblems = ReturnType<typeof exportRecording>['problems'];

const port = parentPort;
if (port) {
  nameThisThread('kubetide-export');
  const request = workerData as ExportRequest;
  try {
    // The copy reads every change row and reports the ones it cannot: no page-by-page check first.
    const reader = openRecording(request.source, { checkIntegrity: false });
    try {
      const summary = exportRecording(reader, request.destination, {
        ...request.options,
        onProgress: (changes) => port.postMessage({ type: 'progress', changes } satisfies ExportReply),
      });
      port.postMessage({
        type: 'done',
        changes: summary.changes,
        problems: summary.problems,
      } satisfies ExportReply);
    } finally {
      reader.close();
    }
  } catch (error) {
    port.postMessage({ type: 'failed', message: messageOf(error) } satisfies ExportReply);
  }
}
