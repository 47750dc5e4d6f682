import { describe, expect, it } from 'vitest';
import { NameRuns, sortRowsByName, takeArrivals } from '../../../renderer/store/named-keys';
import type { Row } from '../../../shared/protocol/row';
import { pick, row, seededRandom } from '../bridge/fixtures';
import { keysByName } from './random-churn';

function randomRows(random: () => number, count: number): Row[] {
  return Array.from({ length: count }, () =>
    row(
      `${pick(random, ['a', 'b'])}/${pick(random, ['web', 'db', 'Web', 'web-1'])}-${Math.floor(random() * 300)}`,
    ),
  );
}

describe('NameRuns', () => {
  it('puts the chunks of a snapshot in name order as they come, a key in two chunks twice side by side', () => {
    const random = seededRandom(31);
    for (let round = 0; round < 30; round++) {
      const runs = new NameRuns();
      const all: Row[] = [];
      for (let chunk = Math.floor(random() * 12); chunk > 0; chunk--) {
        // Chunks of very different sizes, so that runs of every size meet.
        const rows = randomRows(random, Math.floor(random() * (random() < 0.3 ? 200 : 12)));
        runs.add(rows);
        all.push(...rows);
        if (random() < 0.2) expect(runs.merged().keys).toEqual(keysByName(all));
      }
      const merged = runs.merged();
      expect(merged.keys).toEqual(keysByName(all));
      expect(merged.names).toEqual(merged.keys.map((key) => key.split('/')[1]));
    }
  });
});

describe('takeArrivals', () => {
  it('takes the arrivals from a presorted list once each, and sorts only those it lacks', () => {
    const random = seededRandom(37);
    for (let round = 0; round < 30; round++) {
      const presortedRows = randomRows(random, 150);
      const presorted = sortRowsByName(presortedRows);
      const rowsByKey = new Map(presortedRows.map((each) => [each.key, each]));
      const arrivedRows = new Map<string, Row>();
      for (const each of presortedRows) if (random() < 0.6) arrivedRows.set(each.key, each);
      // Some rounds have arrivals the list lacks (a playback's first adds).
      if (round % 2 === 1)
        for (const each of randomRows(random, 10))
          if (!rowsByKey.has(each.key)) arrivedRows.set(each.key, each);
      const arrived = [...arrivedRows.keys()];
      let sorted = 0;
      const taken = takeArrivals(
        presorted,
        arrived,
        (key) => arrivedRows.has(key),
        (keys) => {
          sorted += keys.length;
          return sortRowsByName(keys.map((key) => arrivedRows.get(key)!));
        },
      );
      expect(taken.keys).toEqual(keysByName(arrivedRows.values()));
      expect(sorted).toBe(arrived.filter((key) => !rowsByKey.has(key)).length);
    }
  });
});
