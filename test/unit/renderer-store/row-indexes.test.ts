import { describe, expect, it } from 'vitest';
import { RowIndexes } from '../../../renderer/store/row-indexes';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import type { Row } from '../../../shared/protocol/row';
import { pick, row, seededRandom } from '../bridge/fixtures';

/** The indexes a full rescan of `rows` builds, in a comparable form. */
function rescan(rows: Iterable<Row>): RowIndexes {
  const indexes = new RowIndexes();
  for (const each of rows) indexes.update(each.key, undefined, each);
  return indexes;
}

function randomRow(random: () => number, key: string, version: number): Row {
  const labels: Record<string, string> = {};
  for (const label of ['app', 'tier', 'team'])
    if (random() < 0.6) labels[label] = pick(random, ['a', 'b', 'c']);
  return row(key, String(version), {
    namespace: pick(random, ['default', 'kube-system', 'payments']),
    labels,
    node: random() < 0.8 ? pick(random, ['n1', 'n2', 'n3']) : undefined,
    status: pick(random, ['Running', 'Pending', 'Failed', undefined]),
    owners:
      random() < 0.7
        ? [{ kind: 'ReplicaSet', name: 'rs', uid: pick(random, ['o1', 'o2']), controller: true }]
        : [],
  });
}

describe('RowIndexes', () => {
  it('drops empty entries so sizes are live counts', () => {
    const indexes = new RowIndexes();
    const pod = row('default/a', '1', { labels: { app: 'web' }, node: 'n1' });
    indexes.update(pod.key, undefined, pod);
    indexes.update(pod.key, pod, undefined);
    expect(indexes.byLabel.size).toBe(0);
    expect(indexes.byNode.size).toBe(0);
    expect(indexes.byNamespace.size).toBe(0);
  });

  it('fuzz: after random batches the mirrored indexes equal a rescan of the rows', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const random = seededRandom(seed);
      const mirror = new SubscriptionMirror();
      const keys = Array.from({ length: 30 }, (_, index) => `k${index}`);
      let version = 0;
      for (let seq = 1; seq <= 60; seq++) {
        const touched = new Set<string>();
        const upserts: Row[] = [];
        const deletes: string[] = [];
        for (let change = 0; change < 8; change++) {
          const key = pick(random, keys);
          if (touched.has(key)) continue;
          touched.add(key);
          if (random() < 0.3) deletes.push(key);
          else upserts.push(randomRow(random, key, ++version));
        }
        const replace = random() < 0.05;
        mirror.apply({
          type: 'batch',
          subscriptionId: 's',
          seq,
          upserts,
          deletes: replace ? [] : deletes,
          replace,
          snapshotEnd: replace,
        });
        if (seq % 10 === 0)
          expect(mirror.indexes, `seed ${seed} seq ${seq}`).toEqual(rescan(mirror.rows.values()));
      }
    }
  });
});
