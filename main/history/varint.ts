// Unsigned varints (7 bits a byte, lowest first, the high bit set on every byte but the last), the
// numbers of a keyframe's members and of a block reference. Arithmetic, not bit operators: ids may
// pass 2^31.

/** Appends `value` to `bytes`. */
export function writeVarint(bytes: number[], value: number): void {
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 128) | 0x80);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
}

/** Reads varints from `bytes` one after another; `what` names the bytes in the error of a cut one. */
export class VarintCursor {
  private offset = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly what: string,
  ) {}

  get atEnd(): boolean {
    return this.offset >= this.bytes.length;
  }

  read(): number {
    let value = 0;
    let factor = 1;
    for (;;) {
      if (this.offset >= this.bytes.length) throw new Error(`${this.what}: cut mid-number`);
      const byte = this.bytes[this.offset++];
      value += (byte & 0x7f) * factor;
      if (byte < 0x80) return value;
      factor *= 128;
    }
  }
}
