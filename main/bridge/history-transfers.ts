// Browser mode's file transfers for history: exports offered for one download, and uploads waiting to
// be imported. Every file lives in one private temporary folder (mode 0700) that main alone names; a
// renderer only ever holds a random one-time token. A transfer not collected within its lifetime is
// deleted, and close() deletes whatever is left, so no temp file outlives its use.
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock, Timer } from '../cache/clock';
import { realClock } from '../cache/real-clock';
import { historyDownloadPath } from '../../shared/protocol/history-messages';
import { HistoryQueries } from '../history/history-queries';
import { checkRecordingFile, maxRecordingFileBytes } from './recording-file-check';

/** A file in the transfer folder and the name the user knows it by. */
export interface TransferFile {
  readonly file: string;
  readonly name: string;
  /** Deletes the file (idempotent). */
  remove(): void;
}

interface Pending extends TransferFile {
  readonly expiry: Timer;
}

/**
 * How long an export waits for its download, and an upload for its historyImport: the browser asks
 * within a second of being told; minutes leave room for a slow machine and nothing more.
 */
export const transferLifetimeMs = 5 * 60_000;

/** A recording's file name as offered to a browser: safe characters only, ending in .kubetide. */
export function transferName(requested: string | null | undefined): string {
  const base = (requested ?? '')
    .replace(/\.kubetide$/i, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .slice(0, 100);
  return `${base.replace(/^[-.]+/, '') || 'recording'}.kubetide`;
}

export class HistoryTransfers {
  private folder: string | undefined;
  private readonly downloads = new Map<string, Pending>();
  private readonly uploads = new Map<string, Pending>();

  constructor(
    private readonly clock: Clock = realClock,
    readonly maxBytes = maxRecordingFileBytes,
    /** Opens each upload off the main thread to check it is a recording (its worker starts on use). */
    private readonly queries = new HistoryQueries(),
  ) {}

  /** A fresh path in the private folder for `name` (nothing is created there yet). */
  newFile(name: string): TransferFile {
    this.folder ??= mkdtempSync(join(tmpdir(), 'kubetide-transfers-'));
    const file = join(this.folder, `${randomBytes(8).toString('hex')}-${transferName(name)}`);
    return { file, name: transferName(name), remove: () => rmSync(file, { force: true }) };
  }

  /** Offers `file` for one download; returns the URL path that serves it. */
  offerDownload(file: TransferFile): string {
    return `${historyDownloadPath}${this.hold(this.downloads, file)}`;
  }

  /** The export behind a download token, once; the caller deletes it after sending. */
  takeDownload(token: string): TransferFile | undefined {
    return this.take(this.downloads, token);
  }

  /**
   * Receives an upload into the private folder, stopping at maxBytes, and checks it is a recording
   * (size, SQLite header, schema) before anyone may import it. Resolves with its one-time token;
   * rejects with the reason, leaving nothing behind.
   */
  async receiveUpload(body: Readable, name: string): Promise<string> {
    const target = this.newFile(name);
    let received = 0;
    const maxBytes = this.maxBytes;
    try {
      await pipeline(
        body,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            received += chunk.length;
            if (received > maxBytes) throw new Error(`the upload is larger than ${maxBytes} bytes`);
            yield chunk;
          }
        },
        createWriteStream(target.file, { flags: 'wx', mode: 0o600 }),
      );
      await checkRecordingFile(target.file, this.queries, { keep: false, maxBytes });
    } catch (error) {
      target.remove();
      throw error;
    }
    return this.hold(this.uploads, target);
  }

  /** The uploaded recording behind a token, once; the caller owns (and must remove) the file. */
  takeUpload(token: string): TransferFile | undefined {
    return this.take(this.uploads, token);
  }

  /** Deletes every file not collected yet, and the folder; ends the checking worker. */
  close(): void {
    this.queries.close();
    for (const pending of [...this.downloads.values(), ...this.uploads.values()]) pending.expiry.stop();
    this.downloads.clear();
    this.uploads.clear();
    if (this.folder) rmSync(this.folder, { recursive: true, force: true });
    this.folder = undefined;
  }

  private hold(table: Map<string, Pending>, file: TransferFile): string {
    const token = randomBytes(24).toString('base64url');
    const expiry = this.clock.setTimeout(() => {
      table.delete(token);
      file.remove();
    }, transferLifetimeMs);
    table.set(token, { ...file, expiry });
    return token;
  }

  private take(table: Map<string, Pending>, token: string): TransferFile | undefined {
    const pending = table.get(token);
    if (!pending) return undefined;
    table.delete(token);
    pending.expiry.stop();
    return { file: pending.file, name: pending.name, remove: pending.remove };
  }
}
