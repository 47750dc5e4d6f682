// Reads a stream's row frames (see row-frame-writer.ts): the frame nearest before a moment and the
// chain of frames it adds to, back to a full frame. The frames are a cache: a change they hold no row
// of is decoded from its version, so a frame that is missing, damaged or printed by another printer
// costs time, never a wrong row.
import { DecodedRowFrame } from './row-frame-decoder';
import type { RecordingReader } from './recording-reader';

/**
 * A chain of frames: the frame nearest before a moment, then each one it adds to, down to the chain's
 * full frame (or as far as they can be read). Any frame's row of a change is the same row (a change
 * names one version for good), so a reader may take a change's row from whichever holds it.
 */
export type FrameChain = readonly DecodedRowFrame[];

interface FrameRecord {
  readonly id: number;
  readonly base: number | null;
}

/** Frames kept decoded, by id: a chain's full frame and its deltas serve every moment up to the next. */
const cachedFrames = 64;

export class RowFrameReader {
  private recording = '';
  private readonly decoded = new Map<number, DecodedRowFrame>();

  /**
   * The chain of frames of `stream` that precedes change `lastChange`, printed by the printer
   * `printer` (its signature), or undefined when there are none to read (an older format, a kind not
   * framed, or damage: unreadable frames are skipped, never reported, as a cache's misses are).
   */
  chainAt(
    reader: RecordingReader,
    stream: number,
    lastChange: number,
    printer: string,
  ): FrameChain | undefined {
    const recording = `${reader.file} ${reader.metadata.created}`;
    if (recording !== this.recording) {
      this.recording = recording;
      this.decoded.clear();
    }
    let head: FrameRecord | undefined;
    try {
      head = reader.database
        .prepare(
          'SELECT id, base FROM row_frames WHERE stream = ? AND last_change <= ? ORDER BY last_change DESC, id DESC LIMIT 1',
        )
        .get(stream, lastChange) as FrameRecord | undefined;
    } catch {
      return undefined;
    }
    if (head === undefined) return undefined;
    const frames = this.chain(reader, head, printer);
    return frames.length === 0 ? undefined : frames;
  }

  /** The frames from `head` down its bases to a full frame, as far as they can be read. */
  private chain(reader: RecordingReader, head: FrameRecord, printer: string): DecodedRowFrame[] {
    const selectBase = reader.database.prepare('SELECT base FROM row_frames WHERE id = ?').pluck();
    const selectRows = reader.database.prepare('SELECT rows FROM row_frames WHERE id = ?').pluck();
    const frames: DecodedRowFrame[] = [];
    const kept = new Map<number, DecodedRowFrame>();
    const seen = new Set<number>();
    for (let id: number | null = head.id; id !== null && !seen.has(id);) {
      seen.add(id);
      let frame = this.decoded.get(id);
      let base: number | null;
      try {
        base = id === head.id ? head.base : ((selectBase.get(id) as number | null | undefined) ?? null);
        if (frame === undefined) {
          const rows = selectRows.get(id) as Uint8Array | undefined;
          if (rows === undefined) break;
          frame = new DecodedRowFrame(rows, printer);
        }
      } catch {
        // Damaged or another printer's: the frames read so far are still right.
        break;
      }
      frames.push(frame);
      kept.set(id, frame);
      id = base;
    }
    // The cache keeps this chain (a moment nearby reads it again) and what else fits.
    for (const [id, frame] of this.decoded) {
      if (kept.size >= cachedFrames) break;
      if (!kept.has(id)) kept.set(id, frame);
    }
    this.decoded.clear();
    for (const [id, frame] of kept) this.decoded.set(id, frame);
    return frames;
  }
}
