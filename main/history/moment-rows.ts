// A moment's table rows, projected where the moment is rebuilt (the history query worker). Each row is
// kept by the change holding its version, for the last moment asked: travelling to a nearby moment,
// forward or back, decodes only the versions that differ from it (a change id names one version of
// one object, for good), where a moment of 150,000 pods costs seconds to decode whole.
import { parseGvrKey } from '../../shared/kube/object';
import type { KubeObject } from '../../shared/kube/object';
import { printerFor } from '../../shared/kinds/columns';
import type { Row } from '../../shared/protocol/row';
import { RowProjector } from '../bridge/row-projection';
import type { RecordingReader } from './recording-reader';
import type { Moment, StateQuery } from './state-at';
import { versionsOf } from './state-at';
import { VersionDecoder } from './version-decoder';

/** Rows per chunk yielded: about a tenth of what a thousand pods weigh as objects. */
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
  /** Change id -> the row projected from the version it holds. */
  readonly rows: Map<number, Row>;
}

export class MomentRows {
  private last: ProjectedMoment | undefined;

  /**
   * The rows of `moment` (read by momentAt for `query`), in its order, a chunk at a time, projected
   * with the kind's printer from shared/ at `now`. A row kept from the last moment was projected at
   * that moment's `now`: only a cell read off the clock (a running Job's duration) can differ, as a
   * live row's does until its object changes.
   */
  *rows(reader: RecordingReader, query: StateQuery, moment: Moment, now: number): Generator<Row[]> {
    const recording = `${reader.file} ${reader.metadata.created}`;
    const last = this.last;
    const previous =
      last && last.recording === recording && last.gvr === query.gvr && last.namespace === query.namespace
        ? last.rows
        : new Map<number, Row>();
    // Unset until this moment is whole: a rebuild cut short leaves nothing half-kept behind.
    this.last = undefined;
    const projector = new RowProjector(printerFor(parseGvrKey(query.gvr)));
    const decoder = new VersionDecoder(reader.database, rebuildMemoChars);
    const kept = new Map<number, Row>();
    for (let index = 0; index < moment.rows.length; index += chunkSize) {
      const changes = moment.rows.slice(index, index + chunkSize);
      const decoded = new Map<number, Row>();
      const missing = changes.filter((change) => !previous.has(change.id));
      for (const { row, version } of versionsOf(reader, missing, decoder))
        decoded.set(row.id, projector.project(version as unknown as KubeObject, now));
      const rows: Row[] = [];
      for (const change of changes) {
        // A version that could not be read (reported by versionsOf) is left out, like a deletion's.
        const row = previous.get(change.id) ?? decoded.get(change.id);
        if (row === undefined) continue;
        rows.push(row);
        kept.set(change.id, row);
      }
      yield rows;
    }
    this.last = { recording, gvr: query.gvr, namespace: query.namespace, rows: kept };
  }
}
