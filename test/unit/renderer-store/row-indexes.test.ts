import { describe, expect, it } from 'vitest';
import { RowChangeLog } from '../../../renderer/store/row-change-log';
import { RowIndexes } from '../../../renderer/store/row-indexes';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import type { Row } from '../../../shared/protocol/row';
import { deltaBatch, pick, row, seededRandom } from '../bridge/fixtures';

/** The indexes a full rescan of `rows` builds. */
function rescan(rows: Iterable<Row>): RowIndexes {
  const indexes = new RowIndexes();
  for (const each of rows) indexes.update(each.key, undefined, each);
  return indexes;
}

/** What readers see of `indexes`, in a comparable form. */
function readable(indexes: RowIndexes) {
  return {
    byNamespace: indexes.byNamespace,
    byNode: indexes.byNode,
    byOwnerUid: indexes.byOwnerUid,
    byStatus: indexes.byStatus,
    byLabel: indexes.byLabel,
  };
}

const namespaces = ['default', 'kube-system', 'payments'];

function namespaceOfKey(key: string): string {
  let hash = 0;
  for (const character of key) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  return namespaces[hash % namespaces.length];
}

function randomRow(random: () => number, key: string, version: number): Row {
  const labels: Record<string, string> = {};
  for (const label of ['app', 'tier', 'team'])
    if (random() < 0.6) labels[label] = pick(random, ['a', 'b', 'c']);
  return row(key, String(version), {
    // A row's namespace is part of its key ("namespace/name"), so it never changes across versions.
    namespace: namespaceOfKey(key),
    labels,
    node: random() < 0.8 ? pick(random, ['n1', 'n2', 'n3']) : undefined,
    status: pick(random, ['Running', 'Pending', 'Failed', undefined]),
    owners:
      random() < 0.7
        ? [{ kind: 'ReplicaSet', name: 'rs', uid: pick(random, ['o1', 'o2']), controller: true }]
        : [],
  });
}

const labelPool = ['app', 'tier', 'team', 'constructor'];

/**
 * The next version of row `key`: often the previous one with only its status or resourceVersion moved
 * (same labels and owners objects, as churn does), otherwise a new row whose labels include a
 * `release-N` key that exists only for a stretch of batches, so label keys appear and vanish.
 */
function churnedRow(random: () => number, key: string, version: number, seq: number, previous?: Row): Row {
  if (previous && random() < 0.4)
    return { ...previous, resourceVersion: String(version), status: pick(random, ['Running', 'Failed']) };
  const next = randomRow(random, key, version);
  if (random() < 0.5) next.labels[`release-${Math.floor(seq / 20)}`] = pick(random, ['1', '2']);
  if (random() < 0.05) next.labels = { ...next.labels, constructor: 'x' };
  if (previous && random() < 0.2) return { ...next, owners: previous.owners.map((owner) => ({ ...owner })) };
  return next;
}

