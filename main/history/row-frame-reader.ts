// Reads a stream's row frames (see row-frame-writer.ts): the frame nearest before a moment and the
// chain of frames it adds to, back to a full frame. The frames are a cache: a change they hold no row
// of is decoded from its version, so a frame that is missing, damaged or printed by another printer
// costs time, never a wrong row.
import type { DecodedRowFrame } from './row-frame-decoder';
import { decodeRowFrame } from './row-frame-decoder';
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
   * Stream -> the frames of its newest chain decoded ahead (see warming), kept in the cache whatever
   * chains moments read meanwhile.
   */
  private readonly warm = new Map<number, Set<number>>();

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
    this.readFrom(reader);
    const head = headAt(reader, stream, lastChange);
    if (head === undefined) return undefined;
    const frames = this.chain(reader, head, printer);
    return frames.length === 0 ? undefined : frames;
  }

  /**
   * Decodes the newest chain of `stream` into the cache ahead of a moment asking for it, a frame per
   * step (a question that comes meanwhile is answered between two steps, with the frames decoded so
   * far). The first travel of a recording then reads the chain of the moments nearest its end
   * decoded (at 150,000 pods, the decode was a third of a cold rebuild's time), and the newest chain
   * stays decoded as frames are added to it.
   */
  *warming(reader: RecordingReader, stream: number, printer: string): Generator<void, void> {
    const recording = this.readFrom(reader);
    const head = headAt(reader, stream, Number.MAX_SAFE_INTEGER);
    if (head === undefined) return;
    const ids = new Set<number>();
    this.warm.set(stream, ids);
    for (let id: number | null = head.id; id !== null && !ids.has(id);) {
      ids.add(id);
      let base: number | null;
      try {
        base = id === head.id ? head.base : baseOf(reader, id);
        if (!this.decoded.has(id)) {
          const rows = rowsOf(reader, id);
          if (rows === undefined) return;
          this.decoded.set(id, decodeRowFrame(rows, printer));
          yield;
          // Another recording read meanwhile: this one's frames are not its cache's.
          if (this.recording !== recording) return;
        }
      } catch {
        // Damaged, another printer's, or the reader closed meanwhile: a moment reads without them.
        return;
      }
      id = base;
    }
  }

  /** Makes the cache `reader`'s (a recording replaced at the same path numbers frames anew). */
  private readFrom(reader: RecordingReader): string {
    const recording = reader.identity;
    if (recording !== this.recording) {
      this.recording = recording;
      this.decoded.clear();
      this.warm.clear();
    }
    return recording;
  }

  /** The frames from `head` down its bases to a full frame, as far as they can be read. */
  private chain(reader: RecordingReader, head: FrameRecord, printer: string): DecodedRowFrame[] {
    const frames: DecodedRowFrame[] = [];
    const kept = new Map<number, DecodedRowFrame>();
    const seen = new Set<number>();
    for (let id: number | null = head.id; id !== null && !seen.has(id);) {
      seen.add(id);
      let frame = this.decoded.get(id);
      let base: number | null;
      try {
        base = id === head.id ? head.base : baseOf(reader, id);
        if (frame === undefined) {
          const rows = rowsOf(reader, id);
          if (rows === undefined) break;
          frame = decodeRowFrame(rows, printer);
        }
      } catch {
        // Damaged or another printer's: the frames read so far are still right.
        break;
      }
      frames.push(frame);
      kept.set(id, frame);
      id = base;
    }
    // The cache keeps this chain (a moment nearby reads it again), the chains decoded ahead, and
    // what else fits.
    for (const ids of this.warm.values())
      for (const id of ids) {
        const frame = this.decoded.get(id);
        if (frame !== undefined) kept.set(id, frame);
      }
    for (const [id, frame] of this.decoded) {
      if (kept.size >= cachedFrames) break;
      if (!kept.has(id)) kept.set(id, frame);
    }
    this.decoded.clear();
    for (const [id, frame] of kept) this.decoded.set(id, frame);
    return frames;
  }
}

/** The frame of `stream` nearest before change `lastChange` (its last change at or before it). */
function headAt(reader: RecordingReader, stream: number, lastChange: number): FrameRecord | undefined {
  try {
    return reader.database
      .prepare(
        'SELECT id, base FROM row_frames WHERE stream = ? AND last_change <= ? ORDER BY last_change DESC, id DESC LIMIT 1',
      )
      .get(stream, lastChange) as FrameRecord | undefined;
  } catch {
    return undefined;
  }
}

function baseOf(reader: RecordingReader, id: number): number | null {
  const select = reader.database.prepare('SELECT base FROM row_frames WHERE id = ?').pluck();
  return (select.get(id) as number | null | undefined) ?? null;
}

function rowsOf(reader: RecordingReader, id: number): Uint8Array | undefined {
  return reader.database.prepare('SELECT rows FROM row_frames WHERE id = ?').pluck().get(id) as
    Uint8Array | undefined;
}
