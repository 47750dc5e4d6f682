// A moment's table rows, projected where the moment is rebuilt (the history query worker) and sent as
// text (EncodedRows: tuples under the kind's layout, see replay-layout.ts). Rows come from the recording's row frames where it has them (see
// row-frame-moment.ts), else from the versions of the moment's changes, decoded and projected. Each
// row's text is kept by the change holding its version, for the last moment asked: travelling to
// another moment, forward or back, makes only the rows that differ from it (a change id names one
// version of one object, for good), where a moment of 150,000 pods costs seconds to make whole.
import { parseGvrKey } from '../../shared/kube/object';
import type { KubeObject } from '../../shared/kube/object';
import { printerFor } from '../../shared/kinds/columns';
import { objectKey } from '../../shared/protocol/row';
import type { EncodedRows } from '../bridge/encoded-rows';
import { RowProjector } from '../bridge/row-projection';
import type { RecordingMark } from './recorded-change';
import type { RecordingReader } from './recording-reader';
import type { MomentRow } from './moment-order';
import { momentRow, withText } from './moment-order';
import type { ProjectedMoment } from './projected-moment';
import { holds } from './projected-moment';
import { liveMoment } from './moment-live';
import type { AppliedListing, LiveIdentities } from './live-identities';
import { identitiesOf } from './live-identities';
import { NewestStates } from './moment-newest';
import { printerSignature } from './row-frame-codec';
import { framedMoment } from './row-frame-moment';
import { RowFrameReader } from './row-frame-reader';
import { printerKeepsRows } from './row-frame-writer';
import { replayLayout, rowText } from './replay-layout';
import type { StateQuery } from './state-at';
import { momentAt, versionsOf } from './state-at';
import { VersionDecoder } from './version-decoder';

/** Rows per chunk yielded: about half a megabyte of pods' rows. */
const chunkSize = 1000;

/**
 * The memo of a rebuild's decoder, in characters (see VersionDecoder): enough for the versions many
 * objects' chains share (a template's latest version, which new siblings were compressed against).
 * Most versions are read once, and a memo that kept them would keep every parsed object alive past
 * its projection: at 150,000 pods, that alone was half the rebuild's time, in garbage collection.
 */
const rebuildMemoChars = 2 * 1024 * 1024;

/** What a moment's rows are made with. */
interface Made {
  readonly reader: RecordingReader;
  readonly query: StateQuery;
  readonly now: number;
  readonly recording: string;
  /** The moment before's rows, by change id (empty if it was another recording's or kind's). */
  readonly previous: ReadonlyMap<number, MomentRow>;
  /** The moment this one is sent against (see RowsMoment.against), if any. */
  readonly against: ProjectedMoment | undefined;
  /** Set when sent against the live rows (see RowsMoment.againstLive): what they hold and lack. */
  readonly live?: {
    /** The live keys whose rows were read at the moment (see LiveMoment.live). */
    readonly base: ReadonlySet<string>;
    readonly held: readonly MomentRow[];
    readonly deletes: readonly string[];
  };
}

/** A moment's size and gap, known before its rows; the rows, a chunk at a time. */
export interface RowsMoment {
  /** How many rows the moment holds (a version that cannot be read is left out: at most this many). */
  readonly total: number;
  readonly gap: RecordingMark | undefined;
  /**
   * The rows as JSON text (EncodedRows), a chunk at a time: all of them, or with `against` only those
   * that differ from that moment's.
   */
  readonly chunks: Generator<EncodedRows>;
  /** Names this moment, once its chunks are all read, for a later one to be asked against. */
  readonly id: number;
  /**
   * Set when the chunks are the difference from moment `against` (the one asked before, whole): only
   * the rows whose version it did not hold; `deletes` then says which of its keys this one lacks.
   */
  readonly against: number | undefined;
  /**
   * Set when the chunks are the difference from the live rows given (see MomentRows.moment): only the
   * rows they lack or hold at another version; `deletes` then says which of their keys this one lacks.
   */
  readonly againstLive: boolean;
  /** Against the live rows: how many of the moment's rows they hold as they are (not sent). */
  readonly unchanged: number;
  /**
   * Once the chunks are all read: the rows the moment holds (sent or, with `against`, kept), and with
   * `against` the keys of that moment this one lacks (none without).
   */
  ended(): { readonly rows: number; readonly deletes: string[] };
}

export class MomentRows {
  private last: ProjectedMoment | undefined;
  private readonly frames = new RowFrameReader();
  /** The recording's newest state per stream, which a travel from live compares the live rows with. */
  readonly newest = new NewestStates();
  private lastId = 0;

