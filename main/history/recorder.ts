// Records every delta that reaches the indexers of the informers it is attached to. The informer's
// thread only appends to an in-memory buffer; a flush on the injected clock (every second by default)
// writes the buffer in one transaction, so recording never waits on the disk and a kill -9 loses at
// most the last flush interval.
import { statSync } from 'node:fs';
import type { Clock, Timer } from '../cache/clock';
import type { Deltas } from '../cache/delta';
import { defaultWatchErrorHandler } from '../cache/reflector';
import type { WatchErrorHandler } from '../cache/reflector';
import type { SharedIndexInformer } from '../cache/shared-informer';
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import type { ChangeToWrite } from './recording-writer';
import { RecordingWriter } from './recording-writer';
import { messageOf } from './recording-error';
import type { RetentionPolicy } from './retention';
import { enforceRetention } from './retention';
import type { SqliteDatabase } from './schema';
import { openForWriting, readMeta } from './schema';
import { StreamTap } from './stream-tap';

export interface RecorderOptions {
  /** The recording file (see recordingFile() for the default place). */
  file: string;
  /** The kubeconfig context recorded; a file holds one context. */
  context: string;
  clock: Clock;
  /** At most this long between flushes, in ms (default 1,000). */
  flushIntervalMs?: number;
  /** A keyframe per stream at least this often while it changes, in ms (default 10 minutes). */
  keyframeIntervalMs?: number;
  /** ... or after this many changes of one stream (default 20,000). */
  keyframeEveryChanges?: number;
  /** A full version every this many changes of one object (default 12; 0: every version whole). */
  fullVersionEvery?: number;
  retention?: RetentionPolicy;
  /** How often retention runs, in ms (default 60 s). */
  retentionCheckIntervalMs?: number;
  /** Told when a flush or retention fails (default console.error); recording goes on. */
  reportError?: (error: unknown, context: string) => void;
}

/** What attach returns: detach() stops recording the informer (its buffered changes are kept). */
export interface RecorderAttachment {
  readonly stream: number;
  detach(): void;
}

export interface RecorderStats {
  /** Changes written to the file so far in this session. */
  readonly changesWritten: number;
  /** Changes captured and not yet written. */
  readonly buffered: number;
  /** The file's size in bytes, WAL included. */
  readonly bytes: number;
}

export type BufferedWrite = ChangeToWrite | { readonly mark: (writer: RecordingWriter) => void };

export class Recorder {
  readonly file: string;
  readonly clock: Clock;
  private readonly database: SqliteDatabase;
  private readonly writer: RecordingWriter;
  private buffer: BufferedWrite[] = [];
  private readonly taps = new Set<StreamTap>();
  private readonly attachments = new Set<RecorderAttachment>();
  private timer: Timer | undefined;
  private lastStamp = 0;
  private lastRetention: number;
  private changesWritten = 0;
  private closed = false;
  private readonly flushIntervalMs: number;
  private readonly reportError: (error: unknown, context: string) => void;

