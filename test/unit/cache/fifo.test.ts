import { describe, expect, it } from 'vitest';
import { flushMicrotasks } from '../../../main/cache/fake-clock';
import { FIFO } from '../../../main/cache/fifo';
import { FIFOClosedError } from '../../../main/cache/queue';

interface TestFifoObject {
  name: string;
  val: unknown;
}

const mkFifoObj = (name: string, val: unknown): TestFifoObject => ({ name, val });
const testFifoObjectKeyFunc = (obj: TestFifoObject) => obj.name;
const pop = <T>(queue: FIFO<T>) => queue.pop(() => {});

/** Whether a promise has settled once every pending continuation has run. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await flushMicrotasks();
  return settled;
}

describe('FIFO (fifo_test.go)', () => {
  it('TestFIFO_basic', async () => {
    const fifo = new FIFO(testFifoObjectKeyFunc);
    const amount = 500;
    const produce = async (prefix: string) => {
      for (let i = 0; i < amount; i++) {
        fifo.add(mkFifoObj(`${prefix}${i}`, { prefix, sequence: i + 1 }));
        await Promise.resolve();
      }
    };
    const producers = Promise.all([produce('a'), produce('b')]);

    const last: Record<string, number> = { a: 0, b: 0 };
    for (let i = 0; i < amount * 2; i++) {
      const { prefix, sequence } = (await pop(fifo)).val as { prefix: string; sequence: number };
      expect(sequence).toBeGreaterThan(last[prefix]);
      last[prefix] = sequence;
    }
    await producers;
    expect(last).toEqual({ a: amount, b: amount });
  });

  it('TestFIFO_addUpdate', async () => {
    const fifo = new FIFO(testFifoObjectKeyFunc);
    fifo.add(mkFifoObj('foo', 10));
    fifo.update(mkFifoObj('foo', 15));

    expect(fifo.list()).toEqual([mkFifoObj('foo', 15)]);
    expect(fifo.listKeys()).toEqual(['foo']);

    expect((await pop(fifo)).val).toBe(15);
    const second = pop(fifo);
    expect(await isSettled(second)).toBe(false);
    expect(fifo.get(mkFifoObj('foo', ''))).toBeUndefined();
    fifo.close();
    await expect(second).rejects.toBeInstanceOf(FIFOClosedError);
  });

  it('TestFIFO_addReplace', async () => {
    const fifo = new FIFO(testFifoObjectKeyFunc);
    fifo.add(mkFifoObj('foo', 10));
    fifo.replace([mkFifoObj('foo', 15)], '15');

    expect((await pop(fifo)).val).toBe(15);
    const second = pop(fifo);
    expect(await isSettled(second)).toBe(false);
    expect(fifo.get(mkFifoObj('foo', ''))).toBeUndefined();
    fifo.close();
    await expect(second).rejects.toBeInstanceOf(FIFOClosedError);
  });

  it('TestFIFO_detectLineJumpers', async () => {
    const fifo = new FIFO(testFifoObjectKeyFunc);
    fifo.add(mkFifoObj('foo', 10));
    fifo.add(mkFifoObj('bar', 1));
    fifo.add(mkFifoObj('foo', 11));
    fifo.add(mkFifoObj('foo', 13));
    fifo.add(mkFifoObj('zab', 30));

    expect((await pop(fifo)).val).toBe(13);
    fifo.add(mkFifoObj('foo', 14)); // foo must not jump back in line
    expect((await pop(fifo)).val).toBe(1);
    expect((await pop(fifo)).val).toBe(30);
    expect((await pop(fifo)).val).toBe(14);
  });

  it.each([
    { name: 'nothing happened', actions: [], synced: false },
    { name: 'an add', actions: ['add a'], synced: true },
    { name: 'an empty replace', actions: ['replace'], synced: true },
    { name: 'a replace of two', actions: ['replace a b'], synced: false },
    { name: 'a replace of two, one pop', actions: ['replace a b', 'pop'], synced: false },
    { name: 'a replace of two, two pops', actions: ['replace a b', 'pop', 'pop'], synced: true },
  ])('TestFIFO_HasSynced: $name', async ({ actions, synced }) => {
    const fifo = new FIFO(testFifoObjectKeyFunc);
    for (const action of actions) {
      if (action === 'add a') fifo.add(mkFifoObj('a', 1));
      if (action === 'replace') fifo.replace([], '0');
      if (action === 'replace a b') fifo.replace([mkFifoObj('a', 1), mkFifoObj('b', 2)], '0');
      if (action === 'pop') await pop(fifo);
    }
    expect(fifo.hasSynced()).toBe(synced);
  });

  it('TestFIFO_PopShouldUnblockWhenClosed', async () => {
    const fifo = new FIFO(testFifoObjectKeyFunc);
    const pops = Array.from({ length: 10 }, () => pop(fifo));
    await flushMicrotasks();

    fifo.close();
    const results = await Promise.allSettled(pops);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(FIFOClosedError);
    }
  });

  it('skips a key deleted while queued', async () => {
    const fifo = new FIFO(testFifoObjectKeyFunc);
    fifo.add(mkFifoObj('gone', 1));
    fifo.add(mkFifoObj('kept', 2));
    fifo.delete(mkFifoObj('gone', 1));
    expect((await pop(fifo)).name).toBe('kept');
  });

  it('reports the initial list to process until the first replace is drained', async () => {
    const fifo = new FIFO(testFifoObjectKeyFunc);
    fifo.replace([mkFifoObj('a', 1), mkFifoObj('b', 2)], '1');
    const flags: boolean[] = [];
    await fifo.pop((_item, isInInitialList) => flags.push(isInInitialList));
    await fifo.pop((_item, isInInitialList) => flags.push(isInInitialList));
    fifo.add(mkFifoObj('c', 3));
    await fifo.pop((_item, isInInitialList) => flags.push(isInInitialList));
    expect(flags).toEqual([true, true, false]);
  });
});
