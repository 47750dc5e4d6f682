// The rows of a snapshot that a BatchStream has yet to send, in the order they were given: rows (a
// feed's, or a past moment projected on main), cut into batches of any size, or chunks still encoded
// as text (a past moment projected in the history query worker, see EncodedRows), which are never
// cut or parsed here: a batch takes whole chunks, joined up to its size.
import type { Row } from '../../shared/protocol/row';
import type { EncodedRows } from './encoded-rows';
import { joinedRows } from './encoded-rows';

type Piece = { readonly rows: Row[] } | { readonly encoded: EncodedRows };

export class SnapshotRows {
  private readonly pieces: Piece[] = [];
  /** Rows of the first piece already taken (rows pieces only). */
  private offset = 0;
  private count = 0;
  /** The array the snapshot started with: the caller's, read but never added to. */
  private readonly given: Row[] | undefined;

  constructor(rows?: Row[]) {
    if (rows !== undefined && rows.length > 0) {
      this.pieces.push({ rows });
      this.given = rows;
      this.count = rows.length;
    }
  }

  /** Rows not yet taken. */
  get size(): number {
    return this.count;
  }

  add(chunk: readonly Row[] | EncodedRows): void {
    if ('json' in chunk) {
      if (chunk.keys.length === 0) return;
      this.pieces.push({ encoded: chunk });
      this.count += chunk.keys.length;
      return;
    }
    if (chunk.length === 0) return;
    const last = this.pieces.at(-1);
    if (last !== undefined && 'rows' in last && last.rows !== this.given) {
      for (const row of chunk) last.rows.push(row);
    } else {
      this.pieces.push({ rows: [...chunk] });
    }
    this.count += chunk.length;
  }

  /** How many rows `take(max)` would take now. */
  nextSize(max: number): number {
    const first = this.pieces[0];
    if (first === undefined) return 0;
    if ('rows' in first) return Math.min(max, first.rows.length - this.offset);
    let size = first.encoded.keys.length;
    for (let at = 1; at < this.pieces.length; at++) {
      const piece = this.pieces[at];
      if (!('encoded' in piece) || size + piece.encoded.keys.length > max) break;
      size += piece.encoded.keys.length;
    }
    return size;
  }

  /**
   * The next batch's upserts: up to `max` rows of the first piece, or the encoded chunks that fit in
   * `max` rows (at least one, whatever its size). Empty when nothing is left.
   */
  take(max: number): Row[] | EncodedRows {
    const first = this.pieces[0];
    if (first === undefined) return [];
    const size = this.nextSize(max);
    this.count -= size;
    if ('rows' in first) {
      const rows = first.rows.slice(this.offset, this.offset + size);
      this.offset += size;
      if (this.offset >= first.rows.length) {
        this.pieces.shift();
        this.offset = 0;
      }
      return rows;
    }
    const parts: EncodedRows[] = [];
    for (let taken = 0; taken < size;) {
      const piece = this.pieces.shift() as { readonly encoded: EncodedRows };
      parts.push(piece.encoded);
      taken += piece.encoded.keys.length;
    }
    return joinedRows(parts);
  }
}
