// The capture queue writes each entry's JSON as UTF-8 into one buffer per batch: what a batch holds
// must parse back to the entries queued, in order, whatever their size or characters, and its bound
// must still drop changes (never marks) until the recording process catches up; and the table of
// entry ends must say where each entry's bytes end.
import { describe, expect, it } from 'vitest';
import type { TakenBatch } from '../../../main/history/capture-queue';
import { CaptureQueue } from '../../../main/history/capture-queue';

function parsed(batch: TakenBatch | undefined): unknown {
  return JSON.parse(Buffer.from(batch!.entries).toString());
}

/** Each entry of `batch` as the text between its start and where its entry end says it ends. */
function entryTexts(batch: TakenBatch): string[] {
  const texts: string[] = [];
  let start = 1;
  for (const end of batch.entryEnds) {
    texts.push(Buffer.from(batch.entries.subarray(start, end)).toString());
    start = end + 1;
  }
  return texts;
}

describe('CaptureQueue', () => {
  it('hands over the entries queued as one JSON array in UTF-8, in order, growing past its first buffer', () => {
    const queue = new CaptureQueue(64 * 1024 * 1024);
    const entries: unknown[] = [];
    for (let index = 0; index < 300; index++) {
      // Larger than a starting buffer together, with characters of 1 to 4 UTF-8 bytes.
      const entry = [index, 1, 2, `ns/pod-${index}`, { note: `é✓😀 ${'x'.repeat(index * 10)}` }];
      entries.push(entry);
      // Every other one in pieces (a change's prefix, its object, its closing bracket), as StreamTap queues it.
      const [head, object] = [JSON.stringify(entry.slice(0, 4)).slice(0, -1), JSON.stringify(entry[4])];
      expect(queue.appendChange(index % 2 ? [`${head},`, object, ']'] : JSON.stringify(entry))).toBe(true);
    }
    queue.appendMark(JSON.stringify({ mark: 'list-start', stream: 1 }));
    const batch = queue.take(1)!;
    expect(parsed(batch)).toEqual([...entries, { mark: 'list-start', stream: 1 }]);
    // Where each entry ends, counted in UTF-8 bytes, past the table's first size.
    expect(entryTexts(batch)).toEqual([
      ...entries.map((entry) => JSON.stringify(entry)),
      JSON.stringify({ mark: 'list-start', stream: 1 }),
    ]);
    expect(queue.bufferedChanges).toBe(300);
    expect(queue.take(2)).toBeUndefined();
    queue.written(1);
    expect(queue.bufferedChanges).toBe(0);
    // The next batch is a new buffer: the one taken is the caller's to transfer.
    queue.appendChange('[1,1,2,"a",null]');
    expect(parsed(queue.take(3))).toEqual([[1, 1, 2, 'a', null]]);
  });

  it('drops changes past its bound until half of it is written, but never marks', () => {
    const queue = new CaptureQueue(100);
    const change = JSON.stringify([1, 1, 2, 'ns/a', { padding: 'x'.repeat(20) }]);
    expect(queue.appendChange(change)).toBe(true);
    queue.take(1);
    expect(queue.appendChange(change)).toBe(true);
    // Counted whole when given in pieces.
    expect(queue.appendChange([change.slice(0, 10), change.slice(10)])).toBe(false);
    expect(queue.isOverflowing).toBe(true);
    queue.appendMark('{"mark":"list-start","stream":1}');
    // Overflowing, even a change that would fit is dropped: a gap is open until the Recorder recovers.
    expect(queue.appendChange('[1,1,2,"b",null]')).toBe(false);
    expect(parsed(queue.take(2))).toEqual([JSON.parse(change), { mark: 'list-start', stream: 1 }]);
    expect(queue.canRecover()).toBe(false);
    queue.written(1);
    queue.written(2);
    expect(queue.canRecover()).toBe(true);
    queue.recovered();
    expect(queue.appendChange(change)).toBe(true);
  });

  it("reuses a given-back buffer a little smaller than the next batch's size", () => {
    const queue = new CaptureQueue(64 * 1024 * 1024);
    const entry = (length: number) => JSON.stringify('x'.repeat(length - 2));
    // 120 KB: its buffer grows to 128 KB, so the next batch asks for 150 KB, a buffer of its own.
    for (let index = 0; index < 120; index++) queue.appendChange(entry(1024));
    const first = queue.take(1)!;
    queue.written(1, first.entries);
    for (let index = 0; index < 121; index++) queue.appendChange(entry(1024));
    const second = queue.take(2)!;
    queue.written(2, second.entries);
    // The third asks for a quarter more than the second took, ~1 KB more than the second's buffer.
    queue.appendChange(entry(1024));
    const third = queue.take(3)!;
    expect(third.entries.buffer === second.entries.buffer).toBe(true);
    expect(parsed(third)).toEqual([JSON.parse(entry(1024))]);
  });

  it("starts a whole cache's next batch in a buffer as large as its last full one, whatever the timer cut short", () => {
    const queue = new CaptureQueue(64 * 1024 * 1024);
    const forced = (count: number) => {
      for (let index = 0; index < count; index++)
        queue.appendObjectChange(1, 1, 0, `default/web-${index}`, { data: 'x'.repeat(1000) }, true);
    };
    forced(120);
    const full = queue.take(1)!;
    // Cut short by the flush timer: one object.
    forced(1);
    queue.take(2);
    // No buffer given back: the next is a fresh one, of the full batch's size and a quarter, not
    // one grown by doubling from the short batch's size.
    forced(120);
    const next = queue.take(3)!;
    expect(next.entries.buffer.byteLength).toBe(Math.ceil(full.entries.length * 1.25));
    // Live changes alone size the next batch by the last, as ever: a quiet queue goes back to small.
    queue.appendChange('[2,1,1,"default/live",{}]');
    queue.take(4);
    queue.appendChange('[3,1,1,"default/live",{}]');
    expect(queue.take(5)!.entries.buffer.byteLength).toBe(16 * 1024);
  });

  it('keeps forced changes (a cache recorded whole) outside its bound, until they are written', () => {
    const queue = new CaptureQueue(100);
    const change = JSON.stringify([1, 1, 2, 'ns/a', { padding: 'x'.repeat(20) }]);
    // Far past the bound, forced: queued, and the live changes behind it still fit.
    for (let index = 0; index < 10; index++) expect(queue.appendChange(change, true)).toBe(true);
    expect(queue.appendChange(change)).toBe(true);
    queue.take(1);
    expect(queue.appendChange(change)).toBe(true);
    expect(queue.appendChange(change)).toBe(false);
    // Recovering waits for the forced bytes too: the cache is written before it is recorded again.
    queue.take(2);
    queue.written(2);
    expect(queue.canRecover()).toBe(false);
    queue.written(1);
    expect(queue.canRecover()).toBe(true);
  });
});
