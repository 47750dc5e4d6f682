// A renderer's exports: each runs in a worker thread (the main thread and the recording go on
// meanwhile) until its signal stops it (the request withdrawn by historyWithdraw, or the connection
// closed); a stopped export's partial file, and any download or staging copy, are removed before its
// reply says so.
import { gvrKey } from '../../shared/kube/object';
import type { HistoryExportMessage, HistoryExportReply } from '../../shared/protocol/history-messages';
import { exportInWorker } from '../history/export-in-worker';
import type { HistorySource } from './history-source';
import type { OutgoingMessage } from './outgoing-message';
import { exportRecordingFile } from './recording-files';
import type { RecordingFileAccess } from './recording-files';

/** Often enough to move a progress line on a big export, rare enough to cost nothing (1,000 per 1M changes). */
const defaultExportProgressEvery = 1_000;

/** Why a withdrawn export's reply fails. */
export function exportCancelled(): Error {
  return new Error('the export was cancelled: no file was written');
}

export class RecordingExports {
  constructor(
    private readonly send: (message: OutgoingMessage) => void,
    /** How many changes an export writes between two historyExportProgress messages. */
    private readonly progressEvery = defaultExportProgressEvery,
  ) {}

  /**
   * Exports `message`'s range of `source` where its destination says, until `signal` stops it (the
   * export then rejects with the signal's reason); null when no destination was chosen.
   */
  async start(
    message: HistoryExportMessage,
    source: HistorySource,
    files: RecordingFileAccess,
    signal: AbortSignal,
  ): Promise<HistoryExportReply | null> {
    const name = `${safeName(source.context)}-${new Date(message.from).toISOString().replace(/[:.]/g, '-')}.kubetide`;
    const { requestId } = message;
    return exportRecordingFile(files, message.destination, name, (file) =>
      exportInWorker(source.file, file, {
        from: message.from,
        to: message.to,
        ...(message.namespaces ? { namespaces: message.namespaces } : {}),
        ...(message.gvrs ? { gvrs: message.gvrs.map(gvrKey) } : {}),
        progressEvery: this.progressEvery,
        onProgress: (changes) => this.send({ type: 'historyExportProgress', requestId, changes }),
        signal,
      }),
    );
  }
}

function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '-') || 'recording';
}
