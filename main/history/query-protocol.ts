// What a history query worker (query-worker.ts) is asked and answers, and what it is started with:
// the messages between HistoryQueries (through a QueryThread) and the worker thread.
import type { RecordedUsage, UsageSubject } from '../../shared/protocol/history-messages';
import type { InvolvedObject } from '../../shared/protocol/client-messages';
import type { EncodedRows } from '../bridge/encoded-rows';
import type { ObjectReference } from './object-history';
import type { PlaybackChange, PlaybackQuery, PlaybackSpan } from './playback-reads';
import type { RecordingMark } from './recorded-change';
import type { HeldMetrics } from './metrics-layouts';
import type { RecordingProblem } from './recording-error';
import type { StateQuery, TimeRange } from './replay';

/**
 * A journal of the live rows' identities (see IdentityJournal), its batches from number `from` of
 * epoch `epoch` on: each a batch's rows as triples key, uid, resourceVersion, in order (a deleted
 * key's uid is `deletedUid`). Strings in arrays, not text: a line of text per row cost main
 * 0.3 s for 150,000 rows to make and 0.1-0.2 s to post, the arrays a tenth of that.
 */
export interface LiveJournal {
  readonly epoch: number;
  readonly from: number;
  readonly batches: readonly (readonly string[])[];
}

/** The uid of a deleted key in a LiveJournal's batch (a uid holds no line break). */
export const deletedUid = '\n';

export type QueryRequest =
  | {
      readonly id: number;
      readonly type: 'state';
      readonly file: string;
      readonly query: StateQuery;
      /**
       * Set to have the objects projected here into rows, with the kind's printer from shared/
       * (printerFor) at the moment `now` (for a cell read off the clock, such as a running Job's
       * duration): replies are then "rows". With `since` (a moment's id, see the "moment" reply) the
       * rows may come as the difference from that moment's (see MomentRows.moment). Else with `live`
       * (the live rows the asker holds, see base-identities.ts) as the difference from those; or with
       * `liveJournal`, the same rows as the batches of their journal the worker has not read yet (see
       * LiveListings: the worker keeps the rest from the travels before).
       */
      readonly rows?: {
        readonly now: number;
        readonly since?: number;
        readonly live?: string;
        readonly liveJournal?: LiveJournal;
      };
    }
  | {
      readonly id: number;
      readonly type: 'timeline';
      readonly file: string;
      /** Defaults: the recording's range (or `now` when it holds nothing yet). */
      readonly from: number | undefined;
      readonly to: number | undefined;
      readonly buckets: number;
      readonly now: number;
    }
  /** The object's versions as the History tab lists them (ObjectVersion[]), none decoded. */
  | {
      readonly id: number;
      readonly type: 'version-list';
      readonly file: string;
      readonly reference: ObjectReference;
    }
  /** The line diff of two of the object's versions (DiffLine[]); nothing when either is not the object's. */
  | {
      readonly id: number;
      readonly type: 'version-diff';
      readonly file: string;
      readonly reference: ObjectReference;
      readonly olderId: number;
      readonly newerId: number;
    }
  /** The object as recorded at `time` (a KubeObject, or null). */
  | {
      readonly id: number;
      readonly type: 'object-at';
      readonly file: string;
      readonly reference: ObjectReference;
      readonly time: number;
    }
  | {
      readonly id: number;
      readonly type: 'adjacent';
      readonly file: string;
      readonly reference: ObjectReference;
      readonly time: number;
      readonly direction: 'previous' | 'next';
    }
  | {
      readonly id: number;
      readonly type: 'crash-logs';
      readonly file: string;
      readonly uid: string;
      readonly time: number;
    }
  | {
      readonly id: number;
      readonly type: 'events';
      readonly file: string;
      readonly involved: InvolvedObject;
      readonly time: number;
    }
  | { readonly id: number; readonly type: 'counts'; readonly file: string; readonly time: number }
  | {
      readonly id: number;
      readonly type: 'metrics-at';
      readonly file: string;
      readonly resource: 'pods' | 'nodes';
      readonly time: number;
      /** The digests of the answer the asker holds (see MetricsLayouts). */
      readonly held: HeldMetrics;
    }
  | {
      readonly id: number;
      readonly type: 'usage';
      readonly file: string;
      readonly subject: UsageSubject;
      readonly points: number;
      readonly from: number | undefined;
      readonly to: number | undefined;
    }
  | {
      readonly id: number;
      readonly type: 'inspect';
      readonly file: string;
      /** Keep the reader for the questions to come (else it is closed: a check only). */
      readonly keep: boolean;
    }
  /** Closes the reader of `file`, if open (an import given up: its file may be deleted). */
  | { readonly id: number; readonly type: 'release'; readonly file: string }
  /** Opens a playback; its id is this request's, for the play-next and play-close that follow. */
  | { readonly id: number; readonly type: 'play-open'; readonly file: string; readonly query: PlaybackQuery }
  /** Up to `max` next changes; rows (if asked for at play-open) projected at `now`. */
  | {
      readonly id: number;
      readonly type: 'play-next';
      readonly playback: number;
      readonly max: number;
      readonly now: number;
    }
  | { readonly id: number; readonly type: 'play-close'; readonly playback: number }
  /**
   * Decodes the newest row frames of `file` while nothing else is asked (see FrameWarmer): answered
   * "warmed" once done (or given up), each question asked meanwhile answered between its steps.
   */
  | { readonly id: number; readonly type: 'prewarm'; readonly file: string }
  /**
   * How many objects `query`'s moment holds, from its members alone (nothing decoded): answered
   * "moment-size". A travel from live asks it first, to list the live rows only for a moment large
   * enough to be sent against them (see MomentSending.openLive).
   */
  | { readonly id: number; readonly type: 'moment-size'; readonly file: string; readonly query: StateQuery }
  /**
   * Reads `journal` ahead of a travel from its live rows (see LiveJournalFeed), and with `compare`
   * brings their comparison with `file`'s newest state for `query` up to date: answered "journal-read".
   */
  | {
      readonly id: number;
      readonly type: 'live-journal';
      readonly journal: LiveJournal;
      readonly compare?: { readonly file: string; readonly query: Omit<StateQuery, 'time'> };
    };

