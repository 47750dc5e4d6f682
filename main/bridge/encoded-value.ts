// A reply's value serialized where it was made (a history query worker) and carried as UTF-8 JSON
// bytes from there to a renderer's socket, never parsed or stringified on main. The recorded usage of
// 150,000 pods at a moment (historyMetrics, asked at every travel of the Pods table) is 7 MB of JSON:
// as an object it was structured-cloned to main (deserialized there), stringified into the reply
// and converted to UTF-8 by ws, each pass holding main's thread (50-250 ms in all on a quiet machine,
// four times that under the ui bench's load). As bytes, the worker's buffer is transferred (moved,
// not copied) and main writes the reply's envelope around it (outgoing-message.ts).
//
// Electron's port sends the reply as its text, which the renderer parses (electron-transport.ts); the
// in-memory pair (tests) decodes it into the value it stands for.

export class EncodedValue {
  /** `json`: the UTF-8 bytes of the value's JSON text, which this now owns. */
  constructor(readonly json: Uint8Array) {}

  /** The value the bytes stand for. */
  decode(): unknown {
    return JSON.parse(Buffer.from(this.json.buffer, this.json.byteOffset, this.json.byteLength).toString());
  }
}

/**
 * `value`'s JSON as bytes in a buffer of their own, which postMessage may transfer: Buffer.from would
 * slice a small text from Node's shared pool, and transferring that would detach the pool.
 */
export function jsonBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value));
}
