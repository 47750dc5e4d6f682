// Where history's recording files come from and go to: the boundary between a renderer's request and
// the disk. No message names a path. An export goes to a new file the user picked in main's save
// dialog (Electron) or to a one-time browser download (browser mode); an import is a file picked in
// main's open dialog, or an upload already checked by HistoryTransfers. The dialog's answer is used
// by the very request that opened it, never handed to the renderer to send back. export-destination.ts
// and recording-file-check.ts hold each path to its rules.
import { constants, mkdtempSync, rmSync, statSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { HistoryExportReply, HistoryImportMessage } from '../../shared/protocol/history-messages';
import { StatusError, newStatus } from '../../shared/kube/status';
import type { ExportSummary } from '../history/export-recording';
import type { HistoryQueries, RecordingInspection } from '../history/history-queries';
import { exportDestination } from './export-destination';
import type { HistoryTransfers, TransferFile } from './history-transfers';
import { checkRecordingFile } from './recording-file-check';

/**
 * Asks the user for a recording file in main's own dialog (a save dialog to export, an open dialog to
 * import); resolves undefined when they cancel.
 */
export type FilePicker = (
  purpose: 'export' | 'import',
  suggestedPath: string | undefined,
) => Promise<string | undefined>;

export interface RecordingFileAccess {
  /** Main's file dialog (Electron); without one, destination and source "dialog" are refused. */
  readonly pickFile?: FilePicker | undefined;
  /** Browser mode's downloads and uploads; without them, "download" and uploads are refused. */
  readonly transfers?: HistoryTransfers | undefined;
  /** The folder of the data directory's recordings, which no export may write into. */
  readonly recordingsFolder: string | undefined;
  /** Opens a recording to import off the main thread (the one that will answer its questions). */
  readonly queries: Pick<HistoryQueries, 'inspect'>;
}

/**
 * A recording to open for import, and what opening it found; `remove` deletes it when it is main's
 * own copy (an upload).
 */
export type RecordingToImport = Pick<TransferFile, 'file' | 'name'> & {
  readonly inspection: RecordingInspection;
  remove?: () => void;
};

async function pick(
  access: RecordingFileAccess,
  purpose: 'export' | 'import',
  suggested: string | undefined,
): Promise<string | null> {
  if (!access.pickFile)
    throw new Error('main has no file dialog here (browser mode): use a download or upload');
  return (await access.pickFile(purpose, suggested)) ?? null;
}

/**
 * Runs `write` (an export into the file it is given) towards `destination`; null when the user
 * cancelled the dialog.
 */
export async function exportRecordingFile(
  access: RecordingFileAccess,
  destination: 'dialog' | 'download',
  suggestedName: string,
  write: (file: string) => Promise<ExportSummary>,
): Promise<HistoryExportReply | null> {
  if (destination === 'download') {
    const transfers = access.transfers;
    if (!transfers) throw new Error('main offers no downloads here (Electron): export to a file you choose');
    const target = transfers.newFile(suggestedName);
    let summary: ExportSummary;
    try {
      summary = await write(target.file);
    } catch (error) {
      target.remove();
      throw error;
    }
    const bytes = statSync(target.file).size;
    return {
      name: target.name,
      changes: summary.changes,
      bytes,
      downloadUrl: transfers.offerDownload(target),
    };
  }
  const chosen = await pick(access, 'export', suggestedName);
  if (chosen === null) return null;
  const path = exportDestination(chosen, access.recordingsFolder);
  // Written in a private folder first and then copied with COPYFILE_EXCL: the destination is created
  // by the copy or not at all, never replaced, and a failed export leaves nothing at it.
  const staging = mkdtempSync(join(tmpdir(), 'kubetide-export-'));
  try {
    const staged = join(staging, 'export.kubetide');
    const summary = await write(staged);
    await copyFile(staged, path, constants.COPYFILE_EXCL);
    return { name: basename(path), changes: summary.changes, bytes: statSync(path).size };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** The recording `source` names, checked; null when the user cancelled the dialog. */
export async function recordingToImport(
  access: RecordingFileAccess,
  source: HistoryImportMessage['source'],
): Promise<RecordingToImport | null> {
  if (source === 'dialog') {
    const chosen = await pick(access, 'import', undefined);
    if (chosen === null) return null;
    const inspection = await checkRecordingFile(chosen, access.queries, { keep: true });
    return { file: chosen, name: basename(chosen), inspection };
  }
  const upload = access.transfers?.takeUpload(source.upload);
  if (!upload) {
    throw new StatusError(
      newStatus(
        404,
        'NotFound',
        'no such upload (it was used, expired, or never made): upload the file again',
      ),
    );
  }
  try {
    // Checked when it arrived (HistoryTransfers); opened again by the worker that will read it.
    return { ...upload, inspection: await access.queries.inspect(upload.file, { keep: true }) };
  } catch (error) {
    upload.remove();
    throw error;
  }
}