  /**
   * Opens (or creates) the recording and records the time since it was last written as a
   * "not-recording" gap, closing any gap a crash left open at that same time.
   */
  constructor(private readonly options: RecorderOptions) {
    this.file = options.file;
    this.clock = options.clock;
    this.flushIntervalMs = options.flushIntervalMs ?? 1000;
    this.reportError = options.reportError ?? ((error, context) => console.error(`${context}:`, error));
    this.database = openForWriting(options.file, options.context, options.clock.now());
    this.writer = new RecordingWriter(this.database, { fullVersionEvery: options.fullVersionEvery });
    const lastWritten = readMeta(this.database, 'lastWritten');
    // Times keep increasing across sessions even if the wall clock was set back meanwhile.
    this.lastStamp = Number(lastWritten ?? 0);
    const now = this.stamp();
    this.lastRetention = now;
    this.writer.transaction(() => {
      if (lastWritten !== undefined) {
        const since = Math.min(Number(lastWritten), now);
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
      this.writer.touch(now);
    });
    this.schedule();
  }

  /**
   * Records `informer`, the one informer of `gvr` in `namespace` ("" for all). Attach before the
   * informer runs to record its initial list and its watch failures as gaps; attached later, the
   * cache's current content is recorded as a relist (reason "attached"), and failures show only
   * as the relists that follow them. Attaching before run sets the informer's watch error handler:
   * pass the one it should have otherwise (default: defaultWatchErrorHandler, which logs) as
   * `watchErrorHandler`, and it is called first.
   *
   * The recorder wraps the informer's handleDeltas (its controller's process function): only there do
   * deltas carry their type (Added, Updated, Deleted, Replaced, Sync) and reach the indexer
   * synchronously, so each recorded time is when the cache changed, and a keyframe can be taken as
   * the recorder's own view without racing handler buffers.
   */
  attach(
    informer: SharedIndexInformer<KubeObject>,
    gvr: GroupVersionResource,
    namespace = '',
    watchErrorHandler: WatchErrorHandler = defaultWatchErrorHandler,
  ): RecorderAttachment {
    if (this.closed) throw new Error(`recorder for ${this.file} is closed`);
    const stream = this.writer.stream({ gvr: gvrKey(gvr), scope: namespace });
    const time = this.stamp();
    this.buffer.push({
      mark: (writer) => {
        writer.resetStream(stream);
        writer.writeKeyframe(stream, time);
      },
    });
    const tap = new StreamTap({
      stream,
      description: `${gvrKey(gvr)}${namespace ? ` in ${namespace}` : ''}`,
      stamp: () => this.stamp(),
      append: (write) => this.buffer.push(write),
      keyframeIntervalMs: this.options.keyframeIntervalMs ?? 600_000,
      keyframeEveryChanges: this.options.keyframeEveryChanges ?? 20_000,
    });
    this.taps.add(tap);
    if (!informer.hasStarted()) {
      informer.setWatchErrorHandler((reflector, error) => {
        watchErrorHandler(reflector, error);
        tap.watchFailed(messageOf(error));
      });
    } else {
      tap.capture(
        informer
          .getIndexer()
          .list()
          .map((object) => ({ type: 'Replaced' as const, object })),
        'attached',
      );
    }
    const handleDeltas = informer.handleDeltas;
    informer.handleDeltas = (deltas: Deltas<KubeObject>, isInInitialList: boolean) => {
      handleDeltas.call(informer, deltas, isInInitialList);
      tap.capture(deltas, isInInitialList ? 'initial-list' : 'relist');
    };
    const attachment = {
      stream,
      detach: () => {
        if (!this.attachments.delete(attachment)) return;
        this.taps.delete(tap);
        informer.handleDeltas = handleDeltas;
      },
    };
    this.attachments.add(attachment);
    return attachment;
  }

  /** Writes everything buffered in one transaction, then any keyframes due and retention if due. */
  flush(): void {
    const writes = this.buffer;
    this.buffer = [];
    const now = this.stamp();
    try {
      this.writer.transaction(() => {
        for (const write of writes) {
          if ('mark' in write) write.mark(this.writer);
          else {
            this.writer.writeChange(write);
            this.changesWritten++;
          }
        }
        for (const tap of this.taps) {
          if (tap.keyframeDue(now)) this.writer.writeKeyframe(tap.stream, now);
        }
        this.writer.touch(now);
      });
    } catch (error) {
      this.reportError(error, `recording ${this.file}: writing ${writes.length} changes failed`);
      this.batchLost(writes, now, error);
    } finally {
      this.writer.releaseBatchMemory();
    }
    const retention = this.options.retention;
    const checkInterval = this.options.retentionCheckIntervalMs ?? 60_000;
    if (retention && now - this.lastRetention >= checkInterval) {
      this.lastRetention = now;
      this.enforceRetention(retention, now);
    }
  }

  /**
   * A rolled-back batch leaves the writer's memory naming rows that do not exist: it forgets them
   * (the next version of each object is stored whole) and the lost span becomes a gap, if the
   * database takes even that.
   */
  private batchLost(writes: BufferedWrite[], now: number, error: unknown): void {
    this.writer.forgetVersions();
    const first = writes.find((write): write is ChangeToWrite => !('mark' in write));
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

  /** Applies `policy` now (it also runs on its own every retentionCheckIntervalMs). */
  enforceRetention(policy: RetentionPolicy, now = this.stamp()): void {
    try {
      enforceRetention(this.writer, policy, now);
    } catch (error) {
      this.reportError(error, `recording ${this.file}: retention failed`);
    }
  }

  stats(): RecorderStats {
    return {
      changesWritten: this.changesWritten,
      buffered: this.buffer.filter((write) => !('mark' in write)).length,
      bytes: this.closed ? statSync(this.file).size : fileBytes(this.database),
    };
  }

  /**
   * Flushes, detaches every informer (they keep running, unrecorded), checkpoints the WAL into the
   * file and closes it.
   */
  close(): void {
    if (this.closed) return;
    this.timer?.stop();
    for (const tap of this.taps) tap.closing(this.stamp());
    this.flush();
    this.closed = true;
    for (const attachment of [...this.attachments]) attachment.detach();
    this.database.pragma('wal_checkpoint(TRUNCATE)');
    this.database.close();
  }

  private schedule(): void {
    this.timer = this.clock.setTimeout(() => {
      if (this.closed) return;
      this.flush();
      this.schedule();
    }, this.flushIntervalMs);
  }

  /** Wall time that never goes backwards within the recording, so order by time is order of change. */
  private stamp(): number {
    this.lastStamp = Math.max(this.clock.now(), this.lastStamp);
    return this.lastStamp;
  }
}

/** Bytes in the main file and its WAL. */
export function fileBytes(database: SqliteDatabase): number {
  const pages = database.pragma('page_count', { simple: true }) as number;
  const pageSize = database.pragma('page_size', { simple: true }) as number;
  return pages * pageSize + walBytes(database);
}

function walBytes(database: SqliteDatabase): number {
  try {
    return statSync(`${database.name}-wal`).size;
  } catch {
    return 0;
  }
}
