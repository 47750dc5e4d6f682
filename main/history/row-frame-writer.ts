// Writes row frames beside a recording's changes: the table rows of each printed kind, so that a
// moment's rows come from the nearest frames instead of decoding every live object's version (see
// row-frame-reader.ts). A frame maps change ids to the rows their versions project to: a cache of what
// the versions say, never the only truth. A reader takes from it the rows of the changes a moment
// holds, and decodes any other.
//
// A delta frame holds the rows of the objects changed since the frame before it, each projected once
// however often it changed: written every intervalMs of recorded time, or sooner once everyObjects
// objects changed. A moment decodes the versions of the objects changed since the last frame (about
// 150 us each at 150,000 pods, most of it inflating their chains): never more than everyObjects,
// whatever the interval. The interval sets how often objects that change again and again are
// projected (a parse of their text, 20-30 us): 1,000 pods changing 1,500 times a second were
// projected once per 3 changes at 2 s (9 us of the worker's 30-40 per change), once per 15 at 10 s
// (2 us), for a fifth of the frames' bytes; a moment among them decodes at most those 1,000 either
// way. Broad churn (each change another object's) reaches everyObjects first, at any interval: at
// 2,000 changes/s over 150,000 pods, a frame a second, 1,000 objects to decode on average.
//
// A full frame holds every live object's row, sorted by key, and starts a new chain once the deltas
// since the last full frame hold twice as many rows as the stream has live objects: a moment reads at most three times the rows it shows (a delta's row is parsed, but built only if the
// moment shows it), and the writer projects every live object once per two live objects' changes.
import { parseGvrKey } from '../../shared/kube/object';
import type { KubeObject } from '../../shared/kube/object';
import { printerFor } from '../../shared/kinds/columns';
import type { KindPrinter } from '../../shared/kinds/columns';
import { RowProjector } from '../bridge/row-projection';
import type { RowLayout } from '../../shared/protocol/row-tuples';
import { replayLayout, rowText } from './replay-layout';
import type { FrameText } from './row-frame-codec';
import { encodeRowFrame, printerSignature, storable } from './row-frame-codec';
import type { SqliteDatabase } from './schema';

export interface RowFrameOptions {
  /** A delta frame once this long passed since the last frame, if anything changed (default 10 s). */
  readonly intervalMs?: number;
  /** Or sooner, once this many of a stream's objects changed since its last frame (default 2,000). */
  readonly everyObjects?: number;
}

/**
 * A live object as the frames know it: the change holding its version, and that version's captured
 * text until a frame projects it (the text is the writer's own buffer, not a copy), then only its row
 * as frames store it (its text under the kind's layout, key and namespace; null when no frame can
 * store it, see storable). That, not a parsed tree, is what stays: a full frame needs every live row,
 * so a row projected and written once serves every frame until its object changes. (A pod's row held
 * about 800 bytes of heap as an object; its tuple's text is ~300 characters.)
 */
interface LiveObject {
  readonly change: number;
  text: Buffer | undefined;
  row: StoredRow | null | undefined;
}

type StoredRow = Omit<FrameText, 'object' | 'change'>;

interface FramedStream {
  readonly id: number;
  readonly projector: RowProjector;
  readonly signature: string;
  /** How its rows' texts are written (replay-layout.ts): as a travel sends them. */
  readonly layout: RowLayout;
  /** Object id -> the change holding its current version, and that version. */
  readonly live: Map<number, LiveObject>;
  /** Objects changed since the last frame (a subset of live). */
  readonly changed: Set<number>;
  lastFrameTime: number;
  /** The last frame written of this stream's chain; undefined: the next is a full frame. */
  lastFrame: number | undefined;
  /** Rows written in delta frames since the chain's full frame. */
  deltaRows: number;
}

/**
 * Whether rows of `printer` can be kept: a printer whose cells read the clock (a running Job's
 * duration) projects a row at each travel's `now`, so a row kept from the recording's time would be
 * wrong. A printer's `cells` that declares no `now` parameter cannot read it.
 */
export function printerKeepsRows(printer: KindPrinter): boolean {
  return printer.cells.length < 2;
}

/** Rows of delta frames a chain holds, per live object, before a full frame starts the next one. */
const fullFrameRatio = 2;

export class RowFrameWriter {
  private readonly streams = new Map<number, FramedStream>();
  private readonly everyObjects: number;
  private readonly intervalMs: number;
  private readonly insert;

