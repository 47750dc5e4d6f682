import { describe, expect, it } from 'vitest';
import type { Row } from '../../../shared/protocol';
import { RowIndexes } from '../../../renderer/store/row-indexes';
import { applyCompletion, completeFilter } from '../../../renderer/ui-state/completion';

function indexesOf(rows: Partial<Row>[]): RowIndexes {
  const indexes = new RowIndexes();
  rows.forEach((partial, index) => {
    const row = {
      key: `k${index}`,
      uid: `u${index}`,
      name: `n${index}`,
      namespace: 'default',
      resourceVersion: '1',
      labels: {},
      owners: [],
      createdAt: 0,
      cells: [],
      ...partial,
    } as Row;
    indexes.update(row.key, undefined, row);
  });
  return indexes;
}

const indexes = indexesOf([
  { labels: { app: 'web', tier: 'front' }, node: 'n-1' },
  { labels: { app: 'web' }, node: 'n-2' },
  { labels: { app: 'api' }, namespace: 'payments', node: 'n-1' },
]);

describe('completeFilter', () => {
  it('offers label keys and the index tokens for a prefix', () => {
    const offered = completeFilter({ text: 'a', caret: 1 }, indexes, () => new Map()).map(
      (completion) => completion.insert,
    );
    expect(offered).toContain('app=');
    expect(
      completeFilter({ text: 'no', caret: 2 }, indexes, () => new Map()).map(
        (completion) => completion.insert,
      ),
    ).toEqual(['node=']);
  });

  it('offers the values of a label, most common first', () => {
    const offered = completeFilter({ text: 'ns=x app=', caret: 9 }, indexes, () => new Map());
    expect(offered.map((completion) => completion.insert)).toEqual(['app=web', 'app=api']);
    expect(offered[0]?.detail).toBe('2');
  });

  it('offers namespaces and nodes from their indexes', () => {
    expect(
      completeFilter({ text: 'ns=pay', caret: 6 }, indexes, () => new Map()).map(
        (completion) => completion.insert,
      ),
    ).toEqual(['ns=payments']);
    expect(completeFilter({ text: 'node=', caret: 5 }, indexes, () => new Map())[0]?.insert).toBe('node=n-1');
  });

  it('replaces only the token under the caret', () => {
    expect(applyCompletion({ text: 'ns=default ap', caret: 13 }, { insert: 'app=', detail: '' })).toEqual({
      text: 'ns=default app=',
      caret: 15,
    });
  });
});
