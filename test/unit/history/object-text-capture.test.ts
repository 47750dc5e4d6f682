// A watched object's text (object-text.ts): what the recorder copies into its batch instead of
// serializing the object again, read while the informer's observers see its delta, gone after.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock, flushMicrotasks } from '../../../main/cache/fake-clock';
import { keepObjectTexts, objectText, rememberObjectText } from '../../../main/cache/object-text';
import { SharedIndexInformer } from '../../../main/cache/shared-informer';
import { CaptureQueue } from '../../../main/history/capture-queue';
import type { KubeObject } from '../../../shared/kube/object';
import { FakeControllerSource } from '../../support/fake-controller-source';

const pod = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', uid: `uid-${name}`, annotations: { note: '<b>é</b>' } },
});

/** The text as an API server written in Go writes it: <, > and & escaped. */
const goText = (object: KubeObject) =>
  JSON.stringify(object).replaceAll('<', '\\u003c').replaceAll('>', '\\u003e');

let release: (() => void) | undefined;
afterEach(() => release?.());

describe("a watched object's text", () => {
  it('is written into the batch as it came, in place of the object serialized again', () => {
    const queue = new CaptureQueue(1 << 20);
    const object = pod('web-1');
    const bytes = queue.appendObjectChange(5, 1, 2, 'default/web-1', object, false, goText(object));
    const batch = queue.take(1)!;
    const text = Buffer.from(batch.entries).toString();
    expect(text).toBe(`[[5,1,2,"default/web-1",${goText(object)}]]`);
    expect(bytes).toBe(Buffer.byteLength(text) - 2);
    expect(JSON.parse(text)[0][4]).toEqual(object);
  });

  it("is read while the informer's observers see the delta, and forgotten once they have", async () => {
    release = keepObjectTexts();
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    // The transform stands for the watch stream's decoding: each object arrives with its text.
    const informer = new SharedIndexInformer<KubeObject>({
      listerWatcher: source,
      clock,
      transform: (object) => {
        rememberObjectText(object as object, goText(object as KubeObject));
        return object;
      },
    });
    const observed: (string | undefined)[] = [];
    informer.addDeltaObserver({
      observeDeltas: (deltas) => {
        for (const delta of deltas) observed.push(objectText(delta.object as object));
      },
      observePhase: () => {},
    });
    const stop = new AbortController();
    const done = informer.run(stop.signal);
    for (let turn = 0; turn < 30; turn++) await flushMicrotasks();
    source.add(pod('web-1'));
    source.modify({ ...pod('web-1'), metadata: { ...pod('web-1').metadata, labels: { app: 'web' } } });
    for (let step = 0; step < 10 && observed.length < 2; step++) await clock.stepAsync(100);
    expect(observed).toHaveLength(2);
    expect(observed.every((text) => text?.includes('\\u003cb\\u003e'))).toBe(true);
    const cached = informer.getIndexer().getByKey('default/web-1') as KubeObject;
    expect(cached.metadata.labels).toEqual({ app: 'web' });
    expect(objectText(cached)).toBeUndefined();
    stop.abort();
    await done;
  });
});
