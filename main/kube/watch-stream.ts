// The body of a WATCH response: newline-delimited JSON watch events, split into lines as bytes arrive
// and decoded as the consumer takes them. This is where client-node went wrong most often (parse
// errors swallowed, no inactivity timeout, events after stop), so the contract is strict:
// - lines are split on the newline byte and decoded whole, so a chunk boundary anywhere (even inside a
//   multi-byte UTF-8 character) changes nothing;
// - a line that is not a watch event ends the stream with a WatchDecodeError naming the request;
// - an ERROR event ends the stream with the StatusError it carries (after the events before it);
// - no byte for `inactivityTimeoutMs` (the server's bookmarks keep a healthy quiet watch alive) ends the
//   stream with a WatchInactivityError, so a silently dead connection is noticed; 0 turns it off, as
//   for watches over HTTP/2, whose connection's PINGs find a dead one sooner without racing bookmarks;
// - stop() destroys the response (and so the request) at once; afterwards nothing is delivered.
import type { Readable } from 'node:stream';
import type { Clock, Timer } from '../cache/clock';
import type { Watcher } from '../cache/lister-watcher';
import type { KubeObject, WatchEvent, WatchEventType } from '../../shared/kube/object';
import { StatusError, isStatus, newStatus } from '../../shared/kube/status';
import type { Status } from '../../shared/kube/status';
import { WatchDecodeError, WatchInactivityError } from './errors';
import { textWithoutManagedFields } from './managed-fields-cut';
import { objectTextsKept, rememberObjectText } from '../cache/object-text';
import { eventObjectText } from './event-object-text';

/**
 * A watch over HTTP/1.1 with no byte for this long is presumed dead (over HTTP/2, client-go and we rely
 * on the connection's PINGs instead). kube-apiserver's cacher sends a quiet watch a BOOKMARK about once
 * a minute (cacher.go: bookmarkFrequency = time.Minute, dispatched by a 1 s ticker, so 60-62 s apart),
 * so a healthy watch is never silent much past 60 s. 150 s fails a watch only after two consecutive
 * bookmarks went missing, with half a period to spare for a loaded server: a limit at the cadence
 * itself (the old 60 s) raced every bookmark and relisted quiet kinds every minute or two.
 */
export const defaultWatchInactivityTimeoutMs = 150_000;

const newline = 0x0a;
const eventTypes: ReadonlySet<string> = new Set<WatchEventType>([
  'ADDED',
  'MODIFIED',
  'DELETED',
  'BOOKMARK',
  'ERROR',
]);
interface QueueBound {
  bytes: number;
  lines: number;
}

/**
 * What a consumer that fell behind may have queued before the response is paused: its lines' bytes,
 * and their count (an object each). A watch of 2,000 changes/s is 4-5 MB/s of pods, and the ui bench's
 * churn (pods, events, replicasets) 10 MB/s. client-go's reflector never stops reading: it decodes
 * into a DeltaFIFO of no bound, and kube-apiserver's cacher keeps only a small buffer per watcher (its
 * input channel, then the response's socket) and terminates a watcher that leaves a dispatch waiting
 * past its time budget (100 ms at most). So a backlog belongs here, in the client, not in the server's
 * buffer: paused at 16 MiB, a backend starved of a core for 8 s (a loaded 2-core machine, a major
 * collection of a 150,000-pod heap) had the simulator's 64 MiB per watcher behind it too, and the
 * pods, events and replicasets watches were cut, to relist 150,000 pods. The lines wait as slices of
 * the chunks they came in, off the JavaScript heap; reading resumes once half of it is taken.
 */
const highWaterBound: QueueBound = { bytes: 128 * 1024 * 1024, lines: 131_072 };
/**
 * Where reading pauses first, while the consumer keeps up: a consumer that is taking lines drains half
 * of it in a few tens of milliseconds, and the server's side waits that long, in the socket's buffers.
 * Why not read on to the high-water bound: a deep queue costs the consumer's thread what its bytes cost
 * the memory system. Chunks that wait past two scavenges are promoted, freed only by mark-compacts, and
 * reads fill freshly faulted pages. The watch bench's flood (the queue always full) cost 43 us of CPU
 * an event through the high-water bound, 11-12 mark-compacts per 100,000 events and 8.4-8.9 us of
 * system time an event; through this bound 30 us, 5 mark-compacts, 3.1-3.3 us.
 */
