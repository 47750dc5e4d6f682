// Opens a recording to read (a live one, an exported file, or one cut short by a crash or a bad copy)
// and turns its rows back into RecordedChanges. Damage does not make the whole file unreadable: each
// query that fails is reported as a RecordingProblem and answered with what could be read.
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { KubeObject } from '../../shared/kube/object';
import type { RecordedChange, StreamIdentity } from './recorded-change';
import { decodeDeltaType } from './recorded-change';
import type { RecordingProblem } from './recording-error';
import { RecordingError, messageOf, problemKindOf } from './recording-error';
import type { SqliteDatabase } from './schema';
import { readMeta, recordingFormatVersion } from './schema';
import { paddedCopy, truncationOf } from './truncated-file';
import { VersionDecoder } from './version-decoder';

/** What the meta table says about a recording (exports add their range and filters). */
export interface RecordingMetadata {
  readonly formatVersion: number;
  readonly context: string;
  /** ISO time the file was created. */
  readonly created: string;
  /** The earliest moment covered, when retention or an export set one (ms). */
  readonly start: number | undefined;
  /** When the recording was last written (ms). */
  readonly lastWritten: number | undefined;
  /** For exports: { from, to, namespaces?, gvrs? } as requested. */
  readonly exportFilter: unknown;
}

export interface ReaderStream extends StreamIdentity {
  readonly id: number;
}

/** A changes row with its object identity, before its version is decoded. */
export interface ChangeRow {
  readonly id: number;
  readonly time: number;
  readonly stream: number;
  readonly object: number;
  readonly type: number;
  readonly resource_version: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

export const changeColumns =
  'c.id, c.time, c.stream, c.object, c.type, c.resource_version, o.namespace, o.name, o.uid FROM changes c JOIN objects o ON o.id = c.object';

/** Rows read per query when scanning, so a damaged page costs one chunk, not the whole scan. */
const scanChunk = 2000;

export interface OpenOptions {
  /**
   * Whether to run SQLite's quick_check on open (default true), which reads every page: about half a
   * second per 50 MB. A reader that reads every row anyway (an export) finds the damage as it goes.
   */
  readonly checkIntegrity?: boolean;
}

/**
 * Opens `file` read-only. Throws a RecordingError only when nothing can be read (missing file, not
 * SQLite, not a recording, a newer format); lesser damage is listed in `problems`.
 */
export function openRecording(file: string, options: OpenOptions = {}): RecordingReader {
  if (!existsSync(file)) {
    throw new RecordingError(file, { kind: 'unreadable', where: 'open', message: 'no such file' });
  }
  try {
    return new RecordingReader(file, openReadOnly(file), undefined, options);
  } catch (error) {
    if (error instanceof RecordingError) throw error;
    const truncation = truncationOf(file);
    if (!truncation) {
      throw new RecordingError(
        file,
        {
          kind: problemKindOf(error),
          where: 'open',
          message: `not a readable SQLite file (${messageOf(error)})`,
        },
        { cause: error },
      );
    }
    // SQLite refuses a file shorter than its header says; a copy padded with empty pages opens, and
    // only the queries that reach the missing pages fail. The file itself is never written.
    const copy = paddedCopy(file, truncation.expectedBytes);
    let database: SqliteDatabase;
    try {
      database = openReadOnly(copy.path);
    } catch (failure) {
      // The salvage copy may be as large as the header claims: never leave it behind.
      copy.remove();
      throw new RecordingError(
        file,
        {
          kind: problemKindOf(failure),
          where: 'open',
          message: `not a readable SQLite file (${messageOf(failure)})`,
        },
        { cause: failure },
      );
    }
    const reader = new RecordingReader(file, database, copy.remove, options);
    reader.problems.unshift({
      kind: 'corrupt',
      where: 'file size',
      message: `the file is truncated: ${truncation.presentBytes} of ${truncation.expectedBytes} bytes present`,
    });
    return reader;
  }
}

function openReadOnly(file: string): SqliteDatabase {
  const database = new Database(file, { readonly: true, fileMustExist: true });
  try {
    database.prepare('SELECT count(*) FROM sqlite_master').get();
    return database;
  } catch (error) {
    database.close();
    throw error;
  }
}

export class RecordingReader {
  /** What was found wrong so far: at open (integrity check) and by every query since. */
  readonly problems: RecordingProblem[] = [];
  private currentMetadata: RecordingMetadata;
  private readonly streamsById = new Map<number, ReaderStream>();
  private readonly sharedDecoder: VersionDecoder;

