// The text column of a LogBuffer, packed: slots are grouped in chunks of 1,024, and a chunk no longer
// written to is joined into one string with an offsets table. A million held lines are then about a
// thousand strings to the garbage collector instead of a million: V8's mark-compact pause over a full
// log view drops from ~100 ms to a few, and each line saves its string header. Reading a packed slot
// returns a slice (cheap, and only the visible rows and new lines are read in a frame); writing to a
// packed chunk unpacks it first, which the buffer's writes (at the tail, or a few lines before it)
// make rare.

const chunkBits = 10;
const chunkSize = 1 << chunkBits;
const slotMask = chunkSize - 1;

export class PackedTexts {
  /** Chunks being written, as plain arrays. */
  private readonly open = new Map<number, string[]>();
  private readonly packed: (string | undefined)[];
  private readonly offsets: (Uint32Array | undefined)[];

  constructor(readonly size: number) {
    const chunks = Math.ceil(size / chunkSize);
    this.packed = new Array<string | undefined>(chunks).fill(undefined);
    this.offsets = new Array<Uint32Array | undefined>(chunks).fill(undefined);
  }

  /** The same texts with room for `size` slots (the chunks are shared, not copied). */
  resized(size: number): PackedTexts {
    const resized = new PackedTexts(size);
    for (const [chunk, texts] of this.open) resized.open.set(chunk, texts);
    for (let chunk = 0; chunk < Math.min(this.packed.length, resized.packed.length); chunk++) {
      resized.packed[chunk] = this.packed[chunk];
      resized.offsets[chunk] = this.offsets[chunk];
    }
    return resized;
  }

  get(slot: number): string {
    const chunk = slot >> chunkBits;
    const texts = this.open.get(chunk);
    if (texts) return texts[slot & slotMask] ?? '';
    const packed = this.packed[chunk];
    if (packed === undefined) return '';
    const offsets = this.offsets[chunk]!;
    const index = slot & slotMask;
    return packed.slice(offsets[index], offsets[index + 1]);
  }

  set(slot: number, text: string): void {
    this.unpacked(slot >> chunkBits)[slot & slotMask] = text;
  }

  /** Packs every open chunk but the one holding `slot` (where the next line will be written). */
  packAllBut(slot: number): void {
    const keep = slot >> chunkBits;
    for (const chunk of [...this.open.keys()]) if (chunk !== keep) this.pack(chunk);
  }

  private unpacked(chunk: number): string[] {
    let texts = this.open.get(chunk);
    if (texts) return texts;
    texts = new Array<string>(chunkSize).fill('');
    const packed = this.packed[chunk];
    if (packed !== undefined) {
      const offsets = this.offsets[chunk]!;
      for (let index = 0; index < chunkSize; index++)
        texts[index] = packed.slice(offsets[index], offsets[index + 1]);
      this.packed[chunk] = undefined;
      this.offsets[chunk] = undefined;
    }
    this.open.set(chunk, texts);
    return texts;
  }

  private pack(chunk: number): void {
    const texts = this.open.get(chunk)!;
    const offsets = new Uint32Array(chunkSize + 1);
    let length = 0;
    for (let index = 0; index < chunkSize; index++) {
      offsets[index] = length;
      length += texts[index].length;
    }
    offsets[chunkSize] = length;
    this.packed[chunk] = texts.join('');
    this.offsets[chunk] = offsets;
    this.open.delete(chunk);
  }
}
