// Rows, delta batches and a seeded random source shared by the bridge and renderer store tests.
import type { Row } from '../../../shared/protocol/row';
import type { DeltaBatch } from '../../../shared/protocol/server-messages';
import { seededRandom } from '../../support/seeded-random';

export function row(key: string, resourceVersion = '1', extra: Partial<Row> = {}): Row {
  const [namespace, name] = key.includes('/') ? key.split('/') : ['', key];
  return {
    key,
    uid: `uid-${key}`,
    name,
    namespace,
    resourceVersion,
    labels: {},
    owners: [],
    createdAt: 0,
    cells: [name],
    ...extra,
  };
}

/** Batch `seq` of subscription "s": no upserts or deletes unless `changes` gives them. */
export function deltaBatch(seq: number, changes: Partial<DeltaBatch> = {}): DeltaBatch {
  return { type: 'batch', subscriptionId: 's', seq, upserts: [], deletes: [], ...changes };
}

export { seededRandom };

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}
