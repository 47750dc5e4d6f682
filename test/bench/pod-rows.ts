// Pod rows with the shape main projects (labels, an owner, kubectl's pod columns), named as
// Deployments' pods are, in key order as an API server lists them: what the page-side and bridge
// benches send (page-ingest.ts, batch-turns.ts).
import type { Row } from '../../shared/protocol/row';
import { seededRandom } from '../support/seeded-random';

export function podRows(count: number): Row[] {
  const random = seededRandom(7);
  const suffix = (length: number) =>
    Math.floor(random() * 36 ** length)
      .toString(36)
      .padStart(length, '0');
  const rows: Row[] = [];
  for (let index = 0; index < count; index++) {
    const namespace = `team-${index % 40}`;
    const app = `api-${Math.floor(index / 40) % 300}`;
    const hash = `7f${suffix(8)}`;
    const name = `${app}-${hash}-${suffix(5)}`;
    rows.push({
      key: `${namespace}/${name}`,
      uid: `${suffix(8)}-${suffix(4)}-${suffix(4)}-${suffix(4)}-${suffix(12)}`,
      name,
      namespace,
      resourceVersion: String(1_000 + index),
      labels: { app, 'pod-template-hash': hash },
      owners: [{ kind: 'ReplicaSet', name: `${app}-${hash}`, uid: suffix(12), controller: true }],
      node: `node-${index % 500}`,
      status: 'Running',
      createdAt: 1_700_000_000_000 + index,
      cells: [
        name,
        '1/1',
        'Running',
        0,
        1_700_000_000_000 + index,
        `10.0.${index % 250}.${index % 200}`,
        `node-${index % 500}`,
      ],
    });
  }
  return rows.sort((left, right) => (left.key < right.key ? -1 : 1));
}
