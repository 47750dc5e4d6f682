// A list's versions stored in blocks: the texts of the objects a list (the initial one, a relist, a
// resync) names are written one after another into a block, deflated as one stream, and each
// object's change points into it (VersionEncoding.block: the block's id, where its text starts and
// how long it is). A list names tens of thousands of objects at once; stored one by one, each
// version cost a zlib stream set up against a sibling's text (or a text delta against it) and its
// own payload's pages, most of the recording worker's time for a list. A block's one stream finds
// what neighbouring objects share (pods of one ReplicaSet, listed together) by itself.
//
// A block is written in the transaction of the changes that point into it, so a change never names
// a block that is not on disk. Blocks are never rewritten: retention drops a block once every change
// pointing into it is gone (each change's own id is below the block's last_change), an export
// rewrites the versions it copies whole (see exported-versions.ts).
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { SqliteDatabase } from './schema';

/**
 * Texts a block holds before it is written: a pod's JSON is 2-3 KB, so about 50 of them. Deflate's
 * window is 32 KiB, so a longer block compresses no better; a shorter one is cheaper to read alone
 * (a detail view, an object's history inflate its version's whole block), and costs a stream's
 * set-up (a few us) per 50 objects instead of per object.
 */
export const blockTextBytes = 128 * 1024;

/**
 * Level 3 (greedy matching): measured on 5,000 embedded-cluster pods in 1 MiB blocks, 3.6 us and 134
 * bytes a pod, against level 6's 8.9 us and 101 bytes, level 1's 5.8 us and 140 bytes. A pod stored
 * alone (deflated, or a delta against a sibling) took 15-30 us and 288 bytes.
 */
const blockZlib = { level: 3, chunkSize: 64 * 1024 } as const;

/** Inflated blocks a reader keeps: a moment read in key order walks the list's blocks in turn. */
const blocksKept = 16;

/** Where a version's text is: a block, and the text's bytes in the block's inflated stream. */
export interface BlockReference {
  readonly block: number;
  readonly offset: number;
  readonly length: number;
}

/** A block reference as a change's payload: three varints. */
export function encodeBlockReference({ block, offset, length }: BlockReference): Buffer {
  const bytes: number[] = [];
  for (const value of [block, offset, length]) {
    let rest = value;
    while (rest >= 0x80) {
      bytes.push((rest % 128) | 0x80);
      rest = Math.floor(rest / 128);
    }
    bytes.push(rest);
  }
  return Buffer.from(bytes);
}

export function decodeBlockReference(payload: Uint8Array): BlockReference {
  const values: number[] = [];
  let offset = 0;
  while (values.length < 3) {
    let value = 0;
    let factor = 1;
    for (;;) {
      if (offset >= payload.length) throw new Error('a block reference ends mid-number');
      const byte = payload[offset++];
      value += (byte & 0x7f) * factor;
      if (byte < 0x80) break;
      factor *= 128;
    }
    values.push(value);
  }
  return { block: values[0], offset: values[1], length: values[2] };
}

/** Collects texts into the block being filled, and writes it (call flush before each commit). */
export class ChangeBlockWriter {
  private texts: Buffer[] = [];
  private bytes = 0;
  private lastChange = 0;
  /** The id the block being filled will have. */
  private nextId: number;
  private readonly insert;
  private readonly selectLast;

  constructor(database: SqliteDatabase) {
    this.selectLast = database.prepare('SELECT coalesce(max(id), 0) FROM change_blocks').pluck();
    this.insert = database.prepare('INSERT INTO change_blocks (id, last_change, payload) VALUES (?, ?, ?)');
    this.nextId = (this.selectLast.get() as number) + 1;
  }

  /** Adds `text`, the version of change `change`; returns the payload that points to it. */
  add(text: Buffer, change: number): Buffer {
    const reference = encodeBlockReference({ block: this.nextId, offset: this.bytes, length: text.length });
    this.texts.push(text);
    this.bytes += text.length;
    this.lastChange = change;
    if (this.bytes >= blockTextBytes) this.flush();
    return reference;
  }

  /** Writes the block being filled, if it holds anything. */
  flush(): void {
    if (this.texts.length === 0) return;
    this.insert.run(
      this.nextId,
      this.lastChange,
      deflateRawSync(Buffer.concat(this.texts, this.bytes), blockZlib),
    );
    this.nextId++;
    this.texts = [];
    this.bytes = 0;
  }

  /** Drops the block being filled: its transaction rolled back (and with it any block it wrote). */
  discard(): void {
    this.texts = [];
    this.bytes = 0;
    this.nextId = (this.selectLast.get() as number) + 1;
  }
}

/** Reads versions out of blocks, keeping the last few inflated. */
export class ChangeBlockReader {
  private readonly inflated = new Map<number, Buffer>();
  /** Prepared when first needed: a recording older than format 7 has no change_blocks table. */
  private select: ((id: number) => unknown) | undefined;

  constructor(private readonly database: SqliteDatabase) {}

  /** The text `payload` (a block reference) points to. */
  text(payload: Uint8Array): string {
    const { block, offset, length } = decodeBlockReference(payload);
    const bytes = this.block(block);
    if (offset + length > bytes.length) throw new Error(`block ${block} ends before the version it holds`);
    return bytes.toString('utf8', offset, offset + length);
  }

  private block(id: number): Buffer {
    const known = this.inflated.get(id);
    if (known !== undefined) {
      // Most recently used last: the first key is the one to evict.
      this.inflated.delete(id);
      this.inflated.set(id, known);
      return known;
    }
    if (this.select === undefined) {
      const statement = this.database.prepare('SELECT payload FROM change_blocks WHERE id = ?').pluck();
      this.select = (block) => statement.get(block);
    }
    const payload = this.select(id) as Uint8Array | undefined;
    if (payload === undefined) throw new Error(`block ${id} is missing`);
    const bytes = inflateRawSync(payload, { chunkSize: blockZlib.chunkSize });
    if (this.inflated.size >= blocksKept) this.inflated.delete(this.inflated.keys().next().value!);
    this.inflated.set(id, bytes);
    return bytes;
  }
}
