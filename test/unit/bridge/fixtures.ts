// Rows and a seeded random source shared by the bridge tests.
import type { Row } from '../../../shared/protocol/row';
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

export { seededRandom };

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}
