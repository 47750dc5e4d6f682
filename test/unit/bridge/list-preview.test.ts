// ListPreview: a LIST's rows shown as they are decoded, taken back as the informer delivers them, the
// rest withdrawn at the end; its table is sharded, so no single show rehashes every row so far.
import { describe, expect, it } from 'vitest';
import { ListPreview } from '../../../main/bridge/list-preview';
import type { RowChange } from '../../../main/bridge/squash';
import type { KubeObject } from '../../../shared/kube/object';
import type { Row } from '../../../shared/protocol/row';

const pod = (name: string, resourceVersion = '1'): KubeObject => ({
  metadata: { namespace: 'ns', name, uid: `uid-${name}`, resourceVersion },
});

const project = (object: KubeObject): Row =>
  ({
    key: `ns/${object.metadata.name}`,
    uid: object.metadata.uid,
    resourceVersion: object.metadata.resourceVersion,
  }) as unknown as Row;

describe('ListPreview', () => {
  it('keeps a large list in tables far smaller than the list (one show rehashes one of them)', () => {
    const changes: RowChange[] = [];
    const preview = new ListPreview(project, (change) => changes.push(change));
    const count = 20_000;
    for (let index = 0; index < count; index++) preview.show(`ns/pod${index}`, pod(`pod${index}`));
    expect(preview.size).toBe(count);
    expect(changes).toHaveLength(count);
    expect(preview.largestTable).toBeLessThan(count / 10);
  });

  it('reuses a delivered row at its version, and withdraws the rows never delivered', () => {
    const changes: RowChange[] = [];
    const preview = new ListPreview(project, (change) => changes.push(change));
    for (let index = 0; index < 3000; index++) preview.show(`ns/pod${index}`, pod(`pod${index}`));
    expect(preview.take('ns/pod0', pod('pod0'))?.current).toBe(true);
    expect(preview.take('ns/pod1', pod('pod1', '2'))?.current).toBe(false);
    expect(preview.take('ns/pod0', pod('pod0'))).toBeUndefined();
    changes.length = 0;
    preview.end();
    expect(preview.size).toBe(0);
    expect(changes).toHaveLength(2998);
    expect(changes.every((change) => change.type === 'deleted')).toBe(true);
  });
});
