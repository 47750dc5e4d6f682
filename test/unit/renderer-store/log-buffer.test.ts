// LogBuffer: lines merged by time across batches (a source's own order kept), the oldest dropped and
// counted past the cap, and positions stable for append-only readers; checked against a plain sorted
// array on random interleavings.
import { describe, expect, it } from 'vitest';
import type { BufferedLine } from '../../../renderer/store/log-buffer';
import { LogBuffer } from '../../../renderer/store/log-buffer';
import { seededRandom } from '../bridge/fixtures';

const line = (time: number, source = 0, text = `${source}@${time}`): BufferedLine => ({ time, source, text });
const contents = (buffer: LogBuffer) =>
  Array.from({ length: buffer.length }, (_, index) => buffer.line(index));

describe('LogBuffer', () => {
  it('merges batches from several sources by time, keeping equal times in arrival order', () => {
    const buffer = new LogBuffer(100);
    buffer.append([line(10, 1), line(20, 1), line(30, 1)]);
    const layout = buffer.layout;
    buffer.append([line(15, 2), line(20, 2), line(40, 2)]);
    expect(contents(buffer).map((entry) => entry.text)).toEqual([
      '1@10',
      '2@15',
      '1@20',
      '2@20',
      '1@30',
      '2@40',
    ]);
    expect(buffer.layout).not.toBe(layout);
  });

  it('drops the oldest lines past its capacity and counts them', () => {
    const buffer = new LogBuffer(3);
    buffer.append([line(1), line(2), line(3), line(4), line(5)]);
    expect(contents(buffer).map((entry) => entry.time)).toEqual([3, 4, 5]);
    expect(buffer.dropped).toBe(2);
    // A late line older than everything held is the one dropped.
    buffer.append([line(0)]);
    expect(contents(buffer).map((entry) => entry.time)).toEqual([3, 4, 5]);
    expect(buffer.dropped).toBe(3);
    buffer.append([line(3.5)]);
    expect(contents(buffer).map((entry) => entry.time)).toEqual([3.5, 4, 5]);
  });

  it('keeps the layout (positions) unchanged while lines are only appended', () => {
    const buffer = new LogBuffer(4);
    const layout = buffer.layout;
    for (let time = 0; time < 50; time++) buffer.append([line(time)]);
    expect(buffer.layout).toBe(layout);
    expect(buffer.dropped + buffer.length).toBe(50);
  });

  it('matches a stable sort of everything appended, truncated to its capacity, on random interleavings (texts packed across chunks included)', () => {
    const random = seededRandom(11);
    for (let round = 0; round < 30; round++) {
      const capacity = 1 + Math.floor(random() * (round % 2 === 0 ? 300 : 4000));
      const buffer = new LogBuffer(capacity);
      const all: BufferedLine[] = [];
      const clocks = [0, 0, 0, 0];
      for (let batch = 0; batch < 40; batch++) {
        const source = Math.floor(random() * 4);
        const lines: BufferedLine[] = [];
        for (let count = Math.floor(random() * (round % 2 === 0 ? 20 : 300)); count > 0; count--) {
          clocks[source] += Math.floor(random() * 5);
          lines.push(line(clocks[source], source, `${source}-${all.length + lines.length}`));
        }
        buffer.append(lines);
        all.push(...lines);
      }
      const expected = [...all].sort((a, b) => a.time - b.time);
      const held = contents(buffer);
      expect(held.length).toBe(Math.min(capacity, all.length));
      expect(held.map((entry) => entry.time)).toEqual(
        expected.slice(expected.length - held.length).map((entry) => entry.time),
      );
      // Each source's lines are in the order it sent them.
      for (let source = 0; source < 4; source++) {
        const order = held
          .filter((entry) => entry.source === source)
          .map((entry) => Number(entry.text.split('-')[1]));
        expect(order).toEqual([...order].sort((a, b) => a - b));
      }
      expect(buffer.dropped + buffer.length).toBe(all.length);
      // Texts survive packing, growth and the ring wrapping: each line's text names its source and order.
      for (const entry of held) expect(entry.text.startsWith(`${entry.source}-`)).toBe(true);
      expect(new Set(held.map((entry) => entry.text)).size).toBe(held.length);
    }
  });
});