  /**
   * Reads `database`, opened from `file` (or from a salvage copy of it, which `release` removes on
   * close). Throws a RecordingError when the tables of a recording are missing or its format is newer.
   */
  constructor(
    readonly file: string,
    readonly database: SqliteDatabase,
    private readonly release: () => void = () => {},
    options: OpenOptions = {},
  ) {
    const tables = new Set(
      (
        database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]
      ).map((row) => row.name),
    );
    for (const table of ['meta', 'streams', 'objects', 'changes']) {
      if (!tables.has(table)) {
        database.close();
        release();
        throw new RecordingError(file, {
          kind: 'not-a-recording',
          where: 'schema',
          message: `table ${table} is missing: this is not a Kubetide recording`,
        });
      }
    }
    this.sharedDecoder = new VersionDecoder(database);
    this.currentMetadata = this.readMetadata();
    if (this.metadata.formatVersion > recordingFormatVersion) {
      database.close();
      release();
      throw new RecordingError(file, {
        kind: 'not-a-recording',
        where: 'meta',
        message: `format version ${this.metadata.formatVersion} is newer than this build reads (${recordingFormatVersion})`,
      });
    }
    if (options.checkIntegrity !== false) this.checkIntegrity();
    this.loadStreams();
  }

  /**
   * Reads the streams table again. A live recording gains streams while a reader is open (an informer
   * started later, e.g. per namespace once the user adds one); the table is a few rows.
   */
  private loadStreams(): void {
    for (const stream of this.guard(
      'streams',
      [],
      () => this.database.prepare('SELECT id, gvr, scope FROM streams').all() as ReaderStream[],
    )) {
      this.streamsById.set(stream.id, stream);
    }
  }

  get metadata(): RecordingMetadata {
    return this.currentMetadata;
  }

  /**
   * Which recording this is: its path and creation time, so that what a cache kept of one file is not
   * taken for another's (a recording replaced at the same path numbers its rows anew).
   */
  get identity(): string {
    return `${this.file} ${this.currentMetadata.created}`;
  }

  /**
   * Reads the meta table and the streams again: what a live recording's writer moves while a reader
   * is open (lastWritten, retention's start, kinds first recorded later). A few rows, where reopening
   * the file runs quick_check over all of it: seconds for a recording of an hour at 150,000 pods.
   */
  refresh(): void {
    this.currentMetadata = this.readMetadata();
    this.loadStreams();
  }

  /** True when no problem has been found: every answer so far is complete. */
  get intact(): boolean {
    return this.problems.length === 0;
  }

  streams(): ReaderStream[] {
    this.loadStreams();
    return [...this.streamsById.values()];
  }

  stream(id: number): ReaderStream | undefined {
    if (!this.streamsById.has(id)) this.loadStreams();
    return this.streamsById.get(id);
  }

  /** Runs `query`; a failure becomes a problem named by `where`, and `fallback` is returned. */
  guard<T>(where: string, fallback: T, query: () => T): T {
    try {
      return query();
    } catch (error) {
      this.problems.push({ kind: problemKindOf(error), where, message: messageOf(error) });
      return fallback;
    }
  }