/** A timeline's figures: the range covered, change density per kind, and the gaps and relists. */
export interface TimelineFigures {
  readonly range: TimeRange | undefined;
  readonly from: number;
  readonly to: number;
  readonly density: Record<string, number[]>;
  readonly marks: RecordingMark[];
}

export type QueryReply =
  | { readonly id: number; readonly type: 'timeline'; readonly timeline: TimelineFigures }
  /**
   * An answer for main to pass on to a renderer unparsed, as UTF-8 JSON bytes in a buffer of their own,
   * transferred (see EncodedValue); undefined when there is nothing to answer with.
   */
  | { readonly id: number; readonly type: 'encoded'; readonly json: Uint8Array | undefined }
  /** An encoded answer cut for sending in parts (see reply-parts.ts): the head's bytes and each part's. */
  | {
      readonly id: number;
      readonly type: 'encoded-parts';
      readonly json: Uint8Array;
      readonly parts: readonly Uint8Array[];
    }
  | { readonly id: number; readonly type: 'adjacent'; readonly time: number | undefined }
  /** `json`: the RecordedCrashLog[] of crashLogsAt (inflated here, parsed by the asker). */
  | { readonly id: number; readonly type: 'crash-logs'; readonly json: string }
  /** `json`: the Events (KubeObject[]) of recordedEventsAbout. */
  | { readonly id: number; readonly type: 'events'; readonly json: string }
  | { readonly id: number; readonly type: 'counts'; readonly counts: Record<string, number> }
  | { readonly id: number; readonly type: 'usage'; readonly usage: RecordedUsage }
  | { readonly id: number; readonly type: 'inspected'; readonly inspection: RecordingInspection }
  | { readonly id: number; readonly type: 'released' }
  | { readonly id: number; readonly type: 'warmed' }
  | { readonly id: number; readonly type: 'moment-size'; readonly total: number }
  /** A live journal read (see "live-journal"): its next batch's number, or undefined if it could not be. */
  | { readonly id: number; readonly type: 'journal-read'; readonly at: number | undefined }
  | { readonly id: number; readonly type: 'play-opened'; readonly span: PlaybackSpan }
  /** The playback's next changes; `done` once the last has been sent. */
  | {
      readonly id: number;
      readonly type: 'play-changes';
      readonly changes: PlaybackChange[];
      readonly done: boolean;
    }
  /**
   * A moment's size, before its first chunk: how many objects it holds (a version that cannot be read
   * is left out later, so at most this many come) and the gap covering it, if any.
   */
  | {
      readonly id: number;
      readonly type: 'moment';
      readonly total: number;
      readonly gap: RecordingMark | undefined;
      /** Rows only: names the moment, for a later question's `since`. */
      readonly moment?: number;
      /** Rows only: set when they come as the difference from moment `against` (see RowsMoment). */
      readonly against?: number;
      /** Rows only: set when they come as the difference from the live rows given (`live`). */
      readonly againstLive?: true;
      /** With againstLive: how many of the moment's rows the live rows hold as they are (not sent). */
      readonly unchanged?: number;
      /**
       * Asked with `liveJournal`: the number of its next batch once those sent were read (the asker
       * need not send them again), or undefined when they could not be (then the rows came as
       * without: the asker sends a whole listing next time).
       */
      readonly liveAt?: number;
    }
  | { readonly id: number; readonly type: 'objects'; readonly json: string }
  /** A chunk of objects projected as the question asked, encoded here (see EncodedRows). */
  | { readonly id: number; readonly type: 'rows'; readonly rows: EncodedRows }
  | {
      readonly id: number;
      readonly type: 'done';
      readonly complete: boolean;
      readonly gap: RecordingMark | undefined;
      /** Rows only: how many the moment holds (sent, or against a moment kept from it). */
      readonly rows?: number;
      /** Rows against a moment or the live rows (see "moment"): the keys of those this one lacks. */
      readonly deletes?: string[];
    }
  | {
      readonly id: number;
      readonly type: 'failed';
      readonly message: string;
      /** Set when the failure was a RecordingError, so the asker throws the same one. */
      readonly recording?: { readonly file: string; readonly problem: RecordingProblem };
    };

/** What opening a recording found: the context its metadata names, and any damage (as UI lines). */
export interface RecordingInspection {
  readonly context: string;
  readonly problems: string[];
}

/** What a query worker is started with (see HistoryQueries). */
export interface QueryWorkerData {
  /**
   * Whether opening a recording runs quick_check (default true). The worker that rebuilds moments and
   * reads playbacks skips it, as playback's own readers do: its reads meet any damage as they go
   * (reported by the reader), and its first travel of a long recording should not wait seconds for
   * a check of every page that the other worker has made already.
   */
  readonly checkIntegrity?: boolean;
}
