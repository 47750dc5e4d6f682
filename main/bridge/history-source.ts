// Where one renderer's history questions are answered from: the current context's recording (still
// being written by the session's Recorder) or a recording file the renderer imported, read-only.
import { basename } from 'node:path';
import type { Recorder } from '../history/recorder';
import type { RecordingReader } from '../history/recording-reader';
import { openRecording } from '../history/recording-reader';
import type { RecordingSource } from '../../shared/protocol/history-messages';
import type { Clock } from '../cache/clock';

export interface HistorySourceOptions {
  readonly file: string;
  /** The context the file records (for an import, what its metadata says). */
  readonly context: string;
  /** The name the user knows the file by (default: its file name). */
  readonly name?: string;
  /**
   * The live recording's writer. Its recording process commits every flush interval (100 ms), and a
   * reader sees every committed batch, so answers are never more than about that behind.
   */
  readonly recorder?: Recorder;
  /** Set when another instance writes the live recording and this one only reads it: says why. */
  readonly readOnly?: string;
  readonly clock: Clock;
  /**
   * How long one opened reader answers a live recording before it is refreshed (the writer moves its
   * metadata, such as lastWritten, meanwhile; see RecordingReader.refresh).
   */
  readonly refreshAfterMs?: number;
}

export class HistorySource {
  private current: RecordingReader | undefined;
  private refreshedAt = 0;

  constructor(private readonly options: HistorySourceOptions) {}

  get file(): string {
    return this.options.file;
  }

  /** The context the recording records (for an import, what its metadata said). */
  get context(): string {
    return this.options.context;
  }

  /** The context's recording, still being written (by this instance, or read-only by another). */
  get live(): boolean {
    return this.options.recorder !== undefined || this.options.readOnly !== undefined;
  }

  /**
   * A reader that includes every change recorded so far. Throws a RecordingError when unreadable.
   * Opened once: opening runs quick_check over the whole file, seconds for a long recording, and this
   * thread must not stall; a live recording's reader is refreshed instead (a few rows).
   */
  reader(): RecordingReader {
    const now = this.options.clock.now();
    if (!this.current) {
      this.current = openRecording(this.options.file);
      this.refreshedAt = now;
    } else if (this.live && now - this.refreshedAt >= (this.options.refreshAfterMs ?? 2_000)) {
      this.current.refresh();
      this.refreshedAt = now;
    }
    return this.current;
  }

  /** A reader of its own, for a playback that iterates while other questions are answered. */
  dedicatedReader(): RecordingReader {
    return openRecording(this.options.file);
  }

  describe(): RecordingSource {
    return {
      kind: this.live ? 'live' : 'imported',
      context: this.options.context,
      name: this.options.name ?? basename(this.options.file),
      problems: [
        ...(this.options.readOnly ? [`read-only: ${this.options.readOnly}`] : []),
        ...(this.current?.problems ?? []).map((problem) => `${problem.where}: ${problem.message}`),
      ],
    };
  }

  close(): void {
    this.current?.close();
    this.current = undefined;
  }
}
