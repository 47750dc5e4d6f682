// The live rows' identity journal (see IdentityJournal) read by the travel path's query worker ahead
// of a travel, in the background: a first travel from live then costs what a second does. Read at the
// travel instead, the worker built the identities map of 150,000 rows from the journal's first post
// (0.15-0.45 s), compared every key with the recording's newest state (0.1-0.2 s), and main posted
// 450,000 strings in one task (160-230 ms), all on the click's critical path.
//
// The page names the live subscription it may travel from with each timeline question (every 2 s
// while the timeline shows): each question feeds what the journal recorded since the last, a piece
// of at most `linesPerPiece` rows per post, one post per task and the next only once the worker read
// the last (so main never holds a long task, and a travel asked meanwhile waits behind one piece at
// most). The worker's acknowledgement lets the journal go of what it read, so the journal stays a
// few seconds of batches under churn (never dropped for outgrowing its rows, as it was between two
// travels far apart); the last piece of a feed also has the worker bring the rows' comparison with
// the newest state up to date (see LiveComparison), so a travel compares only what changed since.
//
// Invariant: a piece is taken from the journal and posted in the same task, so the worker reads the
// journal's batches in the order recorded, and a travel's journal (taken later) never ends before a
// piece read ahead of it.
import type { GroupVersionResource } from '../../shared/kube/object';
import type { LiveJournal } from '../history/query-protocol';
import type { IdentityJournal } from './identity-journal';

/** Rows per post: 12,000 strings, a few ms of main to post and of the worker to apply. */
export const linesPerPiece = 4_000;

/** A live subscription's identity journal and what its rows mirror (see SessionConnection.liveJournal). */
export interface JournalSource {
  readonly gvr: GroupVersionResource;
  readonly namespace: string;
  readonly journal: IdentityJournal;
}

/** What the last piece of a feed also asks of the worker: to compare the rows with the newest state. */
export interface JournalComparison {
  readonly file: string;
  readonly query: { readonly gvr: string; readonly namespace?: string };
}

export interface JournalFeedOptions {
  /**
   * Has the worker read `journal` (and compare as asked): the number of its next batch once read, or
   * undefined when it could not be (an epoch it never saw from its start).
   */
  readonly read: (
    journal: LiveJournal,
    compare: JournalComparison | undefined,
  ) => Promise<number | undefined>;
  /** Resolves in a later task (main's other work goes between two pieces). */
  readonly nextTask: () => Promise<void>;
  /**
   * Resolves once the worker has no travel to answer (see HistoryQueries.travelPathIdle): a piece
   * waits for it before it is taken, since the worker answers in the order asked and a travel's
   * moment must not wait behind a piece and its comparison.
   */
  readonly idle?: () => Promise<void>;
}

export class LiveJournalFeed {
  /** The journal being fed, until the feed catches up with it. */
  private feeding: IdentityJournal | undefined;

  constructor(private readonly options: JournalFeedOptions) {}

  /**
   * Feeds `source`'s journal to the worker up to its end, unless a feed is running (it catches up with
   * whatever was recorded meanwhile, and the next call feeds any other journal). Resolves once done.
   */
  async feed(source: JournalSource, compare: JournalComparison): Promise<void> {
    if (this.feeding !== undefined) return;
    const journal = source.journal;
    this.feeding = journal;
    try {
      for (;;) {
        // Before the piece is taken, so the invariant above holds.
        await this.options.idle?.();
        const piece = journal.unread(linesPerPiece);
        if (piece === undefined || piece.batches.length === 0) return;
        const last = piece.from + piece.batches.length === journal.end;
        // Taken and posted in this task (see the invariant above).
        const at = await this.options.read(piece, last ? compare : undefined);
        if (at === undefined) {
          // The worker never saw this epoch's start (a worker started since): the next travel lists
          // the rows whole, which starts the journal again.
          journal.drop(piece.epoch);
          return;
        }
        journal.acknowledge(piece.epoch, at);
        if (last) return;
        await this.options.nextTask();
      }
    } finally {
      this.feeding = undefined;
    }
  }
}
