import { describe, expect, it } from 'vitest';
import { LabelIndexes } from '../../../renderer/store/label-indexes';
import type { Row } from '../../../shared/protocol/row';
import { row } from '../bridge/fixtures';

/** `labels`, counting every label read from it by name into `reads`. */
function counted(labels: Record<string, string>, reads: Map<string, number>): Record<string, string> {
  return new Proxy(labels, {
    get(target, property, receiver) {
      if (typeof property === 'string') reads.set(property, (reads.get(property) ?? 0) + 1);
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

describe('LabelIndexes', () => {
  it('reads no label when a change is recorded, and only the asked label when one key is read', () => {
    const reads = new Map<string, number>();
    const indexes = new LabelIndexes(undefined, 4096);
    const before = counted({ app: 'web', team: 'a' }, reads);
    const after = counted({ app: 'api', team: 'a' }, reads);
    indexes.record('default/a', undefined, before);
    indexes.values('app');
    reads.clear();
    indexes.record('default/a', before, after);
    expect(reads.size).toBe(0);
    expect(indexes.values('app')).toEqual(new Map([['api', new Set(['default/a'])]]));
    expect([...reads.keys()]).toEqual(['app']);
  });

  it('rebuilds a key left unread past the limit from the rows instead of replaying old labels', () => {
    const rows = new Map<string, Row>();
    const indexes = new LabelIndexes(rows, 4);
    const oldReads = new Map<string, number>();
    for (let version = 1; version <= 20; version++) {
      const previous = rows.get('default/a');
      const next = row('default/a', String(version), { labels: { app: `v${version}` } });
      rows.set(next.key, next);
      indexes.record(next.key, previous && counted(previous.labels, oldReads), next.labels);
    }
    expect(indexes.values('app')).toEqual(new Map([['v20', new Set(['default/a'])]]));
    expect(oldReads.size).toBe(0);
  });

  it('lists only label keys some row has', () => {
    const indexes = new LabelIndexes(undefined, 4096);
    indexes.record('default/a', undefined, { app: 'web', tier: 'front' });
    indexes.record('default/a', { app: 'web', tier: 'front' }, { app: 'web' });
    expect([...indexes.all().keys()]).toEqual(['app']);
    expect(indexes.values('tier')).toBeUndefined();
  });
});
