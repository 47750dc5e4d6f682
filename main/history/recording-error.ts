// Errors that name the recording file and what is wrong with it, so a user can tell a file that is
// not a recording from one cut short or damaged, and still see what could be read.

export type RecordingProblemKind =
  /** The file is missing, unreadable, or not SQLite at all (its header is gone). */
  | 'unreadable'
  /** SQLite, but not a Kubetide recording, or from a newer format. */
  | 'not-a-recording'
  /** Pages are missing or damaged: the file was truncated or corrupted. */
  | 'corrupt'
  /** Another recorder, alive, writes it: it can only be read (see RecordingLock). */
  | 'locked';

/** One thing found wrong while opening or reading a recording. */
export interface RecordingProblem {
  readonly kind: RecordingProblemKind;
  /** What was being read when it failed ("changes 1200..1399 of pods.v1", "integrity check"). */
  readonly where: string;
  readonly message: string;
}

export class RecordingError extends Error {
  constructor(
    readonly file: string,
    readonly problem: RecordingProblem,
    options?: { cause?: unknown },
  ) {
    super(`recording ${file}: ${problem.where}: ${problem.message}`, options);
    this.name = 'RecordingError';
  }
}

/** SQLite's own words for damage, from better-sqlite3's SqliteError codes. */
export function problemKindOf(error: unknown): RecordingProblemKind {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CANTOPEN') return 'unreadable';
  return 'corrupt';
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
