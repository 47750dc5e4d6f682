// The export's row frames: the source's frames a moment of the export reads, so that an exported (or
// imported) file travels as fast as the recording it came from. A frame maps change ids to rows, and
// an export keeps every change's id and object id (see export-recording.ts), so a source frame is
// the export's as it is: a moment takes from it only the rows of the changes it holds, each the
// projection of a version the export decodes to the same text. What is copied per exported stream:
// the chain in force at the range's start (its full frame and deltas) and every frame after it up to
// the last change copied. With a namespace filter, each frame is re-encoded with the exported
// objects' rows only: a frame holds every namespace's rows, which the export must not carry.
import type { Database } from 'better-sqlite3';
import { parseGvrKey } from '../../shared/kube/object';
import { printerFor } from '../../shared/kinds/columns';
import type { FrameText } from './row-frame-codec';
import { encodeRowFrame, printerSignature } from './row-frame-codec';
import type { DecodedRowFrame } from './row-frame-decoder';
import { decodeRowFrame } from './row-frame-decoder';
import { replayLayout } from './replay-layout';
import type { RecordingReader } from './recording-reader';

interface SourceFrame {
  readonly id: number;
  readonly base: number | null;
}

/**
 * Copies into `database` (an export, the source attached as "source", its changes copied) the row
 * frames of `streams` that moments in the range read: from the full frame of the chain holding
 * change `afterId` (the range's start), through the last frame of changes up to `throughId`. Only the
 * rows of `exportedObjects` are kept when it is given. A frame left out costs the export's moments
 * time, never a wrong row (they decode those versions, as in a file without frames): one the source
 * cannot give (damage) is reported as a problem; one this build cannot read or filter (another
 * printer's) is left out silently, as a cache's miss.
 */
export function copyRowFrames(
  reader: RecordingReader,
  database: Database,
  streams: readonly { readonly id: number; readonly gvr: string }[],
  afterId: number,
  throughId: number,
  exportedObjects: ReadonlySet<number> | undefined,
): void {
  // A file older than format 6 has no frames to copy: its export's moments decode, as its own do.
  const framed = database
    .prepare("SELECT 1 FROM source.sqlite_master WHERE type = 'table' AND name = 'row_frames'")
    .get();
  if (framed === undefined) return;
  const selectHead = database.prepare(
    `SELECT id, base FROM source.row_frames WHERE stream = ? AND last_change <= ?
     ORDER BY last_change DESC, id DESC LIMIT 1`,
  );
  const selectFrame = database.prepare('SELECT id, base FROM source.row_frames WHERE id = ?');
  for (const stream of streams) {
    const first = reader.guard(`row frames of ${stream.gvr}`, undefined, () => {
      // The chain a moment at the range's start reads, down to its full frame (or as far as it is
      // there). A base always precedes its frame, so a damaged file's loop cannot hold this up.
      let frame = selectHead.get(stream.id, afterId) as SourceFrame | undefined;
      while (frame !== undefined && frame.base !== null && frame.base < frame.id) {
        const base = selectFrame.get(frame.base) as SourceFrame | undefined;
        if (base === undefined) break;
        frame = base;
      }
      return frame?.id ?? 0;
    });
    if (first === undefined) continue;
    const range = `FROM source.row_frames WHERE stream = ${stream.id} AND id >= ${first} AND last_change <= ${throughId}`;
    if (exportedObjects === undefined) {
      reader.guard(`row frames of ${stream.gvr}`, undefined, () =>
        database.exec(`INSERT INTO main.row_frames (id, time, stream, last_change, base, rows)
          SELECT id, time, stream, last_change, base, rows ${range}`),
      );
      continue;
    }
    copyFiltered(reader, database, stream.gvr, range, exportedObjects);
  }
}

/** Copies the frames `range` selects, each re-encoded with `exportedObjects`' rows only. */
function copyFiltered(
  reader: RecordingReader,
  database: Database,
  gvr: string,
  range: string,
  exportedObjects: ReadonlySet<number>,
): void {
  const printer = printerFor(parseGvrKey(gvr));
  const signature = printerSignature(printer);
  const layout = replayLayout(printer);
  const ids = reader.guard(`row frames of ${gvr}`, [], () =>
    database.prepare(`SELECT id ${range} ORDER BY id`).pluck().all(),
  ) as number[];
  const select = database.prepare(
    'SELECT time, stream, last_change, base, rows FROM source.row_frames WHERE id = ?',
  );
  const insert = database.prepare(
    'INSERT INTO main.row_frames (id, time, stream, last_change, base, rows) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const id of ids) {
    // Another build's frames (another printer) or damaged ones are left out, not reported: a cache's
    // misses cost time, never a wrong row, and their rows cannot be filtered without reading them.
    const frame = reader.guard(`row frame ${id}`, undefined, () => {
      const stored = select.get(id) as
        | { time: number; stream: number; last_change: number; base: number | null; rows: Uint8Array }
        | undefined;
      if (stored === undefined) return undefined;
      let decoded: DecodedRowFrame;
      try {
        decoded = decodeRowFrame(stored.rows, signature);
      } catch {
        return undefined;
      }
      // Written as this build writes frames (an older frame's rows made into texts): a row the frame
      // cannot tell is left out, and decoded from its version, as any row no frame holds.
      const rows: FrameText[] = [];
      for (let at = 0; at < decoded.objects.length; at++) {
        const object = decoded.objects[at];
        if (!exportedObjects.has(object)) continue;
        const text = decoded.text(at, layout);
        if (text === undefined) continue;
        const change = decoded.changes[at];
        rows.push({ object, change, key: decoded.key(at), namespace: decoded.namespace(at), text });
      }
      return { ...stored, rows: encodeRowFrame(rows, signature, layout) };
    });
    if (frame !== undefined)
      insert.run(id, frame.time, frame.stream, frame.last_change, frame.base, frame.rows);
  }
}
