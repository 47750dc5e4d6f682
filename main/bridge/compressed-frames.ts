// The WebSocket bridge's large messages, deflated. A listing's batches are ~1.1 MB of JSON text each
// (2,000 rows), and in browser mode every byte crosses Chromium's network service and then a data
// pipe into the page's process: at 20,000 pods and load 20 the page received each batch ~2 s after
// main sent it (8 batches in 15 s), while main sat on its unacknowledged window. A bare page took
// 4.9 MiB of such text in 3-4 s at the same load, and 1.7-3.1 s of the same deflated. Row JSON
// repeats its field names, label keys and values, so raw deflate at level 1 shrinks it several times
// over for a few ms of zlib's thread pool per batch (off main's thread); the page inflates it with
// DecompressionStream (renderer/transport/inflated-text.ts). Small messages (acks' answers, sync
// states, replies) stay text frames: their deflate would cost more than the bytes it saves.
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
