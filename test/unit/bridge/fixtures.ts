// Rows and a seeded random source shared by the bridge tests.
import type { Row } from '../../../shared/protocol/row';

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

/** mulberry32: a small deterministic generator, so a failing fuzz case can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}