describe('RowIndexes', () => {
  it('drops empty entries so sizes are live counts', () => {
    const indexes = new RowIndexes();
    const pod = row('default/a', '1', { labels: { app: 'web' }, node: 'n1' });
    indexes.update(pod.key, undefined, pod);
    indexes.update(pod.key, pod, undefined);
    expect(indexes.byLabel.size).toBe(0);
    expect(indexes.labelValues('app')).toBeUndefined();
    expect(indexes.byNode.size).toBe(0);
    expect(indexes.byNamespace.size).toBe(0);
  });

  it('indexes labels named like Object.prototype members as labels', () => {
    const indexes = new RowIndexes();
    const before = row('default/a', '1', { labels: { app: 'web' } });
    const after = row('default/a', '2', { labels: { app: 'web', constructor: 'x', toString: 'y' } });
    indexes.update(before.key, undefined, before);
    indexes.update(after.key, before, after);
    expect(indexes.labelValues('constructor')).toEqual(new Map([['x', new Set(['default/a'])]]));
    indexes.update(after.key, after, before);
    expect([...indexes.byLabel.keys()]).toEqual(['app']);
  });

  it('applies changes to an index, and to each label key, only when that index is read', () => {
    const rows = new Map<string, Row>();
    const indexes = new RowIndexes(new RowChangeLog(rows));
    const write = (next: Row) => {
      const old = rows.get(next.key);
      rows.set(next.key, next);
      indexes.update(next.key, old, next);
    };
    write(row('default/a', '1', { status: 'Running', labels: { app: 'web', tier: 'front' } }));
    const running = indexes.byStatus.get('Running')!;
    const front = indexes.labelValues('tier')!.get('front')!;
    write(row('default/a', '2', { status: 'Failed', labels: { app: 'api', tier: 'back' } }));

    expect(running.has('default/a')).toBe(true);
    expect(indexes.labelValues('app')!.get('api')).toEqual(new Set(['default/a']));
    expect(front.has('default/a')).toBe(true);
    expect(indexes.byStatus.get('Failed')).toEqual(new Set(['default/a']));
    expect(running.has('default/a')).toBe(false);
    expect(indexes.byLabel.get('tier')).toEqual(new Map([['back', new Set(['default/a'])]]));
    expect(front.has('default/a')).toBe(false);
  });

  it('replays only adds and deletes into the namespace index: an update (same key) reads no old row', () => {
    const mirror = new SubscriptionMirror();
    const reads: string[] = [];
    const watched = (version: Row): Row =>
      new Proxy(version, {
        get(target, property, receiver) {
          if (typeof property === 'string') reads.push(property);
          return Reflect.get(target, property, receiver) as unknown;
        },
      });
    mirror.apply(deltaBatch(1, { upserts: [watched(row('default/a', '1')), row('shop/b', '1')] }));
    expect(mirror.indexes.byNamespace.get('default')).toEqual(new Set(['default/a']));
    mirror.apply(
      deltaBatch(2, { upserts: [row('default/a', '2', { status: 'Failed' }), row('shop/c', '1')] }),
    );
    reads.length = 0;
    expect(mirror.indexes.byNamespace.get('shop')).toEqual(new Set(['shop/b', 'shop/c']));
    expect(reads).toEqual([]);
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
        mirror.apply(
          deltaBatch(seq, { upserts, deletes: replace ? [] : deletes, replace, snapshotEnd: replace }),
        );
        if (seq % 10 === 0)
          expect(readable(mirror.indexes), `seed ${seed} seq ${seq}`).toEqual(
            readable(rescan(mirror.rows.values())),
          );
      }
    }
  });

  it('fuzz: through snapshots, label keys coming and going and reads at random points, every index equals a rescan', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const random = seededRandom(seed);
      // Limits of 2 and 8 changes trim the log every batch or few, so unread indexes are rebuilt.
      const mirror = new SubscriptionMirror(0, pick(random, [2, 8, 4096]));
      const keys = Array.from({ length: 24 }, (_, index) => `k${index}`);
      const first = readable(mirror.indexes);
      let version = 0;
      let snapshotBatchesLeft = 0;
      for (let seq = 1; seq <= 120; seq++) {
        const startsSnapshot = snapshotBatchesLeft === 0 && random() < 0.06;
        if (startsSnapshot) snapshotBatchesLeft = 1 + Math.floor(random() * 3);
        const inSnapshot = snapshotBatchesLeft > 0;
        const touched = new Set<string>();
        const upserts: Row[] = [];
        const deletes: string[] = [];
        for (let change = 0, count = Math.floor(random() * 10); change < count; change++) {
          const key = pick(random, keys);
          if (touched.has(key)) continue;
          touched.add(key);
          if (!inSnapshot && random() < 0.3) deletes.push(key);
          else upserts.push(churnedRow(random, key, ++version, seq, mirror.rows.get(key)));
        }
        if (inSnapshot) snapshotBatchesLeft -= 1;
        mirror.apply(
          deltaBatch(seq, {
            upserts,
            deletes,
            replace: startsSnapshot,
            snapshotEnd: inSnapshot && snapshotBatchesLeft === 0,
          }),
        );
        const expected = () => rescan(mirror.rows.values());
        const reader = random();
        if (reader < 0.1) expect(mirror.indexes.byStatus).toEqual(expected().byStatus);
        else if (reader < 0.2) expect(mirror.indexes.byOwnerUid).toEqual(expected().byOwnerUid);
        else if (reader < 0.3) expect(mirror.indexes.byNode).toEqual(expected().byNode);
        else if (reader < 0.5) {
          const label = pick(random, [...labelPool, `release-${Math.floor(seq / 20)}`]);
          expect(mirror.indexes.labelValues(label), `seed ${seed} seq ${seq} ${label}`).toEqual(
            expected().labelValues(label),
          );
        } else if (reader < 0.55 || seq === 120) {
          expect(readable(mirror.indexes), `seed ${seed} seq ${seq}`).toEqual(readable(expected()));
        }
      }
      const last = readable(mirror.indexes);
      expect(last.byNamespace).toBe(first.byNamespace);
      expect(last.byLabel).toBe(first.byLabel);
    }
  });

  it('fuzz: indexes read at random moments, or left unread past their limit and rebuilt, equal a rescan', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const random = seededRandom(seed);
      const rows = new Map<string, Row>();
      // A limit of 2 changes makes every index that goes unread for a few changes stale.
      const indexes = new RowIndexes(new RowChangeLog(rows, seed % 2 === 0 ? 2 : 4096));
      const keys = Array.from({ length: 12 }, (_, index) => `k${index}`);
      for (let step = 1; step <= 400; step++) {
        const key = pick(random, keys);
        const old = rows.get(key);
        const next = random() < 0.25 ? undefined : randomRow(random, key, step);
        if (next) rows.set(key, next);
        else rows.delete(key);
        indexes.update(key, old, next);
        const reader = random();
        if (reader < 0.05) void indexes.byStatus;
        else if (reader < 0.1) void indexes.byNamespace;
        else if (reader < 0.2) indexes.labelValues(pick(random, ['app', 'tier', 'team']));
        if (step % 40 === 0)
          expect(readable(indexes), `seed ${seed} step ${step}`).toEqual(readable(rescan(rows.values())));
      }
    }
  });
});
