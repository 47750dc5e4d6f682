// The timeline's reply says how far the live recording's end trails now, once that is more than its
// batches' usual flush-and-write delay, so a strip that ends a minute ago is explained.
import { describe, expect, it } from 'vitest';
import { timelineReply, writingBehindShownMs } from '../../../main/bridge/timeline-reply';
import type { RecordingSource } from '../../../shared/protocol/history-messages';

const figures = { range: { start: 1_000, end: 61_000 }, from: 1_000, to: 61_000, density: {}, marks: [] };
const source: RecordingSource = { kind: 'live', context: 'prod', problems: [] };

describe('timelineReply', () => {
  it('reports the recording writing behind only past the flush-and-write delay', () => {
    expect(timelineReply(figures, source, undefined).writingBehindMs).toBeUndefined();
    expect(
      timelineReply(figures, source, undefined, writingBehindShownMs - 1).writingBehindMs,
    ).toBeUndefined();
    expect(timelineReply(figures, source, undefined, 62_000).writingBehindMs).toBe(62_000);
  });
});