const softBound: QueueBound = { bytes: 4 * 1024 * 1024, lines: 16_384 };
/**
 * A pause at the soft bound that the consumer has not ended by draining half of it within this long
 * lifts the soft bound (to the high-water bound above) until the consumer has caught up: the consumer
 * has fallen behind, and a longer pause would leave the backlog to the server, whose budget for a
 * watcher that does not read is 100 ms.
 */
export const softPauseLimitMs = 50;
const snippetLength = 120;

/**
 * Splits a byte stream into lines. A line's bytes are decoded only once complete, so UTF-8 sequences
 * split across chunks decode correctly (the newline byte never occurs inside a multi-byte sequence).
 */
export class LineSplitter {
  private pending: Buffer[] = [];

  /** Returns the lines completed by `chunk`, without their newline. */
  push(chunk: Buffer): string[] {
    return this.pushBytes(chunk).map((line) => line.toString('utf8'));
  }

  /**
   * The lines completed by `chunk` as bytes, without their newline: views of `chunk` where a line lies
   * within it, a copy where it began in an earlier chunk.
   */
  pushBytes(chunk: Buffer): Buffer[] {
    const lines: Buffer[] = [];
    let start = 0;
    for (let index = chunk.indexOf(newline); index !== -1; index = chunk.indexOf(newline, start)) {
      if (this.pending.length === 0) {
        lines.push(chunk.subarray(start, index));
      } else {
        this.pending.push(chunk.subarray(start, index));
        lines.push(Buffer.concat(this.pending));
        this.pending = [];
      }
      start = index + 1;
    }
    if (start < chunk.length) this.pending.push(chunk.subarray(start));
    return lines;
  }

  /** The bytes after the last newline, if any: at end of stream, a truncated event. */
  rest(): string {
    const rest = this.pending.length === 0 ? '' : Buffer.concat(this.pending).toString('utf8');
    this.pending = [];
    return rest;
  }
}

export interface WatchStreamOptions {
  /** What the watch is, for errors: "watching pods in namespace payments". */
  request: string;
  clock: Clock;
  /** Default defaultWatchInactivityTimeoutMs; 0: no limit. */
  inactivityTimeoutMs?: number;
  /** Builds the error thrown for an ERROR event (default: a plain StatusError). */
  statusError?: (status: Status) => Error;
  /** Aborting it is the same as stop(). */
  signal?: AbortSignal;
  /** The consumer drops metadata.managedFields: they are cut from each event before it is parsed. */
  omitManagedFields?: boolean;
  /**
   * Each event's object is the object as served (not a projection such as PartialObjectMetadata), so
   * the text it is parsed from may stand for it (object-text.ts) while texts are kept.
   */
  keepObjectTexts?: boolean;
}

/** Where an event's metadata is (managed-fields-cut.ts). */
const eventMetadataPath = ['object', 'metadata'];

interface Waiter<T extends KubeObject> {
  resolve(result: IteratorResult<WatchEvent<T>>): void;
  reject(error: unknown): void;
}

/**
 * A Watcher over a WATCH response body (any Readable of bytes). Arriving bytes are only split into
 * lines; a line is decoded and parsed when the consumer takes it. So the socket's read callbacks stay
 * cheap, a consumer that works in bounded turns bounds the event-loop stall, and what waits is the
 * bytes received rather than a parsed object.
 */
export class WatchStream<T extends KubeObject = KubeObject> implements Watcher<T> {
  private readonly splitter = new LineSplitter();
  private readonly inactivityTimeoutMs: number;
  /** Complete lines not yet decoded, from `head` on; `queuedBytes` is their length in all. */
  private lines: (Buffer | undefined)[] = [];
  private head = 0;
  private queuedBytes = 0;
  private waiter: Waiter<T> | undefined;
  /** Delivered once the lines before it are: a source failure, or the line that failed to decode. */
  private failure: Error | undefined;
  /** No more bytes will be read (ended, failed or stopped); queued lines may still be waiting. */
  private finished = false;
  private stopped = false;
  private paused = false;
  /** The soft bound is lifted: the consumer fell behind, and only the high-water bounds pause reading. */
  private behind = false;
  private softPauseTimer: Timer | undefined;
  private lastActivity: number;
  private timer: Timer | undefined;
  private readonly onAbort = () => this.stop();

