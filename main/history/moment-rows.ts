// A moment's table rows, projected where the moment is rebuilt (the history query worker) and sent as
// JSON text (EncodedRows). Rows come from the recording's row frames where it has them (see
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
import { momentRow } from './moment-order';
import { printerSignature } from './row-frame-codec';
import { framedMoment } from './row-frame-moment';
import { RowFrameReader } from './row-frame-reader';
import { printerKeepsRows } from './row-frame-writer';
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

interface ProjectedMoment {
  /** The file and when it was created: a recording replaced at the same path numbers changes anew. */
  readonly recording: string;
  readonly gvr: string;
  readonly namespace: string | undefined;
  /** Change id -> the row projected from the version it holds, as JSON text. */
  readonly rows: Map<number, MomentRow>;
}

/** A moment's size and gap, known before its rows; the rows, a chunk at a time. */
export interface RowsMoment {
  /** How many rows the moment holds (a version that cannot be read is left out: at most this many). */
  readonly total: number;
  readonly gap: RecordingMark | undefined;
  /** The rows as JSON text (EncodedRows), a chunk at a time. */
  readonly chunks: Generator<EncodedRows>;
}

export class MomentRows {
  private last: ProjectedMoment | undefined;
  private readonly frames = new RowFrameReader();

  /**
   * The rows of `query`'s moment, in its order (namespace/name), projected with the kind's printer
   * from shared/ at `now`. A row kept from the last moment was projected at that moment's `now`, and
   * a row frame's at its recording time: only a cell read off the clock (a running Job's duration)
   * could differ, as a live row's does until its object changes, and kinds with such cells have no
   * frames.
   */
  moment(reader: RecordingReader, query: StateQuery, now: number): RowsMoment {
    const recording = `${reader.file} ${reader.metadata.created}`;
    const last = this.last;
    const previous =
      last && last.recording === recording && last.gvr === query.gvr && last.namespace === query.namespace
        ? last.rows
        : new Map<number, MomentRow>();
    // Unset until this moment is whole: a rebuild cut short leaves nothing half-kept behind.
    this.last = undefined;
    const framed = framedMoment(reader, this.frames, query, previous);
    if (framed) return this.rowsMoment(reader, query, framed.rows, framed.gap, now, recording);
    const moment = momentAt(reader, query);
    const rows = moment.rows.map(
      (changeRow) =>
        previous.get(changeRow.id) ??
        momentRow(
          objectKey(changeRow.namespace, changeRow.name),
          changeRow.namespace,
          changeRow.id,
          undefined,
          changeRow,
        ),
    );
    return this.rowsMoment(reader, query, rows, moment.gap, now, recording);
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
      if (printerKeepsRows(printer)) yield* this.frames.warming(reader, stream.id, printerSignature(printer));
    }
  }

  private rowsMoment(
    reader: RecordingReader,
    query: StateQuery,
    rows: readonly MomentRow[],
    gap: RecordingMark | undefined,
    now: number,
    recording: string,
  ): RowsMoment {
    return { total: rows.length, gap, chunks: this.chunks(reader, query, rows, now, recording) };
  }

  private *chunks(
    reader: RecordingReader,
    query: StateQuery,
    rows: readonly MomentRow[],
    now: number,
    recording: string,
  ): Generator<EncodedRows> {
    const projector = new RowProjector(printerFor(parseGvrKey(query.gvr)));
    const decoder = new VersionDecoder(reader.database, rebuildMemoChars);
    const kept = new Map<number, MomentRow>();
    let madeUpTo = 0;
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
          const made = missing.get(row.id)!;
          made.text = JSON.stringify(projector.project(version as unknown as KubeObject, now));
          made.changeRow = undefined;
        }
      }
      // The chunk's text concatenated, not joined: postMessage writes a concatenation piece by piece,
      // so a chunk of rows made for this moment (a cold one's) is copied once, into the message,
      // where a join first copied half a megabyte a chunk into a string the send copied again (80 MB
      // twice at 150,000 pods). Rows kept from the moment before are sliced from it below, which
      // flattens it: one copy, as the join's.
      let json = '[';
      const sent: MomentRow[] = [];
      for (let at = index; at < end; at++) {
        const row = rows[at];
        // A version that could not be read (reported by versionsOf) is left out, like a deletion's.
        if (row.text === undefined) continue;
        json += sent.length === 0 ? row.text : `,${row.text}`;
        sent.push(row);
      }
      json += ']';
      yield { json, keys: sent.map((row) => row.key) };
      // A row kept from an earlier moment (ranked in it) is kept again as a slice of this chunk's
      // text: else it would keep alive the whole text it was cut from, and scrubbing would pile up
      // dead text. A row made for this moment is a slice of text this moment's rows hold whole.
      // (The rows are this moment's own: those of the moment before were kept in a map now dropped.)
      let start = 1;
      for (const row of sent) {
        const end = start + row.text!.length;
        if (row.rank >= 0) row.text = json.slice(start, end);
        row.rank = kept.size;
        kept.set(row.change, row);
        start = end + 1;
      }
    }
    this.last = { recording, gvr: query.gvr, namespace: query.namespace, rows: kept };
  }
}
