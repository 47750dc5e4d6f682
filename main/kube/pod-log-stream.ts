// One container's log as a stream of lines: GET .../pods/{name}/log, following when asked, and
// resuming a dropped follow where it broke, as `kubectl logs -f` does not. Every request carries
// timestamps=true (the prefix is stripped from the text and kept as the line's time), so a resumed
// request can ask for sinceTime=<the last line's second> and drop what it already delivered:
// - lines before the last delivered line's time are skipped;
// - within that exact time, as many lines as were delivered there are skipped (the boundary), and the
//   first of them must be the last delivered line's text: if the server no longer has it, its log
//   rotated (or the container restarted) past the break, lines may be missing, and a note says so.
// Reconnection waits on the Reflector's backoff (jittered 0.8 s doubling to 30 s) on the given clock;
// a clean end of a followed reply is the kubelet saying the run exited, and ends the stream.
import type { Readable } from 'node:stream';
import type { Backoff } from '../cache/backoff';
import { defaultReflectorBackoff, stepBackoff } from '../cache/backoff';
import type { Clock, Timer } from '../cache/clock';
import type { QueryValue } from './rest-client';
import { LineSplitter } from './watch-stream';

export interface PodLogLine {
  /** Epoch milliseconds, for ordering. */
  time: number;
  /** The kubelet's RFC 3339 timestamp as sent (nanosecond precision). */
  timestamp: string;
  text: string;
}

export type PodLogNote =
  | { type: 'reconnecting'; message: string; retryInMs: number }
  | { type: 'resumed'; since: string }
  | { type: 'rotated'; since: string; message: string }
  | { type: 'ended' }
  | { type: 'failed'; message: string; code?: number };

export interface PodLogQuery {
  container: string;
  follow: boolean;
  previous: boolean;
  tailLines?: number;
  sinceSeconds?: number;
  limitBytes?: number;
}

/** Sends GET .../log with the query and resolves with the 2xx body (RestClient.stream does). */
export type PodLogOpener = (query: Record<string, QueryValue>, signal: AbortSignal) => Promise<Readable>;

export interface PodLogStreamOptions {
  open: PodLogOpener;
  query: PodLogQuery;
  clock: Clock;
  onLines(lines: PodLogLine[]): void;
  onNote(note: PodLogNote): void;
  backoff?: Backoff;
  random?: () => number;
}

/** Codes no retry cures: the pod or container is gone, or the request is wrong or forbidden. */
const permanentCodes = new Set([400, 401, 403, 404, 422]);

/** "2026-01-01T12:00:03.250000000Z" -> "2026-01-01T12:00:03Z": sinceTime has second precision. */
export function secondOf(timestamp: string): string {
  return `${timestamp.slice(0, 19)}Z`;
}

export class PodLogStream {
  private readonly controller = new AbortController();
  private backoff: Backoff;
  private timer: Timer | undefined;
  private body: Readable | undefined;
  /** The time and text of the last delivered line, and how many were delivered at that time. */
  private last: { timestamp: string; text: string; count: number } | undefined;
  /** While resuming: delivered lines at the boundary time still to skip, and whether the boundary was found. */
  private resume: { skip: number; found: boolean } | undefined;
  private received = 0;
  private stopped = false;
  /** Waiting out the backoff before the next request. */
  private waiting = false;
  /** Ended by the API server refusing the credentials (401): new ones may be accepted. */
  private refused = false;

  constructor(private readonly options: PodLogStreamOptions) {
    this.backoff = { ...(options.backoff ?? defaultReflectorBackoff) };
  }

  start(): void {
    void this.connect();
  }

  /**
   * Reconnects now, when the stream waits out its backoff or was refused as unauthorized (401): the
   * session's connection took new credentials (credential-renewal.ts). Returns whether it reconnects.
   */
  retryNow(): boolean {
    if (!this.waiting && !this.refused) return false;
    this.timer?.stop();
    this.waiting = false;
    this.refused = false;
    this.stopped = false;
    this.backoff = { ...(this.options.backoff ?? defaultReflectorBackoff) };
    this.options.onNote({ type: 'reconnecting', message: 'new credentials', retryInMs: 0 });
    void this.connect();
    return true;
  }

  stop(): void {
    this.stopped = true;
    this.waiting = false;
    this.refused = false;
    this.timer?.stop();
    this.controller.abort(new Error('log stream stopped'));
    this.body?.destroy();
  }

