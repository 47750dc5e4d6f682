// The recording process's side of a Recorder: owns the file and writes each batch of captured
// entries in one transaction (encoding, compression, SQLite), then the keyframes due, and applies
// retention now and then. Never runs on the thread that runs the informers.
import { statSync } from 'node:fs';
import { writeCrashLog } from './crash-log-store';
import { MetricSampleWriter } from './metric-sample-store';
import type { CapturedChange, CapturedEntry } from './captured-batch';
import { isCapturedChange } from './captured-batch';
import { decodeDeltaType } from './recorded-change';
import type { MarkEntry, MetricSamplesEntry, RecordingSettings } from './recording-protocol';
import { RecordingLock } from './recording-lock';
import { RecordingWriter } from './recording-writer';
import { messageOf } from './recording-error';
import type { RetentionPolicy } from './retention';
import { enforceRetention } from './retention';
import type { SqliteDatabase } from './schema';
import { openForWriting, readMeta } from './schema';

interface StreamProgress {
  /** The file's stream id. */
  readonly id: number;
  changesSinceKeyframe: number;
  lastKeyframe: number;
}

export class RecordingSession {
  readonly lastWritten: number | undefined;
  private readonly lock: RecordingLock;
  private readonly database: SqliteDatabase;
  private readonly writer: RecordingWriter;
  private readonly metricSamples: MetricSampleWriter;
  /** The Recorder's stream numbers -> the file's streams. */
  private readonly streams = new Map<number, StreamProgress>();
  /** The Recorder's gap numbers -> mark row ids. */
  private readonly gaps = new Map<number, number>();
  /**
   * The file's streams not (yet) recorded in this session -> their open not-recording gap: a stream
   * recorded in an earlier session is unknown from this session's start until it is attached again.
   */
  private readonly unrecorded = new Map<number, number>();
  private lastRetention: number;
  private changesWritten = 0;
  private closed = false;

  /**
   * Takes the recording's lock (one writer per file), opens (or creates) the recording and records the time since it was last written as a
   * "not-recording" gap, closing any gap a crash left open at that same time. Throws a RecordingError
   * when the file cannot be recorded into.
   */
  constructor(
    private readonly settings: RecordingSettings,
    now: number,
    private readonly reportError: (context: string, message: string) => void,
  ) {
    this.lock = RecordingLock.acquire(settings.file);
    try {
      this.database = openForWriting(settings.file, settings.context, now);
    } catch (error) {
      this.lock.release();
      throw error;
    }
    this.writer = new RecordingWriter(this.database, {
      fullVersionEvery: settings.fullVersionEvery,
      rowFrames: settings.rowFrames,
    });
    this.metricSamples = new MetricSampleWriter(this.database);
    const lastWritten = readMeta(this.database, 'lastWritten');
    this.lastWritten = lastWritten === undefined ? undefined : Number(lastWritten);
    this.lastRetention = now;
    this.writer.transaction(() => {
      if (this.lastWritten !== undefined) {
        const since = Math.min(this.lastWritten, now);
        this.database.prepare('UPDATE marks SET end = ? WHERE end IS NULL').run(since);
        this.writer.writeMark({
          kind: 'gap',
          reason: 'not-recording',
          stream: undefined,
          start: since,
          end: now,
          detail: 'the recorder was not running',
        });
      }
      const streams = this.database.prepare('SELECT id FROM streams').all() as { id: number }[];
      for (const { id } of streams) {
        this.unrecorded.set(
          id,
          this.writer.writeMark({
            kind: 'gap',
            reason: 'not-recording',
            stream: id,
            start: now,
            end: undefined,
            detail: 'not recorded in this session',
          }),
        );
      }
      this.writer.touch(now);
    });
  }

  /** Writes one batch in one transaction, then the keyframes due; returns the changes written so far. */
  write(entries: readonly CapturedEntry[], now: number): number {
    try {
      this.writer.transaction(() => {
        for (const entry of entries) {
          if (isCapturedChange(entry)) this.writeChange(entry);
          else if ('record' in entry) writeCrashLog(this.database, entry);
          else this.writeMark(entry);
        }
        for (const stream of this.streams.values()) {
          if (this.keyframeDue(stream, now)) this.keyframe(stream, now);
        }
        this.writer.writeRowFramesDue(now);
        this.writer.touch(now);
      });
    } catch (error) {
      this.reportError(
        `recording ${this.settings.file}: writing ${entries.length} entries failed`,
        messageOf(error),
      );
      this.batchLost(entries, now, error);
    }
    const retention = this.settings.retention;
    if (retention && now - this.lastRetention >= (this.settings.retentionCheckIntervalMs ?? 60_000)) {
      this.lastRetention = now;
      this.enforceRetention(retention, now);
    }
    return this.changesWritten;
  }

  /**
   * Writes one poll's new metric samples. A failure loses that poll only (the next window's poll is
   * recorded); no gap is marked, since gaps speak of changes.
   */
  writeMetricSamples(entry: MetricSamplesEntry, now: number): void {
    try {
      this.metricSamples.write(entry);
      // The recording covers the moments it holds samples of, in a quiet cluster as in a busy one.
      this.writer.touch(now);
    } catch (error) {
      this.reportError(
        `recording ${this.settings.file}: writing ${entry.series.length} ${entry.resource} metric samples failed`,
        messageOf(error),
      );
    }
  }

