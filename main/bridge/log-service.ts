// A connection's log streams: openLogs starts a LogView, closeLogs ends it, and the connection's end
// ends them all. Caps bound what one renderer can make main do: open views, and sources per view.
import type { Clock } from '../cache/clock';
import { PodLogStream } from '../kube/pod-log-stream';
import type { LogClientMessage, LogServerMessage } from '../../shared/protocol/log-messages';
import type { ClusterSession } from './cluster-session';
import { LogView } from './log-view';

export interface LogLimits {
  /** Log views one connection may hold open. */
  streams: number;
  /** Containers one view reads at once (a workload's pods times their containers). */
  sourcesPerStream: number;
  /** Lines in one logLines message. */
  linesPerBatch: number;
}

/**
 * Each source holds one HTTP/1.1 connection to the API server for as long as it follows, from the
 * ClusterConnection's 256 sockets that the watches share: 4 views of 50 sources (stern's default
 * --max-log-requests) leave room for them.
 */
export const defaultLogLimits: LogLimits = { streams: 4, sourcesPerStream: 50, linesPerBatch: 20_000 };

export interface LogServiceOptions {
  session: () => ClusterSession;
  clock: Clock;
  send(message: LogServerMessage): void;
  limits?: Partial<LogLimits>;
}

export class LogService {
  private readonly views = new Map<string, LogView>();
  private readonly limits: LogLimits;

  constructor(private readonly options: LogServiceOptions) {
    this.limits = { ...defaultLogLimits, ...options.limits };
  }

  async serve(message: LogClientMessage): Promise<null> {
    if (message.type === 'closeLogs') {
      this.views.get(message.streamId)?.close();
      this.views.delete(message.streamId);
      return null;
    }
    if (this.views.has(message.streamId)) throw new Error(`log stream ${message.streamId} is already open`);
    if (this.views.size >= this.limits.streams)
      throw new Error(`at most ${this.limits.streams} log streams may be open at once; close one first`);
    const session = this.options.session();
    const openPodLog = session.options.openPodLog;
    if (!openPodLog) throw new Error(`logs cannot be read from context ${session.context}`);
    const { clock } = this.options;
    const view = new LogView({
      streamId: message.streamId,
      target: message.target,
      options: message.options,
      session,
      clock,
      send: (reply) => this.options.send(reply),
      maxSources: this.limits.sourcesPerStream,
      maxLinesPerBatch: this.limits.linesPerBatch,
      openStream: (source, options, sink) => {
        const stream = new PodLogStream({
          open: openPodLog(source.namespace, source.pod),
          query: { container: source.container, ...options },
          clock,
          onLines: (lines) => sink.onLines(lines),
          onNote: (note) => sink.onNote(note),
        });
        stream.start();
        return stream;
      },
    });
    this.views.set(message.streamId, view);
    try {
      await view.start();
    } catch (error) {
      view.close();
      this.views.delete(message.streamId);
      throw error;
    }
    return null;
  }

  /** Ends every view (the connection closed, or moved to another context). */
  close(): void {
    for (const view of this.views.values()) view.close();
    this.views.clear();
  }
}
