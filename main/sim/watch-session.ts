// One open WATCH response. Every write goes through here so the slow-watcher bound, the injected
// stalls and the corrupted lines apply to all watch kinds alike. The WatchHub tracks open sessions so
// faults can reach them.
import type { ServerResponse } from 'node:http';
import type { SimClock, SimTimer } from './clock';
import { cutResponse } from './http-io';

export type CorruptionMode = 'malformed' | 'truncated';

export class WatchSession {
  private stalledLines: string[] | undefined;
  private stalledBytes = 0;
  private stallTimer?: SimTimer;
  private corruption?: CorruptionMode;
  private readonly closeHandlers: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly response: ServerResponse,
    private readonly clock: SimClock,
    /** Bytes a watcher may fall behind before its connection is dropped. */
    private readonly maximumBufferedBytes: number,
  ) {
    response.on('close', () => this.finish());
  }

  get isClosed(): boolean {
    return this.closed;
  }

  onClose(handler: () => void): void {
    if (this.closed) handler();
    else this.closeHandlers.push(handler);
  }

  /** Sends one newline-terminated event line (or holds it while stalled). */
  send(line: string): void {
    if (this.closed) return;
    if (this.stalledLines) {
      this.stalledLines.push(line);
      this.stalledBytes += line.length;
      if (this.stalledBytes > this.maximumBufferedBytes) this.drop();
      return;
    }
    if (this.corruption) {
      const mode = this.corruption;
      this.corruption = undefined;
      if (mode === 'truncated') {
        // The half line must reach the client before the connection is cut.
        this.response.write(line.slice(0, Math.max(1, Math.floor(line.length / 2))), () =>
          cutResponse(this.response),
        );
        this.finish();
        return;
      }
      this.response.write('{"type":"MODIFIED","object":{"kind":\n');
    }
    this.response.write(line);
    if (this.response.writableLength > this.maximumBufferedBytes) this.drop();
  }

  /** Ends the stream cleanly (timeoutSeconds elapsed): the client sees a normal end of body. */
  end(): void {
    if (this.closed) return;
    this.response.end();
    this.finish();
  }

  /** Cuts the connection without a proper end, as a dying apiserver or proxy would. */
  drop(): void {
    if (this.closed) return;
    cutResponse(this.response);
    this.finish();
  }

  /** Sends no bytes for `milliseconds`; events meanwhile are held and then sent in order. */
  stall(milliseconds: number): void {
    this.stallTimer?.stop();
    this.stalledLines ??= [];
    this.stallTimer = this.clock.setTimeout(() => {
      const held = this.stalledLines ?? [];
      this.stalledLines = undefined;
      this.stalledBytes = 0;
      for (const line of held) this.send(line);
    }, milliseconds);
  }

  /** The next event is preceded by a malformed line, or cut in half and the connection closed. */
  corruptNext(mode: CorruptionMode): void {
    this.corruption = mode;
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.stallTimer?.stop();
    for (const handler of this.closeHandlers.splice(0)) handler();
  }
}

export class WatchHub {
  private readonly sessions = new Set<WatchSession>();

  add(session: WatchSession): void {
    this.sessions.add(session);
    session.onClose(() => this.sessions.delete(session));
  }

  get size(): number {
    return this.sessions.size;
  }

  all(): WatchSession[] {
    return [...this.sessions];
  }
}