  constructor(
    private readonly source: Readable,
    private readonly options: WatchStreamOptions,
  ) {
    this.inactivityTimeoutMs = options.inactivityTimeoutMs ?? defaultWatchInactivityTimeoutMs;
    this.lastActivity = options.clock.now();
    source.on('data', (chunk: Buffer | string) => this.onData(chunk));
    source.on('end', () => this.onEnd());
    source.on('error', (error: Error) => this.fail(error));
    source.on('close', () => {
      if (!this.finished)
        this.fail(new Error(`${options.request}: connection closed before the stream ended`));
    });
    if (this.inactivityTimeoutMs > 0) this.armTimer(this.inactivityTimeoutMs);
    if (options.signal?.aborted) this.stop();
    else options.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>> {
    return {
      next: () => this.next(),
      return: async () => {
        this.stop();
        return { done: true, value: undefined };
      },
    };
  }

  /** Ends the request now. Idempotent; afterwards the iterator only reports done. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.clearQueue();
    this.failure = undefined;
    this.close();
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.resolve({ done: true, value: undefined });
  }

  /**
   * The next queued event, decoded now, without a promise; undefined when no complete line is queued
   * (then next() tells whether more will come, and delivers a queued failure). Nothing after stop().
   */
  takeBuffered(): WatchEvent<T> | undefined {
    if (this.stopped) return undefined;
    return this.decodeQueued();
  }

  next(): Promise<IteratorResult<WatchEvent<T>>> {
    if (this.stopped) return Promise.resolve({ done: true, value: undefined });
    const event = this.decodeQueued();
    if (event) return Promise.resolve({ done: false, value: event });
    if (this.failure) {
      const failure = this.failure;
      this.failure = undefined;
      return Promise.reject(failure);
    }
    if (this.finished) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  /** Decodes queued lines up to the first event; a line that is not one ends the stream with its error. */
  private decodeQueued(): WatchEvent<T> | undefined {
    while (this.head < this.lines.length) {
      const event = this.decodeLine(this.shiftLine());
      if (event) return event;
    }
    return undefined;
  }

  private shiftLine(): string {
    const line = this.lines[this.head] as Buffer;
    this.lines[this.head++] = undefined;
    this.queuedBytes -= line.length;
    if (this.head === this.lines.length) this.clearQueue();
    // Reading resumes once half the bound that paused it is taken; below half the soft bound, the
    // consumer has caught up and the soft bound applies again.
    if (this.paused && this.queuedUnder(this.bound(), 2)) this.resume();
    if (this.behind && this.queuedUnder(softBound, 2)) this.behind = false;
    return this.options.omitManagedFields
      ? textWithoutManagedFields(line, 0, line.length, eventMetadataPath)
      : line.toString('utf8');
  }

  private clearQueue(): void {
    this.lines = [];
    this.head = 0;
    this.queuedBytes = 0;
  }

  private onData(chunk: Buffer | string): void {
    if (this.finished || this.stopped) return;
    this.lastActivity = this.options.clock.now();
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (const line of this.splitter.pushBytes(bytes)) {
      this.lines.push(line);
      this.queuedBytes += line.length;
    }
    if (this.waiter) this.settleWaiter();
    if (!this.paused && !this.finished && !this.queuedUnder(this.bound(), 1)) this.pause();
  }

  private bound(): QueueBound {
    return this.behind ? highWaterBound : softBound;
  }

  /** Fewer lines and fewer bytes are queued than `bound` divided by `divisor`. */
  private queuedUnder(bound: QueueBound, divisor: number): boolean {
    return this.lines.length - this.head < bound.lines / divisor && this.queuedBytes < bound.bytes / divisor;
  }

  /**
   * Reading stops; a pause at the soft bound lasts softPauseLimitMs at most. Its timer fires only
   * while the pause lasts: resume() and close() (every end of the stream) stop it.
   */
  private pause(): void {
    this.paused = true;
    this.source.pause();
    if (this.behind) return;
    this.softPauseTimer = this.options.clock.setTimeout(() => {
      this.softPauseTimer = undefined;
      this.behind = true;
      this.resume();
    }, softPauseLimitMs);
  }

  private resume(): void {
    this.softPauseTimer?.stop();
    this.softPauseTimer = undefined;
    this.paused = false;
    this.lastActivity = this.options.clock.now();
    this.source.resume();
  }

  /** Gives a waiting next() the first queued event, or the failure that ends the stream. */
  private settleWaiter(): void {
    const waiter = this.waiter;
    if (!waiter) return;
    const event = this.decodeQueued();
    if (event) {
      this.waiter = undefined;
      waiter.resolve({ done: false, value: event });
    } else if (this.failure) {
      const failure = this.failure;
      this.waiter = undefined;
      this.failure = undefined;
      waiter.reject(failure);
    } else if (this.finished) {
      this.waiter = undefined;
      waiter.resolve({ done: true, value: undefined });
    }
  }

  /** The event on `line`; undefined for a blank line, or when the line ends the stream with an error. */
  private decodeLine(line: string): WatchEvent<T> | undefined {
    if (line.trim() === '') return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      this.failDecoding(new WatchDecodeError(this.options.request, snippet(line), (error as Error).message));
      return undefined;
    }
    const event = parsed as { type?: unknown; object?: unknown };
    if (
      typeof parsed !== 'object' ||
      parsed === null ||
      typeof event.type !== 'string' ||
      !eventTypes.has(event.type) ||
      typeof event.object !== 'object' ||
      event.object === null
    ) {
      this.failDecoding(
        new WatchDecodeError(this.options.request, snippet(line), 'not a {type, object} watch event'),
      );
      return undefined;
    }
    if (event.type === 'ERROR') {
      const status = isStatus(event.object)
        ? event.object
        : newStatus(500, 'InternalError', `ERROR watch event without a Status: ${snippet(line)}`);
      this.failDecoding(this.options.statusError?.(status) ?? new StatusError(status));
      return undefined;
    }
    if (this.options.keepObjectTexts && objectTextsKept()) {
      const text = eventObjectText(line, event.type, event.object);
      if (text !== undefined) rememberObjectText(event.object, text);
    }
    return parsed as WatchEvent<T>;
  }

  /**
   * A line ended the stream: the lines after it are dropped, and its error replaces any failure of the
   * source that came later in time (a truncated last line, a closed connection).
   */
  private failDecoding(error: Error): void {
    this.clearQueue();
    this.failure = error;
    this.finished = true;
    this.close();
  }

  private onEnd(): void {
    if (this.finished || this.stopped) return;
    const rest = this.splitter.rest();
    if (rest.trim() !== '') {
      this.fail(new WatchDecodeError(this.options.request, snippet(rest), 'stream ended inside an event'));
      return;
    }
    this.finished = true;
    this.close();
    this.settleWaiter();
  }

  /** The source failed: the lines already queued are still delivered, then `error`. */
  private fail(error: Error): void {
    if (this.finished || this.stopped) return;
    this.finished = true;
    this.failure = error;
    this.close();
    this.settleWaiter();
  }

  /** Releases the timer, the abort listener and the response; the queue is left to the consumer. */
  private close(): void {
    this.timer?.stop();
    this.timer = undefined;
    this.softPauseTimer?.stop();
    this.softPauseTimer = undefined;
    this.options.signal?.removeEventListener('abort', this.onAbort);
    if (!this.source.destroyed) this.source.destroy();
  }

  /**
   * One timer per watch, re-armed for the remaining time when it fires, rather than one per chunk.
   * Time spent paused for a slow consumer is not inactivity.
   */
  private armTimer(delayMs: number): void {
    this.timer = this.options.clock.setTimeout(() => {
      if (this.finished || this.stopped) return;
      if (this.paused) {
        this.armTimer(this.inactivityTimeoutMs);
        return;
      }
      const idle = this.options.clock.now() - this.lastActivity;
      if (idle >= this.inactivityTimeoutMs) {
        this.fail(new WatchInactivityError(this.options.request, this.inactivityTimeoutMs));
      } else {
        this.armTimer(this.inactivityTimeoutMs - idle);
      }
    }, delayMs);
  }
}

function snippet(text: string): string {
  return text.length > snippetLength ? `${text.slice(0, snippetLength)}…` : text;
}
