// A row frame as written since session 32 (see row-frame-codec.ts): each row stored as the text a
// travel sends it as, one line a row. A moment takes a row's text as it is; a row is parsed from its
// text only when one is asked for (playback, an export, a travel under another layout).
import type { Row } from '../../shared/protocol/row';
import type { RowLayout } from '../../shared/protocol/row-tuples';
import { isLayout, rowsFromTuples, sameLayout } from '../../shared/protocol/row-tuples';
import type { StoredTupleFrame } from './row-frame-codec';
import type { ColumnReader } from './row-frame-columns';
import { reader } from './row-frame-columns';
import type { DecodedRowFrame } from './row-frame-decoder';
import { rowText } from './replay-layout';

export class TupleRowFrame implements DecodedRowFrame {
  readonly objects: readonly number[];
  readonly changes: readonly number[];
  private readonly namespaces: ColumnReader;
  /** Row by row, its text under `layout`: slices of the frame's text (split, not parsed). */
  private readonly texts: readonly string[];
  private readonly layout: RowLayout;
  /** The layout last asked for, and whether it is the frame's: a travel asks with one per kind. */
  private asked: RowLayout | undefined;
  private askedIsOwn = false;

  /**
   * `stored`, the header of the frame whose `text` holds its rows' lines from `rowsStart` on; throws
   * when they are not a text and a namespace per row.
   */
  constructor(stored: StoredTupleFrame, text: string, rowsStart: number) {
    const length = stored.changes.length;
    if (!isLayout(stored.layout)) throw new Error('row frame: not a row frame');
    const texts = length === 0 ? [] : text.slice(rowsStart).split('\n');
    if (texts.length !== length) throw new Error('row frame: a column does not hold a value per row');
    this.objects = stored.objects;
    this.changes = stored.changes;
    this.namespaces = reader(stored.namespace, length);
    this.texts = texts;
    this.layout = stored.layout;
  }

  /**
   * The tuple's first value, as its text holds it (a key has no character JSON escapes but in a name
   * no API server accepts): a slice of the row's text, not a parse of it, nor a column of its own (a
   * key stored twice cost a seventh of a frame's bytes).
   */
  key(index: number): string {
    const text = this.texts[index];
    const key = text.slice(2, text.indexOf('"', 2));
    if (!key.includes('\\')) return key;
    try {
      return String((JSON.parse(text) as unknown[])[0]);
    } catch {
      return key; // A damaged row: its text fails the renderer's checks, as it would anyway.
    }
  }

  namespace(index: number): string {
    return this.namespaces(index) as string;
  }

  text(index: number, layout: RowLayout): string | undefined {
    if (layout !== this.asked) {
      this.asked = layout;
      this.askedIsOwn = sameLayout(layout, this.layout);
    }
    if (this.askedIsOwn) return this.texts[index];
    // Written by another build, whose replay layout differed: the row, written again.
    const row = this.row(index);
    return row === undefined ? undefined : rowText(row, layout);
  }

  row(index: number): Row | undefined {
    let tuple: unknown;
    try {
      tuple = JSON.parse(this.texts[index]);
    } catch {
      return undefined;
    }
    return rowsFromTuples([tuple], this.layout)?.[0];
  }
}
