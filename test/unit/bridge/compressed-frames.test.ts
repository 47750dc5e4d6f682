import { describe, expect, it } from 'vitest';
import { compressedFrames } from '../../../main/bridge/compressed-frames';
import { orderedFrames } from '../../../renderer/transport/inflated-text';

/** A message of `length` characters of row-like JSON text. */
function text(label: string, length: number): string {
  const row = `{"key":"ns/${label}","labels":{"app":"web"},"cells":["Running",0]},`;
  return `[${row.repeat(Math.ceil(length / row.length))}"${label}"]`;
}

/** Resolves once `check` holds, letting zlib's thread pool and the inflating streams run. */
async function until(check: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 500 && !check(); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 2));
  expect(check()).toBe(true);
}

describe('compressed bridge frames', () => {
  it('deflates large messages into binary frames, keeps small ones text, and sends all in order', async () => {
    const frames: (string | Buffer)[] = [];
    const sender = compressedFrames((frame) => frames.push(frame), 1_000);
    const sent = [text('big-1', 5_000), 'small-1', text('big-2', 8_000), 'small-2'];
    for (const message of sent) sender.send(message);
    // The first large message is being deflated: everything after it waits, counted as buffered.
    expect(frames).toEqual([]);
    expect(sender.pendingChars()).toBe(sent.reduce((sum, message) => sum + message.length, 0));
    await until(() => frames.length === 4);
    expect(sender.pendingChars()).toBe(0);
    expect(frames.map((frame) => typeof frame)).toEqual(['object', 'string', 'object', 'string']);
    expect((frames[0] as Buffer).length).toBeLessThan(sent[0].length / 5);
    // Nothing waiting: a small message goes at once.
    sender.send('small-3');
    expect(frames.at(-1)).toBe('small-3');

    // The page's side: inflated and delivered in arrival order, a text frame never passing a binary one.
    const delivered: (string | undefined)[] = [];
    const receive = orderedFrames((message) => delivered.push(message));
    for (const frame of frames)
      receive(typeof frame === 'string' ? frame : new Uint8Array(frame).buffer.slice(0));
    receive(new Uint8Array([1, 2, 3]).buffer);
    receive('after-unreadable');
    await until(() => delivered.length === 7);
    expect(delivered).toEqual([...sent, 'small-3', undefined, 'after-unreadable']);
    // Nothing queued: a text frame is delivered at once.
    receive('now');
    expect(delivered.at(-1)).toBe('now');
  });
});
