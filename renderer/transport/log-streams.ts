// The log streams the renderer's views hold open through the bridge. Main ends a connection's streams
// with it, so each stream is remembered (its target and options) to be opened again under the same id
// once the link is back; meanwhile its view is told the log will reopen, and, when it does, to clear
// what it held (the lines start over from the tail).
import type {
  CloseLogsMessage,
  LogOptions,
  LogServerMessage,
  LogTarget,
  OpenLogsMessage,
} from '../../shared/protocol/log-messages';

/** What the streams need of the bridge's link. */
export interface LogStreamLink {
  /** Sends a request; rejects when main refuses it or the link is down. */
  request(body: Omit<OpenLogsMessage, 'requestId'>): Promise<unknown>;
  /** Sends a message if the link is up (dropped otherwise: main ends the streams with the link). */
  sendIfReady(message: CloseLogsMessage): void;
  now(): number;
}

interface LogStream {
  target: LogTarget;
  options: LogOptions;
  listener: (message: LogServerMessage) => void;
  reopened: () => void;
}

export class LogStreams {
  private nextStream = 1;
  private readonly streams = new Map<string, LogStream>();

  constructor(private readonly link: LogStreamLink) {}

  /**
   * Opens a log stream; its lines, sources and notes go to `listener` until close(). `opened` settles
   * with main's reply (rejecting when main refused the stream). After a reconnect the stream is opened
   * again and `reopened` is called first.
   */
  open(
    target: LogTarget,
    options: LogOptions,
    listener: (message: LogServerMessage) => void,
    reopened: () => void,
  ): { opened: Promise<void>; close(): void } {
    const streamId = `logs-${this.nextStream++}`;
    this.streams.set(streamId, { target, options, listener, reopened });
    const opened = this.link.request({ type: 'openLogs', streamId, target, options }).then(() => undefined);
    opened.catch(() => this.streams.delete(streamId));
    return {
      opened,
      close: () => {
        if (this.streams.delete(streamId)) this.link.sendIfReady({ type: 'closeLogs', streamId });
      },
    };
  }

  /** The link is back: every stream is opened again, its view told first. */
  reopenAll(): void {
    for (const [streamId, stream] of this.streams) {
      stream.reopened();
      const { target, options } = stream;
      this.link.request({ type: 'openLogs', streamId, target, options }).catch(() => {});
    }
  }

  /** The link was lost: every stream's view is told its log reopens when the link is back. */
  lost(reason: string): void {
    for (const [streamId, stream] of this.streams)
      stream.listener({
        type: 'logNote',
        streamId,
        kind: 'reconnecting',
        message: `the connection to main was lost (${reason}); the log reopens when it is back`,
        time: this.link.now(),
      });
  }

  /** A stream's lines, sources or note, for the view that holds it. */
  receive(message: LogServerMessage): void {
    this.streams.get(message.streamId)?.listener(message);
  }
}
