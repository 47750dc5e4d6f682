// Where one renderer's history questions are answered from: the current context's recording (still
// being written by the session's Recorder) or a recording file the renderer imported, read-only.
// Only names the file: every read of it is the query worker's (HistoryQueries), never main's.
import { basename } from 'node:path';
import type { Recorder } from '../history/recorder';
import type { RecordingSource } from '../../shared/protocol/history-messages';

export interface HistorySourceOptions {
  readonly file: string;
  /** The context the file records (for an import, what its metadata says). */
  readonly context: string;
  /** The name the user knows the file by (default: its file name). */
  readonly name?: string;
  /**
   * The live recording's writer. Its recording process commits every flush interval (100 ms), and the
   * query worker's reader sees every committed batch, so answers are never more than about that behind.
   */
  readonly recorder?: Recorder;
  /** Set when another instance writes the live recording and this one only reads it: says why. */
  readonly readOnly?: string;
  /** For an import: the damage opening it found (see HistoryQueries.inspect), as the UI lists it. */
  readonly problems?: readonly string[];
}

export class HistorySource {
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

  describe(): RecordingSource {
    return {
      kind: this.live ? 'live' : 'imported',
      context: this.options.context,
      name: this.options.name ?? basename(this.options.file),
      problems: [
        ...(this.options.readOnly ? [`read-only: ${this.options.readOnly}`] : []),
        ...(this.options.problems ?? []),
      ],
    };
  }
}
