// A list's versions stored in blocks: the texts of the objects a list (the initial one, a relist, a
// resync) names are written one after another into a block, deflated as one stream, and each
// object's change points into it (VersionEncoding.block: the block's id, where its text starts and
// how long it is). A list names tens of thousands of objects at once; stored one by one, each
// version cost a zlib stream set up against a sibling's text (or a text delta against it) and its
// own payload's pages, most of the recording worker's time for a list. A block's one stream finds
// what neighbouring objects share (pods of one ReplicaSet, listed together) by itself.
//
// A list's objects are grouped into blocks by namespace: a moment is read in key order (namespace,
// then name), and a list comes in the cache's order, which may interleave namespaces; blocks of one
// namespace each keep that read to one block after another instead of inflating every block of the
// list again for each namespace.
//
// A block is written in the transaction of the changes that point into it, so a change never names
// a block that is not on disk. Blocks are never rewritten: retention drops a block once every change
// pointing into it is gone (each change's own id is below the block's last_change), an export
// rewrites the versions it copies whole (see exported-versions.ts).
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { SqliteDatabase } from './schema';
import { VarintCursor, writeVarint } from './varint';

/**
 * Texts a block holds before it is written: a pod's JSON is 2-3 KB, so about 25 of them. Deflate's
 * window is 32 KiB, so a longer block compresses no better; a shorter one is cheaper to read alone
 * (a detail view, an object's history inflate its version's whole block), and costs a stream's
 * set-up (a few us) per 25 objects instead of per object.
 */
export const blockTextBytes = 64 * 1024;

/** Namespaces given blocks of their own in one transaction; the others' objects share one. */
const groupsKept = 32;

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
  for (const value of [block, offset, length]) writeVarint(bytes, value);
  return Buffer.from(bytes);
}

export function decodeBlockReference(payload: Uint8Array): BlockReference {
  const cursor = new VarintCursor(payload, 'a block reference');
  return { block: cursor.read(), offset: cursor.read(), length: cursor.read() };
}

/** A block being filled: its id is given out with its first text. */
interface PendingBlock {
  readonly id: number;
  readonly texts: Buffer[];
  bytes: number;
  lastChange: number;
}

/** Collects texts into the blocks being filled, and writes them (call flush before each commit). */
export class ChangeBlockWriter {
  /** The blocks being filled, by namespace ('' also for the namespaces past groupsKept). */
  private readonly pending = new Map<string, PendingBlock>();
  /** The id the next block will have. */
  private nextId: number;
  private readonly insert;
  private readonly selectLast;

  constructor(database: SqliteDatabase) {
    this.selectLast = database.prepare('SELECT coalesce(max(id), 0) FROM change_blocks').pluck();
    this.insert = database.prepare('INSERT INTO change_blocks (id, last_change, payload) VALUES (?, ?, ?)');
    this.nextId = (this.selectLast.get() as number) + 1;
  }

  /** Adds `text`, the version of change `change` of an object in `namespace`; returns its payload. */
  add(text: Buffer, change: number, namespace: string): Buffer {
    const group = this.pending.has(namespace) || this.pending.size < groupsKept ? namespace : '';
    let block = this.pending.get(group);
    if (block === undefined) {
      block = { id: this.nextId++, texts: [], bytes: 0, lastChange: 0 };
      this.pending.set(group, block);
    }
    const reference = encodeBlockReference({ block: block.id, offset: block.bytes, length: text.length });
    block.texts.push(text);
    block.bytes += text.length;
    block.lastChange = change;
    if (block.bytes >= blockTextBytes) {
      this.write(block);
      this.pending.delete(group);
    }
    return reference;
  }

  /** Writes the blocks being filled. */
  flush(): void {
    for (const block of this.pending.values()) this.write(block);
    this.pending.clear();
  }

  /** Drops the blocks being filled: their transaction rolled back (and with it any block it wrote). */
  discard(): void {
    this.pending.clear();
    this.nextId = (this.selectLast.get() as number) + 1;
  }

  private write(block: PendingBlock): void {
    const text = Buffer.concat(block.texts, block.bytes);
    this.insert.run(block.id, block.lastChange, deflateRawSync(text, blockZlib));
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
