// Playback's rows from the recording's row frames, in the query worker: a frame holds the row of each
// object changed since the frame before it, projected when it was written, by change id (see
// row-frame-writer.ts). A change played is the object's version until the next frame unless the object
// changes again before it, so the first frame written at or after the change holds its row, which
// costs a lookup in a decoded frame (a frame of 2,000 rows decodes in a few ms) instead of inflating
// the version's chain, parsing it and projecting it (~55 us a pod). A list's burst is rows of that
// kind: each object listed once, then framed. A change no frame holds (changed again before the next
// frame, or recorded after the last one) is decoded as without frames: the frames are a cache.
import type { Row } from '../../shared/protocol/row';
import type { RecordingReader } from './recording-reader';
import type { DecodedRowFrame } from './row-frame-decoder';
import { decodeRowFrame } from './row-frame-decoder';

interface FrameRecord {
  readonly id: number;
  readonly lastChange: number;
}

/** A frame decoded, with its rows by change id; null when it cannot be read (damage, another printer). */
type Decoded = { readonly frame: DecodedRowFrame; readonly byChange: Map<number, number> } | null;

/** Frames asked of SQLite at once, per stream: the next ones a playback reaches. */
const framesPerQuery = 16;
/** Frames kept decoded: the one a page's changes fall before, and the next (a page spans two). */
const framesKept = 4;

export class PlaybackFrameRows {
  /** Stream -> the frames at or after the last change asked about, oldest first. */
  private readonly upcoming = new Map<number, FrameRecord[]>();
  /** Stream -> no frame of it was written at or after this change (nothing to ask until then). */
  private readonly noneFrom = new Map<number, number>();
  private readonly decoded = new Map<number, Decoded>();
  private readonly select;

  constructor(
    private readonly reader: RecordingReader,
    /** The printer's signature (printerSignature): rows of another printer are not the player's rows. */
    private readonly printer: string,
  ) {
    this.select = reader.database.prepare(
      'SELECT id, last_change AS lastChange FROM row_frames WHERE stream = ? AND last_change >= ? ORDER BY last_change, id LIMIT ?',
    );
  }

  /**
   * The row of change `change` of `stream` as a frame holds it, if one does. Changes are asked about
   * in recorded order (ids ascending), as playback reads them.
   */
  row(stream: number, change: number): Row | undefined {
    const record = this.frameAfter(stream, change);
    if (record === undefined) return undefined;
    const decoded = this.decode(record.id);
    const index = decoded?.byChange.get(change);
    return index === undefined ? undefined : decoded!.frame.row(index);
  }

  /** The first frame of `stream` written at or after `change` (its last change at or after it). */
  private frameAfter(stream: number, change: number): FrameRecord | undefined {
    let frames = this.upcoming.get(stream) ?? [];
    let first = 0;
    while (first < frames.length && frames[first]!.lastChange < change) first++;
    if (first > 0) frames = frames.slice(first);
    if (frames.length === 0) {
      const none = this.noneFrom.get(stream);
      if (none !== undefined && change >= none) return undefined;
      frames = this.reader.guard('row frames', [], () =>
        this.select.all(stream, change, framesPerQuery),
      ) as FrameRecord[];
      if (frames.length === 0) this.noneFrom.set(stream, change);
    }
    this.upcoming.set(stream, frames);
    return frames[0];
  }

  private decode(id: number): Decoded {
    const known = this.decoded.get(id);
    if (known !== undefined) return known;
    let decoded: Decoded = null;
    try {
      const blob = this.reader.database
        .prepare('SELECT rows FROM row_frames WHERE id = ?')
        .pluck()
        .get(id) as Uint8Array | undefined;
      if (blob !== undefined) {
        const frame = decodeRowFrame(blob, this.printer);
        const byChange = new Map<number, number>();
        for (const [index, change] of frame.changes.entries()) byChange.set(change, index);
        decoded = { frame, byChange };
      }
    } catch {
      // Damaged or another printer's: its changes are decoded from their versions, as a cache's misses.
    }
    this.decoded.set(id, decoded);
    if (this.decoded.size > framesKept) this.decoded.delete(this.decoded.keys().next().value!);
    return decoded;
  }
}
