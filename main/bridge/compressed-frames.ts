// The WebSocket bridge's large messages, deflated. A listing's batches are ~1.1 MB of JSON text each
// (2,000 rows), and in browser mode every byte crosses Chromium's network service and then a data
// pipe into the page's process. A bare page at load 22 took 8 such messages (4.9 MiB) in 3.1-4.0 s,
// and the same deflated in 1.7-3.1 s, with less of main's CPU (0.22-0.27 -> 0.13-0.15 s, deflate
// included). Row JSON repeats its field names, label keys and values: raw deflate at level 1 makes a
// real batch 7.4x smaller for ~8 ms of zlib's thread pool (off main's thread); the page inflates it
// with DecompressionStream (renderer/transport/inflated-text.ts). In the real page under load the
// page's own work on each batch still paces a listing; this takes the bytes out of its way. Small
// messages (sync states, replies) stay text frames: their deflate would cost more than it saves.
//
// Deflating is asynchronous, so a message sent while another is being deflated waits behind it:
// frames leave in the order they were sent, whatever their size.
import { deflateRaw } from 'node:zlib';

/** Messages of at least this many characters are deflated. */
export const compressAboveChars = 64 * 1024;

export interface CompressedFrames {
  /** Sends `text` as a text frame, or deflated as a binary frame, after every earlier message. */
  send(text: string): void;
  /** Characters of messages not yet handed to the socket (being deflated, or behind one that is). */
  pendingChars(): number;
}

export function compressedFrames(
  write: (frame: string | Buffer) => void,
  threshold = compressAboveChars,
): CompressedFrames {
  /** Messages waiting for the one being deflated, in order (each a text or its deflate's promise). */
  const waiting: { text: string; deflated?: Promise<Buffer | undefined> }[] = [];
  let pending = 0;
  let draining = false;
  const drain = async (): Promise<void> => {
    draining = true;
    while (waiting.length > 0) {
      const next = waiting[0];
      // A message that failed to deflate (zlib cannot fail on text, but a frame must not be lost) goes as text.
      const frame = next.deflated ? ((await next.deflated) ?? next.text) : next.text;
      waiting.shift();
      pending -= next.text.length;
      write(frame);
    }
    draining = false;
  };
  return {
    send(text) {
      const large = text.length >= threshold;
      if (!large && waiting.length === 0) {
        write(text);
        return;
      }
      // Deflates start at once, so several large messages deflate side by side on the thread pool.
      const deflated = large
        ? new Promise<Buffer | undefined>((resolve) =>
            deflateRaw(text, { level: 1 }, (error, result) => resolve(error ? undefined : result)),
          )
        : undefined;
      waiting.push(deflated ? { text, deflated } : { text });
      pending += text.length;
      if (!draining) void drain();
    },
    pendingChars: () => pending,
  };
}