  enforceRetention(policy: RetentionPolicy, now: number): void {
    try {
      enforceRetention(this.writer, policy, now);
      this.metricSamples.forgetDropped();
    } catch (error) {
      this.reportError(`recording ${this.settings.file}: retention failed`, messageOf(error));
    }
  }

  /** The file's size in bytes, WAL included. */
  bytes(): number {
    if (this.closed) return statSync(this.settings.file).size;
    const pages = this.database.pragma('page_count', { simple: true }) as number;
    const pageSize = this.database.pragma('page_size', { simple: true }) as number;
    let wal = 0;
    try {
      wal = statSync(`${this.settings.file}-wal`).size;
    } catch {
      // No WAL yet.
    }
    return pages * pageSize + wal;
  }

  /** Closes every open gap at `now`, checkpoints the WAL into the file and closes it. */
  close(now: number): void {
    if (this.closed) return;
    this.writer.transaction(() => {
      for (const id of [...this.gaps.values(), ...this.unrecorded.values()]) this.writer.closeMark(id, now);
      this.writer.touch(now);
    });
    this.gaps.clear();
    this.unrecorded.clear();
    this.closed = true;
    this.database.pragma('wal_checkpoint(TRUNCATE)');
    this.database.close();
    this.lock.release();
  }

  private writeChange({ time, stream, code, key, object }: CapturedChange): void {
    const progress = this.requireStream(stream);
    const { type, finalStateUnknown } = decodeDeltaType(code);
    this.writer.writeCapturedChange({ time, stream: progress.id, type, finalStateUnknown, object, key });
    progress.changesSinceKeyframe++;
    this.changesWritten++;
  }

  private writeMark(entry: MarkEntry): void {
    switch (entry.mark) {
      case 'stream': {
        const id = this.writer.stream({ gvr: entry.gvr, scope: entry.scope });
        this.streams.set(entry.stream, { id, changesSinceKeyframe: 0, lastKeyframe: entry.time });
        const unrecorded = this.unrecorded.get(id);
        if (unrecorded !== undefined) this.writer.closeMark(unrecorded, entry.time);
        this.unrecorded.delete(id);
        this.writer.resetStream(id);
        this.writer.writeKeyframe(id, entry.time);
        break;
      }
      case 'gap-open':
        this.gaps.set(
          entry.gap,
          this.writer.writeMark({
            kind: 'gap',
            reason: entry.reason,
            stream: entry.stream === undefined ? undefined : this.requireStream(entry.stream).id,
            start: entry.start,
            end: undefined,
            detail: entry.detail,
          }),
        );
        break;
      case 'gap-close': {
        const id = this.gaps.get(entry.gap);
        if (id === undefined) break;
        this.gaps.delete(entry.gap);
        this.writer.closeMark(id, entry.end);
        break;
      }
      case 'list-start':
        this.writer.beginList(this.requireStream(entry.stream).id);
        break;
      case 'list-applied': {
        const stream = this.requireStream(entry.stream);
        this.changesWritten += this.writer.retireUnlisted(stream.id, entry.time);
        this.writer.writeMark({
          kind: 'relist',
          reason: entry.reason,
          stream: stream.id,
          start: entry.time,
          end: entry.time,
          detail: entry.detail,
        });
        this.keyframe(stream, entry.time);
        break;
      }
    }
  }

  /**
   * True when `stream` changed keyframeEveryChanges times, or changed at all in keyframeIntervalMs,
   * since its last keyframe: a bound on the changes a moment's rebuild replays.
   */
  private keyframeDue(stream: StreamProgress, now: number): boolean {
    return (
      stream.changesSinceKeyframe >= (this.settings.keyframeEveryChanges ?? 20_000) ||
      (stream.changesSinceKeyframe > 0 &&
        now - stream.lastKeyframe >= (this.settings.keyframeIntervalMs ?? 600_000))
    );
  }

  private keyframe(stream: StreamProgress, time: number): void {
    this.writer.writeKeyframe(stream.id, time);
    stream.changesSinceKeyframe = 0;
    stream.lastKeyframe = time;
  }

  /**
   * A rolled-back batch leaves the writer's memory naming rows that do not exist: it forgets them
   * (the next version of each object is stored whole) and the lost span becomes a gap, if the
   * database takes even that.
   */
  private batchLost(entries: readonly CapturedEntry[], now: number, error: unknown): void {
    this.writer.forgetVersions();
    const first = entries.find(isCapturedChange);
    try {
      this.writer.writeMark({
        kind: 'gap',
        reason: 'not-recording',
        stream: undefined,
        start: first?.time ?? now,
        end: now,
        detail: `writing the recording failed: ${messageOf(error)}`,
      });
    } catch {
      // The failure is already reported; the timeline cannot be told more than the disk accepts.
    }
  }

  private requireStream(stream: number): StreamProgress {
    const progress = this.streams.get(stream);
    if (!progress) throw new Error(`stream ${stream} was not opened`);
    return progress;
  }
}