  private request(): Record<string, QueryValue> {
    const { query } = this.options;
    const base = { container: query.container, timestamps: true, follow: query.follow || undefined };
    const limitBytes =
      query.limitBytes === undefined ? undefined : Math.max(1, query.limitBytes - this.received);
    if (!this.last)
      return {
        ...base,
        previous: query.previous || undefined,
        tailLines: query.tailLines,
        sinceSeconds: query.sinceSeconds,
        limitBytes,
      };
    return {
      ...base,
      previous: query.previous || undefined,
      sinceTime: secondOf(this.last.timestamp),
      limitBytes,
    };
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    this.waiting = false;
    let body: Readable;
    try {
      body = await this.options.open(this.request(), this.controller.signal);
    } catch (error) {
      return this.failed(error);
    }
    if (this.stopped) {
      body.destroy();
      return;
    }
    this.body = body;
    if (this.last) {
      this.resume = { skip: this.last.count, found: false };
      this.options.onNote({ type: 'resumed', since: this.last.timestamp });
    }
    const splitter = new LineSplitter();
    let healthy = false;
    body.on('data', (chunk: Buffer) => {
      if (this.stopped) return;
      this.received += chunk.length;
      const lines = this.accept(splitter.push(chunk));
      if (lines.length > 0) {
        // Data after a reconnect: the next failure starts the backoff over.
        if (!healthy) this.backoff = { ...(this.options.backoff ?? defaultReflectorBackoff) };
        healthy = true;
        this.options.onLines(lines);
      }
    });
    body.once('end', () => {
      if (this.stopped) return;
      // limitBytes may cut the last line: deliver what came.
      const rest = this.accept([splitter.rest()].filter(Boolean));
      if (rest.length > 0) this.options.onLines(rest);
      this.stopped = true;
      this.options.onNote({ type: 'ended' });
    });
    // 'error' is followed by 'close': the first of them decides, once.
    let broken = false;
    const broke = (error: unknown) => {
      if (broken || body.readableEnded) return;
      broken = true;
      this.failed(error);
    };
    body.once('error', broke);
    body.once('close', () => broke(new Error('the connection closed mid-stream')));
  }

  /** Parses "TIMESTAMP TEXT" lines and drops those a resumed request repeats. */
  private accept(raw: string[]): PodLogLine[] {
    const lines: PodLogLine[] = [];
    for (const text of raw) {
      const space = text.indexOf(' ');
      const timestamp = space === -1 ? text : text.slice(0, space);
      const line: PodLogLine = {
        timestamp,
        time: Date.parse(timestamp),
        text: space === -1 ? '' : text.slice(space + 1),
      };
      if (Number.isNaN(line.time)) {
        // Not a timestamped line (a truncated tail): keep it, timed as the last line.
        lines.push({
          timestamp: this.last?.timestamp ?? '',
          time: this.last ? Date.parse(this.last.timestamp) : 0,
          text,
        });
        continue;
      }
      if (this.resume && this.last && !this.keepResumed(line)) continue;
      if (this.last?.timestamp === line.timestamp) {
        this.last.count++;
        this.last.text = line.text;
      } else this.last = { timestamp: line.timestamp, text: line.text, count: 1 };
      lines.push(line);
    }
    return lines;
  }

  private keepResumed(line: PodLogLine): boolean {
    const resume = this.resume!;
    const last = this.last!;
    if (line.timestamp < last.timestamp) return false;
    if (line.timestamp === last.timestamp && resume.skip > 0) {
      resume.skip--;
      // The last line delivered at the boundary time is the one to find again.
      if (resume.skip === 0 && line.text === last.text) resume.found = true;
      return false;
    }
    if (!resume.found)
      this.options.onNote({
        type: 'rotated',
        since: last.timestamp,
        message: `the server's log no longer holds the line read at ${last.timestamp} (rotated, or the container restarted): lines written while disconnected may be missing`,
      });
    this.resume = undefined;
    return true;
  }

  private failed(error: unknown): void {
    if (this.stopped) return;
    this.body?.destroy();
    this.body = undefined;
    const code = statusCodeOf(error);
    const message = error instanceof Error ? error.message : String(error);
    if ((code !== undefined && permanentCodes.has(code)) || !this.options.query.follow) {
      this.stopped = true;
      this.refused = code === 401;
      this.options.onNote({ type: 'failed', message, ...(code !== undefined ? { code } : {}) });
      return;
    }
    const retryInMs = stepBackoff(this.backoff, this.options.random);
    this.waiting = true;
    this.options.onNote({ type: 'reconnecting', message, retryInMs });
    this.timer = this.options.clock.setTimeout(() => void this.connect(), retryInMs);
  }
}

function statusCodeOf(error: unknown): number | undefined {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const code = (current as { status?: { code?: unknown } }).status?.code;
    if (typeof code === 'number') return code;
  }
  return undefined;
}
