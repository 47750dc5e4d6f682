// Text deltas (copies from a dictionary, inserted bytes): every delta rebuilds its text exactly,
// whatever the two texts share; a text that repeats its dictionary costs a few bytes per change; a
// delta past its limit is not made; a damaged one is refused rather than misread.
import { describe, expect, it } from 'vitest';
import { decodeTextDelta, encodeTextDelta } from '../../../main/history/text-delta';
import type { SeededRandom } from '../../support/seeded-random';
import { seededRandom } from './fixtures';

const alphabet = [
  'a',
  'b',
  '"',
  ':',
  ',',
  '{',
  '}',
  '0',
  '1',
  'é',
  '€',
  '😀',
  'status',
  '"lastTransitionTime"',
];

function randomText(random: SeededRandom, length: number): string {
  let text = '';
  while (text.length < length) text += random.pick(alphabet);
  return text;
}

/**
 * `text` with a few pieces replaced, inserted or removed, as a next version changes a previous one;
 * cut between characters, not inside a surrogate pair (a recording's texts are well-formed).
 */
function edited(random: SeededRandom, text: string): string {
  let characters = Array.from(text);
  for (let edits = random.integer(6); edits > 0; edits--) {
    const at = random.integer(characters.length + 1);
    const removed = random.chance(0.5) ? random.integer(12) : 0;
    const inserted = random.chance(0.7) ? Array.from(randomText(random, random.integer(12))) : [];
    characters = [...characters.slice(0, at), ...inserted, ...characters.slice(at + removed)];
  }
  return characters.join('');
}

function roundTrip(target: string, dictionary: string): string {
  const dictionaryBytes = Buffer.from(dictionary);
  const delta = encodeTextDelta(Buffer.from(target), dictionaryBytes)!;
  return decodeTextDelta(delta, dictionaryBytes).toString();
}

const statusPatch = (time: string, restarts: number, resourceVersion: number) =>
  JSON.stringify({
    metadata: { resourceVersion: String(resourceVersion) },
    status: {
      containerStatuses: [
        {
          containerID: 'containerd://e911998f87334fa492121fb8ec88506a0',
          image: 'envoyproxy/envoy:v1.31',
          imageID: `docker.io/library/envoyproxy/envoy:v1.31@sha256:${'0'.repeat(64)}`,
          name: 'api',
          ready: true,
          restartCount: restarts,
          started: true,
          state: { running: { startedAt: time } },
        },
      ],
    },
  });

describe('text deltas', () => {
  it('rebuild the text exactly, edited or unrelated, multi-byte characters and empty sides included (fuzzed)', () => {
    const random = seededRandom(41);
    for (let round = 0; round < 3000; round++) {
      const dictionary = randomText(random, random.pick([0, 1, 3, 5, 40, 300, 2000]));
      const target = random.chance(0.8)
        ? edited(random, dictionary)
        : randomText(random, random.integer(400));
      expect(roundTrip(target, dictionary)).toBe(target);
    }
  });

  it('copy what a status update repeats of the patch before it: a few bytes per changed value', () => {
    const previous = statusPatch('2026-11-30T08:16:40Z', 9, 104_999);
    const next = statusPatch('2026-11-30T08:16:41Z', 10, 105_000);
    const delta = encodeTextDelta(Buffer.from(next), Buffer.from(previous))!;
    expect(decodeTextDelta(delta, Buffer.from(previous)).toString()).toBe(next);
    expect(next.length).toBeGreaterThan(400);
    expect(delta.length).toBeLessThan(30);
  });

  it('are not made past their limit', () => {
    const random = seededRandom(5);
    const unrelated = Buffer.from(randomText(random, 500));
    expect(encodeTextDelta(unrelated, Buffer.from(randomText(random, 500)), 64)).toBeUndefined();
    const previous = Buffer.from(statusPatch('2026-11-30T08:16:40Z', 9, 104_999));
    expect(encodeTextDelta(previous, previous, 8)!.length).toBeLessThanOrEqual(8);
  });

  it('refuse a damaged delta instead of rebuilding another text', () => {
    const dictionary = Buffer.from(statusPatch('2026-11-30T08:16:40Z', 9, 104_999));
    const delta = encodeTextDelta(Buffer.from(statusPatch('2026-11-30T08:16:41Z', 10, 105_000)), dictionary)!;
    expect(() => decodeTextDelta(delta.subarray(0, delta.length - 1), dictionary)).toThrow();
    expect(() => decodeTextDelta(delta, dictionary.subarray(0, 100))).toThrow(/outside its dictionary/);
    expect(() => decodeTextDelta(Buffer.from([0x80]), dictionary)).toThrow(/inside a number/);
  });
});