  /**
   * Every change row matching `condition` (SQL over c.* and o.*) with id in (afterId, throughId], in
   * id order, read in chunks. A chunk that fails is split until the rows that cannot be read are
   * isolated; those are reported (as one problem per run of lost ids) and the rest is still read.
   */
  *scan(
    where: string,
    condition: string,
    parameters: unknown[],
    afterId: number,
    throughId: number,
  ): Generator<ChangeRow> {
    const select = this.database.prepare(
      `SELECT ${changeColumns} WHERE c.id > ? AND c.id <= ? AND (${condition}) ORDER BY c.id`,
    );
    const lost: { from: number; to: number; error: unknown }[] = [];
    const range = function* (low: number, high: number): Generator<ChangeRow> {
      let rows: ChangeRow[];
      try {
        rows = select.all(low, high, ...parameters) as ChangeRow[];
      } catch (error) {
        if (high - low > 1) {
          const middle = Math.floor((low + high) / 2);
          yield* range(low, middle);
          yield* range(middle, high);
          return;
        }
        const previous = lost[lost.length - 1];
        if (previous && previous.to === low) previous.to = high;
        else lost.push({ from: low + 1, to: high, error });
        return;
      }
      yield* rows;
    };
    for (let low = afterId; low < throughId; low += scanChunk)
      yield* range(low, Math.min(low + scanChunk, throughId));
    for (const { from, to, error } of lost) {
      this.problems.push({
        kind: problemKindOf(error),
        where: `${where}, changes ${from}..${to} unreadable`,
        message: messageOf(error),
      });
    }
  }

  /** Every problem as one line naming the file: what a UI or log shows. */
  report(): string[] {
    return this.problems.map((problem) => `recording ${this.file}: ${problem.where}: ${problem.message}`);
  }

  /** The highest change id (0 for none). */
  lastChangeId(): number {
    return this.guard(
      'changes',
      0,
      () =>
        (this.database.prepare('SELECT max(id) AS id FROM changes').get() as { id: number | null }).id ?? 0,
    );
  }

  /** Decodes `row`'s version; a version that cannot be read is reported and comes back undefined. */
  toChange(row: ChangeRow, decoder: VersionDecoder): RecordedChange {
    const stream = this.streamsById.get(row.stream);
    const { type, finalStateUnknown } = decodeDeltaType(row.type);
    const object = this.guard(`version of ${row.namespace}/${row.name} (change ${row.id})`, undefined, () => {
      const json = decoder.json(row.id);
      return json === 'null' ? undefined : (JSON.parse(json) as KubeObject);
    });
    return {
      id: row.id,
      time: row.time,
      gvr: stream?.gvr ?? '',
      scope: stream?.scope ?? '',
      namespace: row.namespace,
      name: row.name,
      uid: row.uid,
      type,
      finalStateUnknown,
      resourceVersion: row.resource_version,
      object,
    };
  }

  /** The reader's decoder, shared by its queries: versions decoded once serve every later query. */
  decoder(): VersionDecoder {
    return this.sharedDecoder;
  }

  close(): void {
    this.database.close();
    this.release();
  }

  private readMetadata(): RecordingMetadata {
    const read = (key: string) => this.guard(`meta ${key}`, undefined, () => readMeta(this.database, key));
    const number = (key: string) => {
      const value = read(key);
      return value === undefined ? undefined : Number(value);
    };
    const filter = read('exportFilter');
    return {
      formatVersion: number('formatVersion') ?? recordingFormatVersion,
      context: read('context') ?? '',
      created: read('created') ?? '',
      start: number('start'),
      lastWritten: number('lastWritten'),
      exportFilter: filter === undefined ? undefined : JSON.parse(filter),
    };
  }

  private checkIntegrity(): void {
    const messages = this.guard('integrity check', [] as string[], () =>
      (this.database.pragma('quick_check(20)') as { quick_check: string }[]).map((row) => row.quick_check),
    );
    for (const message of messages) {
      if (message !== 'ok') this.problems.push({ kind: 'corrupt', where: 'integrity check', message });
    }
  }
}
