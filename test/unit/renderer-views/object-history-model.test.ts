import { describe, expect, it } from 'vitest';
import { ObjectHistoryModel } from '../../../renderer/views/object-history-model';
import type { HistoryRequest } from '../../../renderer/ui-state/view-bridge';
import type { HistoryDiffLine, ObjectVersion } from '../../../shared/protocol';

/** A bridge whose history answers the test releases by hand, recording every question asked. */
function fakeBridge() {
  const asked: { request: HistoryRequest; answer: (value: unknown) => void }[] = [];
  return {
    asked,
    bridge: {
      history<T>(request: HistoryRequest): Promise<T> {
        return new Promise<T>((resolve) => asked.push({ request, answer: (value) => resolve(value as T) }));
      },
    },
  };
}

const version = (id: number): ObjectVersion => ({
  id,
  time: 1_000 * id,
  type: 'Updated',
  uid: 'u1',
  resourceVersion: String(id),
  finalStateUnknown: false,
});
const lines: HistoryDiffLine[] = [{ kind: 'added', text: 'replicas: 3' }];
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
/** The same kind as the window hands it after every kinds push: equal fields, a new object. */
const deployment = () => ({
  gvr: { group: 'apps', version: 'v1', resource: 'deployments' },
  namespace: 'shop',
  name: 'web',
});

describe('the History tab under churn', () => {
  it('keeps a settled diff shown while the window re-renders with equal props, asking main nothing more', async () => {
    const { asked, bridge } = fakeBridge();
    const model = new ObjectHistoryModel(bridge);
    model.show(deployment(), '7');
    expect(asked.map((entry) => entry.request.type)).toEqual(['historyVersions']);
    asked[0]!.answer([version(1), version(2)]);
    await settle();
    expect(asked[1]!.request).toMatchObject({ type: 'historyDiff', olderId: 1, newerId: 2 });
    asked[1]!.answer(lines);
    await settle();
    expect(model.state.diff).toEqual(lines);

    // 60 samples of a churning cluster: kinds pushes rebuild the gvr object each time.
    for (let sample = 0; sample < 60; sample++) {
      model.show(deployment(), '7');
      await settle();
      expect(model.state.diff).toEqual(lines);
    }
    expect(asked).toHaveLength(2);
  });

  it('re-reads the versions when the object moves, keeping the compared pair and its diff', async () => {
    const { asked, bridge } = fakeBridge();
    const model = new ObjectHistoryModel(bridge);
    model.show(deployment(), '7');
    asked[0]!.answer([version(1), version(2)]);
    await settle();
    asked[1]!.answer(lines);
    await settle();

    model.show(deployment(), '8');
    expect(model.state.diff).toEqual(lines);
    asked[2]!.answer([version(1), version(2), version(3)]);
    await settle();
    expect(model.state.versions).toHaveLength(3);
    expect(model.state.picked).toEqual([1, 2]);
    expect(model.state.diff).toEqual(lines);
    expect(asked).toHaveLength(3);
  });

  it('drops a diff that arrives for a pair no longer picked', async () => {
    const { asked, bridge } = fakeBridge();
    const model = new ObjectHistoryModel(bridge);
    model.show(deployment(), '7');
    asked[0]!.answer([version(1), version(2), version(3)]);
    await settle();
    expect(asked[1]!.request).toMatchObject({ olderId: 2, newerId: 3 });
    model.pick(1);
    expect(model.pair()).toEqual([1, 3]);
    asked[1]!.answer(lines);
    await settle();
    expect(model.state.diff).toBeUndefined();
    const other: HistoryDiffLine[] = [{ kind: 'removed', text: 'replicas: 1' }];
    asked[2]!.answer(other);
    await settle();
    expect(model.state.diff).toEqual(other);
  });
});
