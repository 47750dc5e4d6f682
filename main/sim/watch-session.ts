// One open WATCH response. Every write goes through here so the slow-watcher bound, the injected
// stalls and the corrupted lines apply to all watch kinds alike. The WatchHub tracks open sessions so
// faults can reach them.
import type { ServerResponse } from 'node:http';
import type { SimClock, SimTimer } from './clock';
import { ChunkedWriter, cutResponse } from './http-io';

export type CorruptionMode = 'malformed' | 'truncated';

export class WatchSession {
  /** Live lines held while stalled or while initial events are written; bounded like the socket's buffer. */
  private heldLines: string[] | undefined;
  private heldBytes = 0;
  private stallTimer?: SimTimer;
  private writingInitialEvents = false;
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

  /** Sends one newline-terminated event line (or holds it while stalled or writing initial events). */
  send(line: string): void {
    if (this.closed) return;
    if (this.heldLines) {
      this.heldLines.push(line);
      this.heldBytes += line.length;
      if (this.heldBytes > this.maximumBufferedBytes) this.drop();
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

  /**
   * Writes `lines` (the initial state, the events since the requested resourceVersion) at the pace the
   * client reads them, as the cacher sends a watcher's initial events, while the live events sent
   * meanwhile are held, bounded by maximumBufferedBytes like a slow watcher's (the cacher's input
   * channel), and follow in order. Written at once instead, a backlog over the bound would be cut
   * before its first byte left (a response's writes in one tick are corked), so a client that fell
   * behind would re-watch from the same resourceVersion until the window compacted.
   */
  async writeInitialEvents(lines: Iterable<string>): Promise<void> {
    this.writingInitialEvents = true;
    this.heldLines ??= [];
    const writer = new ChunkedWriter(this.response);
    try {
      for (const line of lines) {
        if (this.closed) return;
        const pending = writer.push(line);
        if (pending) await pending;
      }
      if (!this.closed) await writer.flush();
    } catch {
      // The client went away; the response's 'close' finishes the session.
      return;
    } finally {
      this.writingInitialEvents = false;
    }
    this.releaseHeld();
  }

  /** Sends no bytes for `milliseconds`; events meanwhile are held and then sent in order. */
  stall(milliseconds: number): void {
    this.stallTimer?.stop();
    this.heldLines ??= [];
    this.stallTimer = this.clock.setTimeout(() => {
      this.stallTimer = undefined;
      this.releaseHeld();
    }, milliseconds);
  }

  /** The next event is preceded by a malformed line, or cut in half and the connection closed. */
  corruptNext(mode: CorruptionMode): void {
    this.corruption = mode;
  }

  /** Sends the held lines in order, once neither a stall nor initial events hold them. */
  private releaseHeld(): void {
    if (this.stallTimer || this.writingInitialEvents) return;
    const held = this.heldLines ?? [];
    this.heldLines = undefined;
    this.heldBytes = 0;
    for (const line of held) this.send(line);
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
