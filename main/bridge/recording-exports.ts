// A renderer's exports under way: each runs in a worker thread (the main thread and the recording go
// on meanwhile), tied to its request's id so historyExportCancel can stop it; a cancelled export's
// partial file, and any download or staging copy, are removed before its reply says so.
import { gvrKey } from '../../shared/kube/object';
import type { HistoryExportMessage, HistoryExportReply } from '../../shared/protocol/history-messages';
import { exportInWorker } from '../history/export-in-worker';
import type { HistorySource } from './history-source';
import type { OutgoingMessage } from './outgoing-message';
import { exportRecordingFile } from './recording-files';
import type { RecordingFileAccess } from './recording-files';

/** Often enough to move a progress line on a big export, rare enough to cost nothing (1,000 per 1M changes). */
const defaultExportProgressEvery = 1_000;

export class RecordingExports {
  /** The exports running, by their request's id. */
  private readonly running = new Map<number, AbortController>();

  constructor(
    private readonly send: (message: OutgoingMessage) => void,
    /** How many changes an export writes between two historyExportProgress messages. */
    private readonly progressEvery = defaultExportProgressEvery,
  ) {}

  /** Exports `message`'s range of `source` where its destination says; null when none was chosen. */
  async start(
    message: HistoryExportMessage,
    source: HistorySource,
    files: RecordingFileAccess,
  ): Promise<HistoryExportReply | null> {
    const name = `${safeName(source.context)}-${new Date(message.from).toISOString().replace(/[:.]/g, '-')}.kubetide`;
    const { requestId } = message;
    if (this.running.has(requestId)) throw new Error(`export request ${requestId} is already running`);
    const running = new AbortController();
    this.running.set(requestId, running);
    try {
      return await exportRecordingFile(files, message.destination, name, (file) =>
        exportInWorker(source.file, file, {
          from: message.from,
          to: message.to,
          ...(message.namespaces ? { namespaces: message.namespaces } : {}),
          ...(message.gvrs ? { gvrs: message.gvrs.map(gvrKey) } : {}),
          progressEvery: this.progressEvery,
          onProgress: (changes) => this.send({ type: 'historyExportProgress', requestId, changes }),
          signal: running.signal,
        }),
      );
    } finally {
      this.running.delete(requestId);
    }
  }

  /** Stops the export of request `requestId`; false when none runs. */
  cancel(requestId: number): boolean {
    const running = this.running.get(requestId);
    running?.abort(new Error('the export was cancelled: no file was written'));
    return running !== undefined;
  }

  /** Stops every export (the connection closed). */
  cancelAll(reason: string): void {
    for (const running of this.running.values()) running.abort(new Error(reason));
  }
}

function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '-') || 'recording';
}
