import { describe, expect, it } from 'vitest';
import { FakeClock, flushMicrotasks } from '../../../main/cache/fake-clock';
import { ProcessorListener } from '../../../main/cache/processor-listener';

interface Item {
  name: string;
}

function newListener(
  handler: ConstructorParameters<typeof ProcessorListener<Item>>[0],
  reported: string[] = [],
) {
  const clock = new FakeClock();
  return new ProcessorListener<Item>(handler, 0, 0, clock.now(), {
    clock,
    upstreamHasSynced: () => true,
    reportError: (_error, context) => reported.push(context),
  });
}

describe('ProcessorListener delivery', () => {
  it('calls a synchronous handler for every notification in order, never from inside add', async () => {
    const seen: string[] = [];
    const listener = newListener({ onUpdate: (_old, obj) => void seen.push(obj.name) });
    listener.start();
    for (const name of ['a', 'b', 'c']) listener.add({ type: 'update', oldObj: { name }, newObj: { name } });
    expect(seen).toEqual([]);
    await flushMicrotasks();
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('waits for a handler promise before the next notification', async () => {
    const seen: string[] = [];
    const releases: (() => void)[] = [];
    const listener = newListener({
      onAdd: (obj) => {
        seen.push(`start:${obj.name}`);
        return new Promise<void>((resolve) =>
          releases.push(() => {
            seen.push(`end:${obj.name}`);
            resolve();
          }),
        );
      },
    });
    listener.start();
    listener.add({ type: 'add', obj: { name: 'a' }, isInInitialList: true });
    listener.add({ type: 'add', obj: { name: 'b' }, isInInitialList: true });
    await flushMicrotasks();
    expect(seen).toEqual(['start:a']);
    expect(listener.hasSynced()).toBe(false);
    releases[0]();
    await flushMicrotasks();
    expect(seen).toEqual(['start:a', 'end:a', 'start:b']);
    releases[1]();
    await flushMicrotasks();
    expect(listener.hasSynced()).toBe(true);
  });

  it('counts a synchronously throwing initial add as handled and reports it', async () => {
    const reported: string[] = [];
    const listener = newListener(
      {
        onAdd: () => {
          throw new Error('boom');
        },
      },
      reported,
    );
    listener.start();
    listener.add({ type: 'add', obj: { name: 'a' }, isInInitialList: true });
    await flushMicrotasks();
    expect(listener.hasSynced()).toBe(true);
    expect(reported).toEqual(['informer: event handler failed on add of an object without a key']);
  });
});