  /**
   * The rows of `query`'s moment, in its order (namespace/name), projected with the kind's printer
   * from shared/ at `now`. A row kept from the last moment was projected at that moment's `now`, and
   * a row frame's at its recording time: only a cell read off the clock (a running Job's duration)
   * could differ, as a live row's does until its object changes, and kinds with such cells have no
   * frames.
   *
   * With `since` naming the moment asked last (see RowsMoment.id) of the same recording and kind,
   * whose rows the asker holds whole, only the rows that differ from it are sent (see
   * RowsMoment.against): the rest are the same text, so nothing the size of the moment leaves here.
   * Else with `live` (the live rows' identities the asker holds: a listing, see listIdentities, or
   * kept here with their comparisons, see LiveListings), only the rows that differ from those (see
   * liveMoment, RowsMoment.againstLive).
   */
  moment(
    reader: RecordingReader,
    query: StateQuery,
    now: number,
    since?: number,
    live?: string | LiveIdentities | AppliedListing,
  ): RowsMoment {
    const recording = reader.identity;
    const last = this.last;
    const same =
      last && last.recording === recording && last.gvr === query.gvr && last.namespace === query.namespace;
    const previous = same ? last.rows : new Map<number, MomentRow>();
    const against = same && since !== undefined && since === last.id ? last : undefined;
    // Unset until this moment is whole: a rebuild cut short leaves nothing half-kept behind.
    this.last = undefined;
    const made: Made = { reader, query, now, recording, against, previous };
    const listing = typeof live === 'string' ? identitiesOf(live) : live;
    const identities = listing && 'comparisons' in listing ? listing.identities : listing;
    const comparisons = listing && 'comparisons' in listing ? listing.comparisons : undefined;
    const fromLive =
      !against && identities
        ? liveMoment(reader, this.frames, this.newest, query, previous, identities, comparisons)
        : undefined;
    if (fromLive) {
      const { changed, held, deletes, gap } = fromLive;
      return this.rowsMoment({ ...made, live: { base: fromLive.live, held, deletes } }, changed, gap);
    }
    const framed = framedMoment(reader, this.frames, query, previous);
    if (framed) return this.rowsMoment(made, framed.rows, framed.gap);
    const moment = momentAt(reader, query);
    const rows = moment.rows.map(
      (changeRow) =>
        withText(previous, changeRow.id) ??
        momentRow(
          objectKey(changeRow.namespace, changeRow.name),
          changeRow.namespace,
          changeRow.id,
          undefined,
          changeRow,
        ),
    );
    return this.rowsMoment(made, rows, moment.gap);
  }

  /**
   * Decodes the newest row frames of every framed kind of `reader` into the frames' cache, a frame per
   * step (see RowFrameReader.warming): what a worker does while nothing is asked of it.
   */
  *warming(reader: RecordingReader): Generator<void, void> {
    for (const stream of reader.streams()) {
      let printer;
      try {
        printer = printerFor(parseGvrKey(stream.gvr));
      } catch {
        continue;
      }
      if (!printerKeepsRows(printer)) continue;
      yield* this.frames.warming(reader, stream.id, printerSignature(printer));
      // The newest state a travel from live compares the live rows with (see liveMoment).
      this.newest.of(reader, stream);
      yield;
      // The keyframes a travel from live to the last seconds reads its moment's members from.
      this.newest.keyframes.warm(reader, stream);
      yield;
    }
  }

  private rowsMoment(made: Made, rows: readonly MomentRow[], gap: RecordingMark | undefined): RowsMoment {
    const id = ++this.lastId;
    const ending = { rows: 0, deletes: [] as string[] };
    const unchanged = made.live?.held.length ?? 0;
    return {
      total: rows.length + unchanged,
      gap,
      chunks: this.chunks(made, id, rows, ending),
      id,
      against: made.against?.id,
      againstLive: made.live !== undefined,
      unchanged,
      ended: () => ending,
    };
  }

