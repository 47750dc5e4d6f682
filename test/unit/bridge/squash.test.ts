import { describe, expect, it } from 'vitest';
import { PendingChanges, squash } from '../../../main/bridge/squash';
import type { RowChange } from '../../../main/bridge/squash';
import type { Row } from '../../../shared/protocol/row';
import { pick, row, seededRandom } from './fixtures';

describe('squash', () => {
  it('cancels an add followed by a delete', () => {
    const added = squash(undefined, { type: 'added', row: row('a') });
    expect(squash(added, { type: 'deleted', key: 'a' })).toBeUndefined();
  });

  it('turns an update followed by a delete into a delete', () => {
    const updated = squash(undefined, { type: 'updated', row: row('a', '2') });
    expect(squash(updated, { type: 'deleted', key: 'a' })).toEqual({ type: 'delete' });
  });

  it('keeps the last write among upserts', () => {
    let pending = squash(undefined, { type: 'updated', row: row('a', '2') });
    pending = squash(pending, { type: 'updated', row: row('a', '3') });
    expect(pending).toEqual({ type: 'upsert', row: row('a', '3'), isNew: false });
  });

  it('remembers that a key is new to the renderer across updates, so a later delete still cancels', () => {
    let pending = squash(undefined, { type: 'added', row: row('a') });
    pending = squash(pending, { type: 'updated', row: row('a', '2') });
    expect(squash(pending, { type: 'deleted', key: 'a' })).toBeUndefined();
  });

  it('turns a delete followed by an add into an upsert of the new row', () => {
    const deleted = squash(undefined, { type: 'deleted', key: 'a' });
    expect(squash(deleted, { type: 'added', row: row('a', '9') })).toEqual({
      type: 'upsert',
      row: row('a', '9'),
      isNew: false,
    });
  });
});

describe('PendingChanges', () => {
  it('takes at most the limit, leaving the rest for the next batch', () => {
    const pending = new PendingChanges();
    for (const key of ['a', 'b', 'c']) pending.record({ type: 'added', row: row(key) });
    expect(pending.take(2).upserts.map((taken) => taken.key)).toEqual(['a', 'b']);
    expect(pending.take(2).upserts.map((taken) => taken.key)).toEqual(['c']);
    expect(pending.size).toBe(0);
  });

  it('fuzz: a renderer applying flushed batches always equals the source after each flush', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const random = seededRandom(seed);
      const keys = ['a', 'b', 'c', 'd', 'e', 'f'];
      const source = new Map<string, Row>();
      const mirror = new Map<string, Row>();
      const pending = new PendingChanges();
      let version = 0;
      for (let step = 0; step < 300; step++) {
        const key = pick(random, keys);
        let change: RowChange;
        if (source.has(key) && random() < 0.4) {
          change = { type: 'deleted', key };
          source.delete(key);
        } else {
          const next = row(key, String(++version));
          change = source.has(key) ? { type: 'updated', row: next } : { type: 'added', row: next };
          source.set(key, next);
        }
        pending.record(change);
        if (random() < 0.15) {
          const limit = 1 + Math.floor(random() * keys.length);
          while (pending.size > 0) {
            const { upserts, deletes } = pending.take(limit);
            const upserted = new Set(upserts.map((upsert) => upsert.key));
            for (const deleted of deletes) {
              if (upserted.has(deleted))
                throw new Error(`seed ${seed}: ${deleted} both upserted and deleted`);
              if (!mirror.has(deleted)) throw new Error(`seed ${seed}: delete of ${deleted}, never sent`);
              mirror.delete(deleted);
            }
            for (const upsert of upserts) mirror.set(upsert.key, upsert);
          }
          const equal =
            mirror.size === source.size && [...source].every(([key, kept]) => mirror.get(key) === kept);
          if (!equal) throw new Error(`seed ${seed} step ${step}: the renderer differs from the source`);
        }
      }
    }
  });

  it('fuzz: never holds more entries than distinct keys touched', () => {
    const random = seededRandom(7);
    const pending = new PendingChanges();
    const touched = new Set<string>();
    for (let step = 0; step < 5_000; step++) {
      const key = `k${Math.floor(random() * 50)}`;
      touched.add(key);
      pending.record(
        random() < 0.3 ? { type: 'deleted', key } : { type: 'updated', row: row(key, String(step)) },
      );
      expect(pending.size).toBeLessThanOrEqual(touched.size);
    }
  });
});
