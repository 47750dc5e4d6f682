import { describe, expect, it, vi } from 'vitest';
import { RowChangeLog } from '../../../renderer/store/row-change-log';
import { RowIndexes } from '../../../renderer/store/row-indexes';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import type { Row } from '../../../shared/protocol/row';
import { deltaBatch, pick, row, seededRandom } from '../bridge/fixtures';

type Change = [key: string, oldVersion: string | undefined, newVersion: string | undefined, position: number];

function changesSince(log: RowChangeLog, position: number): Change[] {
  const seen: Change[] = [];
  log.forEachSince(position, (key, oldRow, newRow, at) =>
    seen.push([key, oldRow?.resourceVersion, newRow?.resourceVersion, at]),
  );
  return seen;
}

/** A mirror after `batches` random batches over 20 keys (upserts and deletes), none of them read. */
function churn(mirror: SubscriptionMirror, batches: number, seed: number, afterEach?: () => void): void {
  const random = seededRandom(seed);
  const keys = Array.from({ length: 20 }, (_, index) => `default/k${index}`);
  for (let batch = 0; batch < batches; batch++) {
    const upserts = new Map<string, Row>();
    const deletes = new Set<string>();
    for (let change = 0; change < 6; change++) {
      const key = pick(random, keys);
      if (upserts.has(key) || deletes.has(key)) continue;
      if (random() < 0.25) deletes.add(key);
      else
        upserts.set(
          key,
          row(key, `${mirror.lastSeq + 1}`, {
            status: pick(random, ['Running', 'Failed']),
            node: pick(random, ['n1', 'n2']),
            labels: { app: pick(random, ['web', 'api']) },
          }),
        );
    }
    const seq = mirror.lastSeq + 1;
    mirror.apply(deltaBatch(seq, { upserts: [...upserts.values()], deletes: [...deletes] }));
    afterEach?.();
  }
}

/** The indexes a full rescan of `rows` builds. */
function rescan(rows: Iterable<Row>): RowIndexes {
  const indexes = new RowIndexes();
  for (const each of rows) indexes.update(each.key, undefined, each);
  return indexes;
}

describe('RowChangeLog', () => {
  it('replays upserts and deletes in the order recorded, from any position', () => {
    const log = new RowChangeLog();
    const a1 = row('a', '1');
    const b1 = row('b', '1');
    log.recordUpserts([a1, b1], [undefined, undefined]);
    log.recordDeletes(['a'], [a1]);
    log.recordUpserts([row('b', '2')], [b1]);
    expect(changesSince(log, 0)).toEqual([
      ['a', undefined, '1', 0],
      ['b', undefined, '1', 1],
      ['a', '1', undefined, 2],
      ['b', '1', '2', 3],
    ]);
    expect(changesSince(log, 1)).toEqual(changesSince(log, 0).slice(1));
    expect(changesSince(log, 3)).toEqual([['b', '1', '2', 3]]);
    expect(changesSince(log, 4)).toEqual([]);
  });

  it('stays within its limit when no index is ever read', () => {
    const mirror = new SubscriptionMirror(0, 16);
    let recorded = 0;
    churn(mirror, 300, 7, () => {
      recorded = mirror.changes.end;
      // 20 keys: half the rows is below 16, so the limit is 16 changes.
      expect(mirror.changes.retained).toBeLessThanOrEqual(16);
    });
    expect(recorded).toBeGreaterThan(1000);
  });

  it('keeps what an index read every batch needs, so it replays and never rebuilds from the rows', () => {
    const mirror = new SubscriptionMirror(0, 16);
    churn(mirror, 1, 8);
    void mirror.indexes.byStatus;
    const walks = vi.spyOn(mirror.rows, 'forEach');
    churn(mirror, 300, 8, () => {
      void mirror.indexes.byStatus;
      expect(mirror.changes.retained).toBeLessThanOrEqual(16);
    });
    expect(walks).not.toHaveBeenCalled();
    expect(mirror.indexes.byStatus).toEqual(rescan(mirror.rows.values()).byStatus);
    void mirror.indexes.byNode;
    expect(walks).toHaveBeenCalledTimes(1);
  });

  it('rebuilds an index whose changes were trimmed away, in the same Map, equal to a rescan', () => {
    const mirror = new SubscriptionMirror(0, 16);
    churn(mirror, 3, 9);
    const byNode = mirror.indexes.byNode;
    const app = mirror.indexes.labelValues('app');
    const byLabel = mirror.indexes.byLabel;
    const readAt = mirror.changes.end;
    churn(mirror, 100, 10);
    expect(mirror.changes.end - mirror.changes.retained).toBeGreaterThan(readAt);

    const expected = rescan(mirror.rows.values());
    expect(mirror.indexes.byNode).toBe(byNode);
    expect(byNode).toEqual(expected.byNode);
    expect(mirror.indexes.labelValues('app')).toBe(app);
    expect(app).toEqual(expected.labelValues('app'));
    expect(mirror.indexes.byLabel).toBe(byLabel);
    expect(byLabel).toEqual(expected.byLabel);
    expect(mirror.indexes.byStatus).toEqual(expected.byStatus);
  });

  it('forgets every change on clear, so indexes show only what follows', () => {
    const indexes = new RowIndexes();
    indexes.update('default/a', undefined, row('default/a', '1', { node: 'n1', labels: { app: 'web' } }));
    void indexes.byNode;
    indexes.clear();
    indexes.update('default/b', undefined, row('default/b', '1', { node: 'n2', labels: { app: 'api' } }));
    expect(indexes.byNode).toEqual(new Map([['n2', new Set(['default/b'])]]));
    expect(indexes.byLabel).toEqual(new Map([['app', new Map([['api', new Set(['default/b'])]])]]));
  });
});
