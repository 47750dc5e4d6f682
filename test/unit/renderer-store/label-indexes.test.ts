import { describe, expect, it } from 'vitest';
import { LabelIndexes } from '../../../renderer/store/label-indexes';
import { RowChangeLog } from '../../../renderer/store/row-change-log';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import type { DeltaBatch } from '../../../shared/protocol/server-messages';
import type { Row } from '../../../shared/protocol/row';
import { deltaBatch, row } from '../bridge/fixtures';

/** `labels`, counting every label read from it by name into `reads`. */
function counted(labels: Record<string, string>, reads: Map<string, number>): Record<string, string> {
  return new Proxy(labels, {
    get(target, property, receiver) {
      if (typeof property === 'string') reads.set(property, (reads.get(property) ?? 0) + 1);
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

function batch(seq: number, upserts: Row[]): DeltaBatch {
  return deltaBatch(seq, { upserts });
}

/** Label indexes over `rows`, fed one change at a time as the mirror would record it. */
function byHand(rows: Map<string, Row>, pendingLimit = 4096) {
  const changes = new RowChangeLog(rows, pendingLimit);
  const indexes = new LabelIndexes(changes);
  const write = (next: Row) => {
    const previous = rows.get(next.key);
    rows.set(next.key, next);
    changes.recordUpserts([next], [previous]);
  };
  return { indexes, write };
}

describe('LabelIndexes', () => {
  it('reads no label when a batch is applied, and only the asked label when one key is read', () => {
    const reads = new Map<string, number>();
    const mirror = new SubscriptionMirror();
    mirror.apply(batch(1, [row('default/a', '1', { labels: counted({ app: 'web', team: 'a' }, reads) })]));
    mirror.indexes.labelValues('app');
    reads.clear();
    mirror.apply(batch(2, [row('default/a', '2', { labels: counted({ app: 'api', team: 'a' }, reads) })]));
    expect(reads.size).toBe(0);
    expect(mirror.indexes.labelValues('app')).toEqual(new Map([['api', new Set(['default/a'])]]));
    expect([...reads.keys()]).toEqual(['app']);
  });

  it('rebuilds a key left unread past the limit from the rows instead of replaying old labels', () => {
    const rows = new Map<string, Row>();
    const { indexes, write } = byHand(rows, 4);
    const readsByVersion: Map<string, number>[] = [];
    for (let version = 1; version <= 20; version++) {
      const reads = new Map<string, number>();
      readsByVersion.push(reads);
      write(row('default/a', String(version), { labels: counted({ app: `v${version}` }, reads) }));
      if (version === 1) indexes.values('app');
    }
    for (const reads of readsByVersion) reads.clear();
    expect(indexes.values('app')).toEqual(new Map([['v20', new Set(['default/a'])]]));
    expect(readsByVersion.slice(0, -1).every((reads) => reads.size === 0)).toBe(true);
    expect(readsByVersion.at(-1)!.get('app')).toBe(1);
  });

  it('lists only label keys some row has', () => {
    const { indexes, write } = byHand(new Map());
    write(row('default/a', '1', { labels: { app: 'web', tier: 'front' } }));
    write(row('default/a', '2', { labels: { app: 'web' } }));
    expect([...indexes.all().keys()]).toEqual(['app']);
    expect(indexes.values('tier')).toBeUndefined();
  });

  it('skips changes that kept the labels object without reading it', () => {
    const reads = new Map<string, number>();
    const mirror = new SubscriptionMirror();
    const first = row('default/a', '1', { labels: counted({ app: 'web' }, reads), status: 'Running' });
    mirror.apply(batch(1, [first]));
    mirror.indexes.labelValues('app');
    reads.clear();
    mirror.apply(batch(2, [{ ...first, resourceVersion: '2', status: 'Failed' }]));
    expect(mirror.indexes.labelValues('app')).toEqual(new Map([['web', new Set(['default/a'])]]));
    expect(mirror.indexes.byLabel.get('app')).toEqual(new Map([['web', new Set(['default/a'])]]));
    expect(reads.size).toBe(0);
  });
});