  private *chunks(
    made: Made,
    id: number,
    rows: readonly MomentRow[],
    ending: { rows: number; deletes: string[] },
  ): Generator<EncodedRows> {
    const { reader, query, now, against, previous, live } = made;
    /** Against the live rows: keys of theirs whose row of the moment could not be made. */
    const unmade: string[] = [];
    const printer = printerFor(parseGvrKey(query.gvr));
    const projector = new RowProjector(printer);
    // The kind's layout, as the rows kept from the moment before and those made from frames have it.
    const layout = replayLayout(printer);
    const decoder = new VersionDecoder(reader.database, rebuildMemoChars);
    const kept = new Map<number, MomentRow>();
    /** Against a moment: the keys of the rows sent (those it did not hold as they are). */
    const sentKeys = new Set<string>();
    let madeUpTo = 0;
    // Rows taken into the next chunk, not yet yielded: against a moment, a chunk gathers the few rows
    // that differ from several windows of the moment, so it is not one message per thousand rows.
    let json = '[';
    let sent: MomentRow[] = [];
    /** Whether each row of `sent` was kept from the moment before (see below). */
    let sentBefore: boolean[] = [];
    for (let index = 0; index < rows.length; index += chunkSize) {
      const end = Math.min(index + chunkSize, rows.length);
      if (end > madeUpTo) {
        // Whole chunks, until they hold a chunk's worth of versions to decode: read ahead together,
        // the few a moment from frames lacks cost a query per chain level, not one per chunk.
        const missing = new Map<number, MomentRow>();
        let upTo = index;
        while (upTo < rows.length && (upTo === index || missing.size < chunkSize)) {
          const chunkEnd = Math.min(upTo + chunkSize, rows.length);
          for (let at = upTo; at < chunkEnd; at++)
            if (rows[at].text === undefined) missing.set(rows[at].change, rows[at]);
          upTo = chunkEnd;
        }
        madeUpTo = upTo;
        const changeRows = [...missing.values()].map((row) => row.changeRow!);
        for (const { row, version } of versionsOf(reader, changeRows, decoder)) {
          const missed = missing.get(row.id)!;
          missed.text = rowText(projector.project(version as unknown as KubeObject, now), layout);
          missed.changeRow = undefined;
        }
      }
      // The chunk's text concatenated, not joined: postMessage writes a concatenation piece by piece,
      // so a chunk of rows made for this moment (a cold one's) is copied once, into the message,
      // where a join first copied half a megabyte a chunk into a string the send copied again (80 MB
      // twice at 150,000 pods). Rows kept from the moment before are sliced from it below, which
      // flattens it: one copy, as the join's.
      for (let at = index; at < end; at++) {
        const row = rows[at];
        // A version that could not be read (reported by versionsOf) is left out, like a deletion's.
        if (row.text === undefined) {
          if (live?.base.has(row.key)) unmade.push(row.key);
          continue;
        }
        row.rank = kept.size;
        kept.set(row.change, row);
        // Against a moment, a row of a version it held is the renderer's already, text and all.
        if (against !== undefined && holds(against, row.change)) continue;
        if (against) sentKeys.add(row.key);
        json += sent.length === 0 ? row.text : `,${row.text}`;
        sent.push(row);
        sentBefore.push(previous.has(row.change));
      }
      if (sent.length < chunkSize && end < rows.length) continue;
      if (sent.length === 0) continue;
      json += ']';
      yield { json, layout, keys: sent.map((row) => row.key) };
      // A row kept from an earlier moment is kept again as a slice of this chunk's text: else it
      // would keep alive the whole text it was cut from, and scrubbing would pile up dead text. A
      // row made for this moment is a slice of text this moment's rows hold whole. (Against a
      // moment, every row sent is new to it; those it held keep their text.)
      let start = 1;
      for (const [at, row] of sent.entries()) {
        const textEnd = start + row.text!.length;
        if (sentBefore[at]) row.text = json.slice(start, textEnd);
        start = textEnd + 1;
      }
      json = '[';
      sent = [];
      sentBefore = [];
    }
    if (live) {
      // Rows the live rows held were never made: kept without text (see ProjectedMoment.held), so
      // that a moment asked against this one knows the renderer holds them; and, as the rows made,
      // ranked nowhere, since rows sent against the live rows came in no moment's order (see
      // MomentOrder; a held row's rank is -1 from the start).
      for (const row of kept.values()) row.rank = -1;
      ending.deletes = [...live.deletes, ...unmade];
    }
    const held = live?.held ?? [];
    ending.rows = kept.size + held.length;
    // Against a moment: its keys whose version this one lacks and did not send (a key sent, with
    // another version, replaces its row).
    if (against) {
      const lacks = (row: MomentRow) => !kept.has(row.change) && !sentKeys.has(row.key);
      for (const row of against.rows.values()) if (lacks(row)) ending.deletes.push(row.key);
      for (const row of against.held) if (lacks(row)) ending.deletes.push(row.key);
    }
    const { recording } = made;
    this.last = { id, recording, gvr: query.gvr, namespace: query.namespace, rows: kept, held };
  }
}
