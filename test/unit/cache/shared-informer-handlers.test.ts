// The delivery side of a shared informer: FilteringResourceEventHandler, the growing ring buffer and
// the per-handler ProcessorListener (asynchronous, ordered, isolated, with per-registration sync).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/kube/object';
import { FakeClock } from '../../../main/cache/fake-clock';
import { DeletedFinalStateUnknown } from '../../../main/cache/keys';
import { ProcessorListener, RingGrowing } from '../../../main/cache/processor-listener';
import type { ProcessorListenerOptions } from '../../../main/cache/processor-listener';
import type { ResourceEventHandler } from '../../../main/cache/resource-event-handler';
import { FilteringResourceEventHandler } from '../../../main/cache/resource-event-handler';
import { SharedProcessor } from '../../../main/cache/shared-processor';
import { RecordingHandler, eventually, pod, settle } from './shared-informer-helpers';

const web = pod('web', { app: 'web' });
const webAsDb = pod('web', { app: 'db' });
const isWeb = (obj: unknown) => {
  const target = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
  return (target as KubeObject | undefined)?.metadata.labels?.app === 'web';
};

function listener(
  handler: ResourceEventHandler<KubeObject>,
  options: Partial<ProcessorListenerOptions> = {},
) {
  const clock = options.clock ?? new FakeClock();
  return new ProcessorListener<KubeObject>(handler, 0, 0, clock.now(), {
    clock,
    upstreamHasSynced: () => true,
    ...options,
  });
}

describe('FilteringResourceEventHandler', () => {
  it('passes adds and deletes of accepted objects only', () => {
    const inner = new RecordingHandler();
    const filtering = new FilteringResourceEventHandler<KubeObject>(isWeb, inner);
    filtering.onAdd(web, true);
    filtering.onAdd(webAsDb, false);
    filtering.onDelete(new DeletedFinalStateUnknown('default/web', web));
    filtering.onDelete(webAsDb);
    expect(inner.events).toEqual(['add:web', 'delete:web']);
    expect(inner.initialAdds).toEqual(['web']);
  });

  it('turns updates crossing the filter into adds and deletes', () => {
    const inner = new RecordingHandler();
    const filtering = new FilteringResourceEventHandler<KubeObject>(isWeb, inner);
    filtering.onUpdate(web, web);
    filtering.onUpdate(webAsDb, web);
    filtering.onUpdate(web, webAsDb);
    filtering.onUpdate(webAsDb, webAsDb);
    expect(inner.events).toEqual(['update:web', 'add:web', 'delete:web']);
    expect(inner.initialAdds).toEqual([]);
  });
});

describe('RingGrowing', () => {
  it('grows past its initial size and keeps first-in first-out order across the wrap', () => {
    const ring = new RingGrowing<number>(4);
    for (let value = 0; value < 3; value++) ring.writeOne(value);
    expect([ring.readOne(), ring.readOne()]).toEqual([0, 1]);
    for (let value = 3; value < 20; value++) ring.writeOne(value);
    const drained: number[] = [];
    while (ring.length > 0) drained.push(ring.readOne()!);
    expect(drained).toEqual([...Array(18).keys()].map((index) => index + 2));
    expect(ring.readOne()).toBeUndefined();
  });
});

describe('ProcessorListener', () => {
  it('never calls the handler from inside add, and delivers only once started', async () => {
    const handler = new RecordingHandler();
    const subject = listener(handler);
    subject.add({ type: 'add', obj: web, isInInitialList: false });
    await settle();
    expect(handler.events).toEqual([]);
    subject.start();
    subject.add({ type: 'delete', obj: web });
    expect(handler.events).toEqual([]);
    await eventually(() => handler.events.length === 2, 'both delivered');
    expect(handler.events).toEqual(['add:web', 'delete:web']);
  });

  it('waits for a handler promise before the next notification, without holding up other listeners', async () => {
    const order: string[] = [];
    let release!: () => void;
    const slow = listener({
      onAdd: (obj) =>
        new Promise<void>((resolve) => {
          order.push(`slow:${obj.metadata.name}`);
          release = resolve;
        }),
    });
    const fast = listener({ onAdd: (obj) => void order.push(`fast:${obj.metadata.name}`) });
    for (const subject of [slow, fast]) {
      subject.start();
      subject.add({ type: 'add', obj: pod('a'), isInInitialList: false });
      subject.add({ type: 'add', obj: pod('b'), isInInitialList: false });
    }
    await eventually(() => order.length === 3, 'fast done, slow on a');
    expect(order).toEqual(['slow:a', 'fast:a', 'fast:b']);
    expect(slow.pendingCount()).toBe(1);
    release();
    await eventually(() => order.length === 4, 'slow on b');
    expect(order[3]).toBe('slow:b');
  });

  it('counts a registration synced only when upstream is and every initial add has returned', async () => {
    let upstream = false;
    const handler = new RecordingHandler();
    const subject = listener(handler, { upstreamHasSynced: () => upstream });
    subject.add({ type: 'add', obj: pod('a'), isInInitialList: true });
    subject.add({ type: 'add', obj: pod('b'), isInInitialList: false });
    upstream = true;
    expect(subject.hasSynced()).toBe(false);
    subject.start();
    await eventually(() => handler.events.length === 2, 'delivered');
    expect(subject.hasSynced()).toBe(true);
  });

  it('drops buffered notifications on stop and ignores later adds', async () => {
    const handler = new RecordingHandler();
    const subject = listener(handler);
    subject.add({ type: 'add', obj: pod('a'), isInInitialList: false });
    await subject.stop();
    subject.start();
    subject.add({ type: 'add', obj: pod('b'), isInInitialList: false });
    await settle();
    expect(handler.events).toEqual([]);
    expect(subject.isStopped()).toBe(true);
  });
});

describe('SharedProcessor', () => {
  it('sends sync notifications only to listeners the last resync check found due', async () => {
    const clock = new FakeClock();
    const processor = new SharedProcessor<KubeObject>(clock);
    const due = new RecordingHandler();
    const notDue = new RecordingHandler();
    const options = { clock, upstreamHasSynced: () => true };
    processor.addListener(new ProcessorListener(due, 1000, 1000, clock.now(), options));
    processor.addListener(new ProcessorListener(notDue, 5000, 5000, clock.now(), options));
    const stop = new AbortController();
    const done = processor.run(stop.signal);

    clock.step(1000);
    expect(processor.shouldResync()).toBe(true);
    processor.distribute({ type: 'update', oldObj: web, newObj: web }, true);
    processor.distribute({ type: 'delete', obj: web }, false);
    await eventually(() => due.events.length === 2 && notDue.events.length === 1, 'delivered');
    expect(due.events).toEqual(['update:web', 'delete:web']);
    expect(notDue.events).toEqual(['delete:web']);

    stop.abort();
    await done;
    expect(processor.listenerCount()).toBe(0);
  });
});