  constructor(database: SqliteDatabase, options: RowFrameOptions = {}) {
    this.everyObjects = options.everyObjects ?? 2_000;
    this.intervalMs = options.intervalMs ?? 10_000;
    this.insert = database.prepare(
      'INSERT INTO row_frames (time, stream, last_change, base, rows) VALUES (?, ?, ?, ?, ?)',
    );
  }

  /** Starts framing `stream` of kind `gvr` (a key such as "pods.v1"), unless its printer reads the clock. */
  stream(stream: number, gvr: string): void {
    if (this.streams.has(stream)) return;
    const printer = printerFor(parseGvrKey(gvr));
    if (!printerKeepsRows(printer)) return;
    this.streams.set(stream, {
      id: stream,
      projector: new RowProjector(printer),
      signature: printerSignature(printer),
      layout: replayLayout(printer),
      live: new Map(),
      changed: new Set(),
      lastFrameTime: Number.NEGATIVE_INFINITY,
      lastFrame: undefined,
      deltaRows: 0,
    });
  }

  /**
   * Change `change` holds `object`'s version, whose JSON is `text` (undefined: the object was
   * deleted); `previous` is the text of the object's version before it, when the writer still holds
   * it. A version whose text is its predecessor's (a relist, a resync: every object of a cache sent
   * again as it was) projects to the same row, which is kept rather than parsed and projected again.
   */
  changed(stream: number, object: number, change: number, text: Buffer | undefined, previous?: Buffer): void {
    const state = this.streams.get(stream);
    if (!state) return;
    if (text === undefined) {
      state.live.delete(object);
      state.changed.delete(object);
      return;
    }
    const known = state.live.get(object);
    // A live object's row, when it has one, projects the last text it was told of: the previous one.
    const same = known !== undefined && previous !== undefined && text.equals(previous);
    state.live.set(object, {
      change,
      text: same && known.row !== undefined ? undefined : text,
      row: same ? known.row : undefined,
    });
    state.changed.add(object);
  }

  /** `stream`'s objects are unknown (a new session, a failed batch): the next frame starts a chain. */
  reset(stream: number): void {
    const state = this.streams.get(stream);
    if (!state) return;
    state.live.clear();
    state.changed.clear();
    state.lastFrame = undefined;
  }

  /** As reset, for every stream. */
  resetAll(): void {
    for (const stream of this.streams.keys()) this.reset(stream);
  }

  /** The next frame of every stream is a full one (the frames before it may be gone). */
  restartChains(): void {
    for (const state of this.streams.values()) state.lastFrame = undefined;
  }

  /** Writes the frames due at `time`, `lastChange` being the last change written so far. */
  writeDue(time: number, lastChange: number): void {
    for (const state of this.streams.values()) {
      const due =
        state.changed.size >= this.everyObjects ||
        (state.changed.size > 0 && time - state.lastFrameTime >= this.intervalMs) ||
        (state.lastFrame === undefined && state.live.size > 0);
      if (due) this.write(state, time, lastChange);
    }
  }

  private write(state: FramedStream, time: number, lastChange: number): void {
    const full =
      state.lastFrame === undefined ||
      state.deltaRows + state.changed.size > fullFrameRatio * state.live.size;
    const objects = full ? state.live.keys() : state.changed.values();
    const rows: FrameText[] = [];
    for (const object of objects) {
      const live = state.live.get(object)!;
      if (live.text !== undefined) {
        const row = state.projector.project(JSON.parse(live.text.toString()) as KubeObject, time);
        const { key, namespace } = row;
        live.row = storable(row, state.layout) ? { key, namespace, text: rowText(row, state.layout) } : null;
        live.text = undefined;
      }
      if (live.row) rows.push({ object, change: live.change, ...live.row });
    }
    // Sorted as a moment lists them, so a moment built from the frame is all but sorted already.
    if (full) rows.sort(byKey);
    const result = this.insert.run(
      time,
      state.id,
      lastChange,
      full ? null : state.lastFrame!,
      encodeRowFrame(rows, state.signature, state.layout),
    );
    state.lastFrame = Number(result.lastInsertRowid);
    state.deltaRows = full ? 0 : state.deltaRows + rows.length;
    state.changed.clear();
    state.lastFrameTime = time;
  }
}

/**
 * By key, as a moment from frames orders its rows (row-frame-moment.ts): a stored row's key is
 * objectKey(namespace, name), and a kind's rows are all namespaced or all not.
 */
function byKey(left: FrameText, right: FrameText): number {
  const a = left.key;
  const b = right.key;
  return a < b ? -1 : a > b ? 1 : 0;
}
