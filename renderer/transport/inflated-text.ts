// Main's large bridge messages arrive deflated, as binary frames (main/bridge/compressed-frames.ts):
// a listing's 1.1 MB batches cross Chromium's network service and its data pipe into the page in a
// seventh of the bytes. This inflates them with the browser's own DecompressionStream and delivers
// every message, text or inflated, in the order it arrived: a batch must never pass the one before.

/** The text of a raw-deflated frame. */
export function inflatedText(data: ArrayBuffer | ArrayBufferView): Promise<string> {
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : data;
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream('deflate-raw'));
  return new Response(stream).text();
}

/**
 * Delivers texts in arrival order: a text frame at once when nothing is being inflated, otherwise
 * after the frames before it. A frame that cannot be inflated is delivered as undefined (unreadable).
 */
export function orderedFrames(deliver: (text: string | undefined) => void): (data: unknown) => void {
  let queued = 0;
  let chain: Promise<void> = Promise.resolve();
  return (data) => {
    if (typeof data === 'string' && queued === 0) {
      deliver(data);
      return;
    }
    const text: Promise<string | undefined> =
      typeof data === 'string'
        ? Promise.resolve(data)
        : data instanceof ArrayBuffer || ArrayBuffer.isView(data)
          ? inflatedText(data).catch(() => undefined)
          : Promise.resolve(undefined);
    queued += 1;
    chain = chain.then(async () => {
      const value = await text;
      queued -= 1;
      deliver(value);
    });
  };
}
