import { describe, expect, it } from 'vitest';
import { MissingLabel } from '../../../renderer/store/missing-label';
import { queryRows, matchesFilter, compareCells } from '../../../renderer/store/row-query';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import type { Row } from '../../../shared/protocol/row';
import { deltaBatch, pick, row, seededRandom } from '../bridge/fixtures';
import { applyRound, churnRound } from './random-churn';

function present(rows: Iterable<Row>, label: string): number {
  let count = 0;
  for (const each of rows) if (each.labels[label] !== undefined) count += 1;
  return count;
}

/**
 * 2,000 rows, all but about 1% with `app` (few enough to be cut out of the name order by name);
 * each round changes some, deletes and adds a few.
 */
function churned(rounds: number, pendingLimit?: number) {
  const random = seededRandom(3);
  const mirror = new SubscriptionMirror(0, pendingLimit);
  const live = new Map<string, Row>();
  const make = (key: string, version: string): Row =>
    row(key, version, {
      labels: random() < 0.01 ? { job: 'nightly' } : { app: pick(random, ['api', 'web', 'db']) },
    });
  for (let index = 0; index < 2_000; index++)
    live.set(`ns-${index % 7}/pod-${index}`, make(`ns-${index % 7}/pod-${index}`, '1'));
  mirror.apply(deltaBatch(1, { upserts: [...live.values()], replace: true, snapshotEnd: true }));
  const steps: (() => void)[] = [];
  for (let seq = 2; seq < 2 + rounds; seq++) {
    steps.push(() => {
      const round = churnRound(random, live, {
        changes: 12,
        deleteChance: 0.3,
        newKey: () => `ns-${Math.floor(random() * 7)}/pod-${Math.floor(random() * 2_100)}`,
        make: (key) => make(key, String(seq)),
      });
      applyRound(mirror, seq, round);
    });
  }
  return { mirror, live, steps };
}

describe('MissingLabel', () => {
  it('follows the rows that lack a label through adds, label changes and deletes', () => {
    for (const pendingLimit of [undefined, 8]) {
      const { mirror, live, steps } = churned(40, pendingLimit);
      const missing = new MissingLabel(mirror.rows, mirror.changes, 'app');
      for (const step of steps) {
        step();
        const expected = [...live.values()]
          .filter((each) => each.labels.app === undefined)
          .map((each) => each.key);
        expect([...(missing.read(present(live.values(), 'app')) ?? [])].sort()).toEqual(expected.sort());
      }
    }
  });

  it('keeps nothing when many rows lack the label, without walking them', () => {
    const { mirror, live } = churned(0);
    const missing = new MissingLabel(mirror.rows, mirror.changes, 'job');
    expect(missing.read(present(live.values(), 'job'))).toBeUndefined();
  });
});

describe('free text in a label key nearly every row has', () => {
  it('answers exactly what matchesFilter accepts, as rows churn between keystrokes', () => {
    const { mirror, live, steps } = churned(30);
    for (const [index, step] of steps.entries()) {
      step();
      // `a`/`ap`/`app` are in the label key app; `pod-1` and `ns-3` are in keys of rows lacking it.
      const text = pick(seededRandom(index), ['a', 'ap', 'app', 'p', 'pod-1', 'ns-3', 'ghtl']);
      const expected = [...live.values()]
        .filter((each) => matchesFilter(each, { text }))
        .sort((left, right) => compareCells(left.name, right.name) || (left.key < right.key ? -1 : 1))
        .map((each) => each.key);
      expect(queryRows(mirror, { text })).toEqual(expected);
    }
  });
});
