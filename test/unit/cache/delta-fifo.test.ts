import { describe, expect, it } from 'vitest';
import type { Deltas } from '../../../main/cache/delta';
import { ZeroLengthDeltasObjectError, newest } from '../../../main/cache/delta';
import { DeltaFIFO } from '../../../main/cache/delta-fifo';
import type { DeltaFIFOOptions } from '../../../main/cache/delta-fifo';
import { FakeClock, flushMicrotasks } from '../../../main/cache/fake-clock';
import { DeletedFinalStateUnknown, KeyError } from '../../../main/cache/keys';
import { FIFOClosedError } from '../../../main/cache/queue';
import type { KeyListerGetter } from '../../../main/cache/store';

interface TestFifoObject {
  name: string;
  val: unknown;
}

const mkFifoObj = (name: string, val: unknown): TestFifoObject => ({ name, val });
const testFifoObjectKeyFunc = (obj: TestFifoObject) => obj.name;
const tombstone = (key: string, obj: TestFifoObject | undefined) => new DeletedFinalStateUnknown(key, obj);

/** delta_fifo_test.go literalListerGetter: the consumer "knows" exactly these objects. */
function literalListerGetter(list: () => TestFifoObject[]): KeyListerGetter<TestFifoObject> {
  return {
    listKeys: () => list().map((obj) => obj.name),
    getByKey: (key) => list().find((obj) => obj.name === key),
  };
}

function newFIFO(options: Omit<DeltaFIFOOptions<TestFifoObject>, 'keyFunction'> = {}) {
  return new DeltaFIFO<TestFifoObject>({ keyFunction: testFifoObjectKeyFunc, ...options });
}

const pop = (fifo: DeltaFIFO<TestFifoObject>) => fifo.pop(() => {});

/** delta_fifo_test.go testPop: the newest object of the next Deltas. */
async function testPop(fifo: DeltaFIFO<TestFifoObject>): Promise<TestFifoObject> {
  return newest(await pop(fifo))?.object as TestFifoObject;
}

/** Pops expecting exactly `expected`, in order, and then an empty queue. */
async function expectPops(
  fifo: DeltaFIFO<TestFifoObject>,
  expected: Deltas<TestFifoObject>[],
): Promise<void> {
  for (const deltas of expected) expect(await pop(fifo)).toStrictEqual(deltas);
  expect(fifo.listKeys()).toEqual([]);
}

async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await flushMicrotasks();
  return settled;
}

describe('DeltaFIFO (delta_fifo_test.go)', () => {
  it('TestDeltaFIFO_basic', async () => {
    const fifo = newFIFO();
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
      const { prefix, sequence } = (await testPop(fifo)).val as { prefix: string; sequence: number };
      expect(sequence).toBeGreaterThan(last[prefix]);
      last[prefix] = sequence;
    }
    await producers;
    expect(last).toEqual({ a: amount, b: amount });
  });

  // #83810: a Sync must follow a queued Deleted, or the informer misses the re-creation.
  it('TestDeltaFIFO_replaceWithDeleteDeltaIn', async () => {
    const oldObj = mkFifoObj('foo', 1);
    const newObj = mkFifoObj('foo', 2);
    const fifo = newFIFO({ knownObjects: literalListerGetter(() => [oldObj]) });
    fifo.delete(oldObj);
    fifo.replace([newObj], '');

    await expectPops(fifo, [
      [
        { type: 'Deleted', object: oldObj },
        { type: 'Sync', object: newObj },
      ],
    ]);
  });

  describe('TestDeltaFIFOW_ReplaceMakesDeletionsForObjectsOnlyInQueue', () => {
    const obj = mkFifoObj('foo', 2);
    const objV2 = mkFifoObj('foo', 3);
    const table: Array<{
      name: string;
      emitDeltaTypeReplaced?: boolean;
      operations: (fifo: DeltaFIFO<TestFifoObject>) => void;
      expected: Deltas<TestFifoObject>;
    }> = [
      {
        name: 'Added object should be deleted on Replace',
        operations: (fifo) => {
          fifo.add(obj);
          fifo.replace([], '0');
        },
        expected: [
          { type: 'Added', object: obj },
          { type: 'Deleted', object: tombstone('foo', obj) },
        ],
      },
      {
        name: 'Replaced object should have only a single Delete',
        emitDeltaTypeReplaced: true,
        operations: (fifo) => {
          fifo.add(obj);
          fifo.replace([obj], '0');
          fifo.replace([], '0');
        },
        expected: [
          { type: 'Added', object: obj },
          { type: 'Replaced', object: obj },
          { type: 'Deleted', object: tombstone('foo', obj) },
        ],
      },
      {
        name: 'Deleted object should have only a single Delete',
        operations: (fifo) => {
          fifo.add(obj);
          fifo.delete(obj);
          fifo.replace([], '0');
        },
        expected: [
          { type: 'Added', object: obj },
          { type: 'Deleted', object: obj },
        ],
      },
      {
        name: 'Synced objects should have a single delete',
        operations: (fifo) => {
          fifo.add(obj);
          fifo.replace([obj], '0');
          fifo.replace([obj], '0');
          fifo.replace([], '0');
        },
        expected: [
          { type: 'Added', object: obj },
          { type: 'Sync', object: obj },
          { type: 'Sync', object: obj },
          { type: 'Deleted', object: tombstone('foo', obj) },
        ],
      },
      {
        name: 'Added objects should have a single delete on multiple Replaces',
        operations: (fifo) => {
          fifo.add(obj);
          fifo.replace([], '0');
          fifo.replace([], '1');
        },
        expected: [
          { type: 'Added', object: obj },
          { type: 'Deleted', object: tombstone('foo', obj) },
        ],
      },
      {
        name: 'Added and deleted and added object should be deleted',
        operations: (fifo) => {
          fifo.add(obj);
          fifo.delete(obj);
          fifo.add(objV2);
          fifo.replace([], '0');
        },
        expected: [
          { type: 'Added', object: obj },
          { type: 'Deleted', object: obj },
          { type: 'Added', object: objV2 },
          { type: 'Deleted', object: tombstone('foo', objV2) },
        ],
      },
    ];

    for (const { name, emitDeltaTypeReplaced, operations, expected } of table) {
      it(`${name} (with known objects)`, async () => {
        const fifo = newFIFO({ emitDeltaTypeReplaced, knownObjects: literalListerGetter(() => []) });
        operations(fifo);
        await expectPops(fifo, [expected]);
      });

      it(`${name} (without known objects)`, async () => {
        const fifo = newFIFO({ emitDeltaTypeReplaced });
        operations(fifo);
        await expectPops(fifo, [expected]);
      });
    }
  });

  it('TestDeltaFIFO_addUpdate', async () => {
    const fifo = newFIFO();
    fifo.add(mkFifoObj('foo', 10));
    fifo.update(mkFifoObj('foo', 12));
    fifo.delete(mkFifoObj('foo', 15));

    expect(fifo.list()).toEqual([mkFifoObj('foo', 15)]);
    expect(fifo.listKeys()).toEqual(['foo']);

    expect((await testPop(fifo)).val).toBe(15);
    const second = pop(fifo);
    expect(await isSettled(second)).toBe(false);
    expect(fifo.get(mkFifoObj('foo', ''))).toBeUndefined();
    fifo.close();
    await expect(second).rejects.toBeInstanceOf(FIFOClosedError);
  });

  // Every object is transformed exactly once: tombstones and their contents never again.
  it('TestDeltaFIFO_transformer', async () => {
    interface Versioned {
      resourceVersion: number;
      transformations: number;
    }
    const mk = (name: string, resourceVersion: number) =>
      mkFifoObj(name, { resourceVersion, transformations: 0 });
    const fifo = newFIFO({
      transformer: (obj) => {
        if (obj instanceof DeletedFinalStateUnknown) throw new Error(`transformed a tombstone: ${obj.key}`);
        ((obj as TestFifoObject).val as Versioned).transformations++;
        return obj;
      },
    });

    fifo.add(mk('foo', 10));
    fifo.add(mk('bar', 11));
    fifo.update(mk('foo', 12));
    fifo.delete(mk('foo', 15));
    fifo.replace([], '');
    fifo.add(mk('bar', 16));
    fifo.replace([], '');

    expect(fifo.listKeys()).toEqual(['foo', 'bar']);

    const foo = newest(await pop(fifo))?.object;
    expect(foo).not.toBeInstanceOf(DeletedFinalStateUnknown);
    expect((foo as TestFifoObject).name).toBe('foo');
    expect((foo as TestFifoObject).val).toEqual({ resourceVersion: 15, transformations: 1 });

    const bar = await pop(fifo);
    const barTombstone = newest(bar)?.object;
    expect(barTombstone).toBeInstanceOf(DeletedFinalStateUnknown);
    const inner = (barTombstone as DeletedFinalStateUnknown<TestFifoObject>).obj;
    expect(inner?.name).toBe('bar');
    expect(inner?.val).toEqual({ resourceVersion: 16, transformations: 1 });
    for (const delta of bar) {
      const object = delta.object instanceof DeletedFinalStateUnknown ? delta.object.obj : delta.object;
      expect((object?.val as Versioned).transformations).toBe(1);
    }
  });

  it('TestDeltaFIFO_enqueueingNoLister', async () => {
    const fifo = newFIFO();
    fifo.add(mkFifoObj('foo', 10));
    fifo.update(mkFifoObj('bar', 15));
    fifo.add(mkFifoObj('qux', 17));
    fifo.delete(mkFifoObj('qux', 18));
    // Nothing is queued for baz: it was never seen.
    fifo.delete(mkFifoObj('baz', 20));

    for (const expected of [10, 15, 18]) expect((await testPop(fifo)).val).toBe(expected);
    expect(fifo.listKeys()).toEqual([]);
  });

  it('TestDeltaFIFO_enqueueingWithLister', async () => {
    const fifo = newFIFO({
      knownObjects: literalListerGetter(() => [
        mkFifoObj('foo', 5),
        mkFifoObj('bar', 6),
        mkFifoObj('baz', 7),
      ]),
    });
    fifo.add(mkFifoObj('foo', 10));
    fifo.update(mkFifoObj('bar', 15));
    // The deletion is queued: the consumer knows baz.
    fifo.delete(mkFifoObj('baz', 20));

    for (const expected of [10, 15, 20]) expect((await testPop(fifo)).val).toBe(expected);
    expect(fifo.listKeys()).toEqual([]);
  });

  it('TestDeltaFIFO_addReplace', async () => {
    const fifo = newFIFO();
    fifo.add(mkFifoObj('foo', 10));
    fifo.replace([mkFifoObj('foo', 15)], '0');

    expect((await testPop(fifo)).val).toBe(15);
    const second = pop(fifo);
    expect(await isSettled(second)).toBe(false);
    expect(fifo.get(mkFifoObj('foo', ''))).toBeUndefined();
    fifo.close();
    await expect(second).rejects.toBeInstanceOf(FIFOClosedError);
  });

  it('TestDeltaFIFO_ResyncNonExisting', () => {
    const fifo = newFIFO({ knownObjects: literalListerGetter(() => [mkFifoObj('foo', 5)]) });
    fifo.delete(mkFifoObj('foo', 10));
    fifo.resync();

    expect(fifo.getDeltasByKey('foo')).toStrictEqual([{ type: 'Deleted', object: mkFifoObj('foo', 10) }]);
  });

  it('TestDeltaFIFO_Resync', () => {
    const fifo = newFIFO({ knownObjects: literalListerGetter(() => [mkFifoObj('foo', 5)]) });
    fifo.resync();

    expect(fifo.getDeltasByKey('foo')).toStrictEqual([{ type: 'Sync', object: mkFifoObj('foo', 5) }]);
  });

  it('TestDeltaFIFO_DeleteExistingNonPropagated', () => {
    const fifo = newFIFO({ knownObjects: literalListerGetter(() => []) });
    fifo.add(mkFifoObj('foo', 5));
    fifo.delete(mkFifoObj('foo', 6));

    const deltas = fifo.getDeltasByKey('foo');
    expect(deltas).toHaveLength(2);
    expect(newest(deltas ?? [])?.type).toBe('Deleted');
  });

  describe('TestDeltaFIFO_ReplaceMakesDeletions', () => {
    const known = () => [mkFifoObj('foo', 5), mkFifoObj('bar', 6), mkFifoObj('baz', 7)];

    it('after a queued Delete', async () => {
      const fifo = newFIFO({ knownObjects: literalListerGetter(known) });
      fifo.delete(mkFifoObj('baz', 10));
      fifo.replace([mkFifoObj('foo', 5)], '0');

      await expectPops(fifo, [
        [{ type: 'Deleted', object: mkFifoObj('baz', 10) }],
        [{ type: 'Sync', object: mkFifoObj('foo', 5) }],
        // bar had no delete event and is not listed: a tombstone with the consumer's copy.
        [{ type: 'Deleted', object: tombstone('bar', mkFifoObj('bar', 6)) }],
      ]);
    });

    it('after a queued Add', async () => {
      const fifo = newFIFO({ knownObjects: literalListerGetter(known) });
      fifo.add(mkFifoObj('baz', 10));
      fifo.replace([mkFifoObj('foo', 5)], '0');

      await expectPops(fifo, [
        [
          { type: 'Added', object: mkFifoObj('baz', 10) },
          { type: 'Deleted', object: tombstone('baz', mkFifoObj('baz', 10)) },
        ],
        [{ type: 'Sync', object: mkFifoObj('foo', 5) }],
        [{ type: 'Deleted', object: tombstone('bar', mkFifoObj('bar', 6)) }],
      ]);
    });

    it('after a queued Delete and re-Add', async () => {
      const fifo = newFIFO({ knownObjects: literalListerGetter(known) });
      fifo.delete(mkFifoObj('bar', 6));
      fifo.add(mkFifoObj('bar', 100));
      fifo.replace([mkFifoObj('foo', 5)], '0');

      await expectPops(fifo, [
        [
          { type: 'Deleted', object: mkFifoObj('bar', 6) },
          { type: 'Added', object: mkFifoObj('bar', 100) },
          // The queue's copy is newer than the consumer's, so the tombstone carries it.
          { type: 'Deleted', object: tombstone('bar', mkFifoObj('bar', 100)) },
        ],
        [{ type: 'Sync', object: mkFifoObj('foo', 5) }],
        [{ type: 'Deleted', object: tombstone('baz', mkFifoObj('baz', 7)) }],
      ]);
    });

    it('after an earlier Replace', async () => {
      const fifo = newFIFO({ knownObjects: literalListerGetter(known) });
      fifo.replace([mkFifoObj('bar', 100), mkFifoObj('foo', 5)], '0');
      fifo.replace([mkFifoObj('foo', 5)], '0');

      await expectPops(fifo, [
        [
          { type: 'Sync', object: mkFifoObj('bar', 100) },
          { type: 'Deleted', object: tombstone('bar', mkFifoObj('bar', 100)) },
        ],
        [
          { type: 'Sync', object: mkFifoObj('foo', 5) },
          { type: 'Sync', object: mkFifoObj('foo', 5) },
        ],
        [{ type: 'Deleted', object: tombstone('baz', mkFifoObj('baz', 7)) }],
      ]);
    });

    it('without known objects', async () => {
      const fifo = newFIFO();
      fifo.add(mkFifoObj('baz', 10));
      fifo.replace([mkFifoObj('foo', 5)], '0');

      await expectPops(fifo, [
        [
          { type: 'Added', object: mkFifoObj('baz', 10) },
          { type: 'Deleted', object: tombstone('baz', mkFifoObj('baz', 10)) },
        ],
        [{ type: 'Sync', object: mkFifoObj('foo', 5) }],
      ]);
    });
  });

  it('TestDeltaFIFO_ReplaceMakesDeletionsReplaced', async () => {
    const fifo = newFIFO({
      knownObjects: literalListerGetter(() => [
        mkFifoObj('foo', 5),
        mkFifoObj('bar', 6),
        mkFifoObj('baz', 7),
      ]),
      emitDeltaTypeReplaced: true,
    });
    fifo.delete(mkFifoObj('baz', 10));
    fifo.replace([mkFifoObj('foo', 6)], '0');

    await expectPops(fifo, [
      [{ type: 'Deleted', object: mkFifoObj('baz', 10) }],
      [{ type: 'Replaced', object: mkFifoObj('foo', 6) }],
      [{ type: 'Deleted', object: tombstone('bar', mkFifoObj('bar', 6)) }],
    ]);
  });

  it('TestDeltaFIFO_ReplaceDeltaType', async () => {
    const fifo = newFIFO({
      knownObjects: literalListerGetter(() => [mkFifoObj('foo', 5)]),
      emitDeltaTypeReplaced: true,
    });
    fifo.replace([mkFifoObj('foo', 5)], '0');

    await expectPops(fifo, [[{ type: 'Replaced', object: mkFifoObj('foo', 5) }]]);
  });

  // A resync must not queue the consumer's older copy behind a queued update.
  it('TestDeltaFIFO_UpdateResyncRace', async () => {
    const fifo = newFIFO({ knownObjects: literalListerGetter(() => [mkFifoObj('foo', 5)]) });
    fifo.update(mkFifoObj('foo', 6));
    fifo.resync();

    await expectPops(fifo, [[{ type: 'Updated', object: mkFifoObj('foo', 6) }]]);
  });

  it('TestDeltaFIFO_HasSyncedCorrectOnDeletion', async () => {
    const fifo = newFIFO({
      knownObjects: literalListerGetter(() => [
        mkFifoObj('foo', 5),
        mkFifoObj('bar', 6),
        mkFifoObj('baz', 7),
      ]),
    });
    fifo.replace([mkFifoObj('foo', 5)], '0');

    const expected: Deltas<TestFifoObject>[] = [
      [{ type: 'Sync', object: mkFifoObj('foo', 5) }],
      [{ type: 'Deleted', object: tombstone('bar', mkFifoObj('bar', 6)) }],
      [{ type: 'Deleted', object: tombstone('baz', mkFifoObj('baz', 7)) }],
    ];
    for (const deltas of expected) {
      expect(fifo.hasSynced()).toBe(false);
      let initial: boolean | undefined;
      const popped = await fifo.pop((_item, isInInitialList) => (initial = isInInitialList));
      expect(popped).toStrictEqual(deltas);
      expect(initial).toBe(true);
    }
    expect(fifo.hasSynced()).toBe(true);
  });

  // Kubetide: a replace into an empty queue takes a shorter path (no set of the listed keys); the
  // queue it leaves must be the one the general path leaves with something queued before.
  it('replaces an empty queue as it replaces one with a key queued: deletions, order, synced count', async () => {
    const known = () => [mkFifoObj('foo', 5), mkFifoObj('bar', 6), mkFifoObj('baz', 7)];
    const list = [mkFifoObj('foo', 8), mkFifoObj('qux', 9), mkFifoObj('foo', 10)];
    const empty = newFIFO({ knownObjects: literalListerGetter(known), emitDeltaTypeReplaced: true });
    empty.replace(list, '0');
    const queued = newFIFO({ knownObjects: literalListerGetter(known), emitDeltaTypeReplaced: true });
    // A key the list also holds, queued before it: the general path, with the same queue after.
    queued.add(mkFifoObj('qux', 1));
    queued.replace(list, '0');
    const expected: Deltas<TestFifoObject>[] = [
      [
        { type: 'Replaced', object: mkFifoObj('foo', 8) },
        { type: 'Replaced', object: mkFifoObj('foo', 10) },
      ],
      [{ type: 'Replaced', object: mkFifoObj('qux', 9) }],
      [{ type: 'Deleted', object: tombstone('bar', mkFifoObj('bar', 6)) }],
      [{ type: 'Deleted', object: tombstone('baz', mkFifoObj('baz', 7)) }],
    ];
    // Three keys listed (foo twice) and two deletions: synced after exactly four pops.
    for (const deltas of expected) {
      expect(empty.hasSynced()).toBe(false);
      expect(await pop(empty)).toStrictEqual(deltas);
    }
    expect(empty.hasSynced()).toBe(true);
    expect(empty.listKeys()).toEqual([]);
    await expectPops(queued, [
      [{ type: 'Added', object: mkFifoObj('qux', 1) }, ...expected[1]],
      expected[0],
      ...expected.slice(2),
    ]);
  });

  // Kubetide: with an arrival clock, each delta carries when it was queued (DeltaObserver's stamps).
  it('stamps each delta with when it was queued on its arrival clock, and none without one', async () => {
    const clock = new FakeClock(1_000);
    const fifo = newFIFO({
      knownObjects: literalListerGetter(() => [mkFifoObj('gone', 1)]),
      arrivalClock: clock,
    });
    fifo.add(mkFifoObj('foo', 1));
    clock.step(10);
    fifo.update(mkFifoObj('foo', 2));
    clock.step(10);
    // A list arrives at once: its objects and the deletions it implies.
    fifo.replace([mkFifoObj('bar', 3)], '0');
    await expectPops(fifo, [
      [
        { type: 'Added', object: mkFifoObj('foo', 1), arrivedAt: 1_000 },
        { type: 'Updated', object: mkFifoObj('foo', 2), arrivedAt: 1_010 },
        { type: 'Deleted', object: tombstone('foo', mkFifoObj('foo', 2)), arrivedAt: 1_020 },
      ],
      [{ type: 'Sync', object: mkFifoObj('bar', 3), arrivedAt: 1_020 }],
      [{ type: 'Deleted', object: tombstone('gone', mkFifoObj('gone', 1)), arrivedAt: 1_020 }],
    ]);
    const unstamped = newFIFO();
    unstamped.add(mkFifoObj('foo', 1));
    expect(Object.keys((await pop(unstamped))[0])).toEqual(['type', 'object']);
  });

  it('TestDeltaFIFO_detectLineJumpers', async () => {
    const fifo = newFIFO();
    fifo.add(mkFifoObj('foo', 10));
    fifo.add(mkFifoObj('bar', 1));
    fifo.add(mkFifoObj('foo', 11));
    fifo.add(mkFifoObj('foo', 13));
    fifo.add(mkFifoObj('zab', 30));

    expect((await testPop(fifo)).val).toBe(13);
    fifo.add(mkFifoObj('foo', 14)); // foo must not jump back in line
    expect((await testPop(fifo)).val).toBe(1);
    expect((await testPop(fifo)).val).toBe(30);
    expect((await testPop(fifo)).val).toBe(14);
  });

  it('TestDeltaFIFO_KeyOf', () => {
    const fifo = newFIFO();
    expect(fifo.keyOf({ name: 'A', val: undefined })).toBe('A');
    expect(fifo.keyOf(tombstone('B', undefined))).toBe('B');
    expect(fifo.keyOf([{ type: 'Added', object: { name: 'C', val: undefined } }])).toBe('C');
    expect(fifo.keyOf([{ type: 'Deleted', object: tombstone('D', undefined) }])).toBe('D');
  });

  it('keyOf an empty Deltas throws a KeyError caused by ZeroLengthDeltasObjectError', () => {
    const fifo = newFIFO();
    let caught: unknown;
    try {
      fifo.keyOf([]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(KeyError);
    expect((caught as KeyError).cause).toBeInstanceOf(ZeroLengthDeltasObjectError);
  });

  describe('TestDeltaFIFO_HasSynced', () => {
    const a1 = mkFifoObj('a', 1);
    const b2 = mkFifoObj('b', 2);
    const table: Array<{
      name: string;
      actions: Array<(fifo: DeltaFIFO<TestFifoObject>) => unknown>;
      synced: boolean;
    }> = [
      { name: 'nothing happened', actions: [], synced: false },
      { name: 'an add', actions: [(fifo) => fifo.add(a1)], synced: true },
      { name: 'an empty replace', actions: [(fifo) => fifo.replace([], '0')], synced: true },
      { name: 'a replace of two', actions: [(fifo) => fifo.replace([a1, b2], '0')], synced: false },
      {
        name: 'a replace of two, one pop',
        actions: [(fifo) => fifo.replace([a1, b2], '0'), pop],
        synced: false,
      },
      {
        name: 'a replace of two, two pops',
        actions: [(fifo) => fifo.replace([a1, b2], '0'), pop, pop],
        synced: true,
      },
      {
        // A Reflector never lists one key twice; the queue still counts keys, not items.
        name: 'a replace of one key twice, one pop',
        actions: [(fifo) => fifo.replace([a1, mkFifoObj('a', 2)], '0'), pop],
        synced: true,
      },
    ];

    for (const { name, actions, synced } of table) {
      it(name, async () => {
        const fifo = newFIFO();
        for (const action of actions) await action(fifo);
        expect(fifo.hasSynced()).toBe(synced);
      });
    }
  });

  it('TestDeltaFIFO_PopShouldUnblockWhenClosed', async () => {
    const fifo = newFIFO({ knownObjects: literalListerGetter(() => [mkFifoObj('foo', 5)]) });
    const pops = Array.from({ length: 10 }, () => pop(fifo));
    await flushMicrotasks();

    fifo.close();
    const results = await Promise.allSettled(pops);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(FIFOClosedError);
    }
    expect(fifo.isClosed()).toBe(true);
  });
});

describe('DeltaFIFO contract beyond the client-go tests', () => {
  it('runs process synchronously inside pop when an item is queued', () => {
    const fifo = newFIFO();
    fifo.add(mkFifoObj('foo', 1));
    let processed = false;
    void fifo.pop(() => (processed = true));
    expect(processed).toBe(true);
  });

  it('runs process before the pop promise resolves for a waiting pop', async () => {
    const fifo = newFIFO();
    const order: string[] = [];
    const popped = fifo.pop(() => order.push('process')).then(() => order.push('resolved'));
    fifo.add(mkFifoObj('foo', 1));
    await popped;
    expect(order).toEqual(['process', 'resolved']);
  });

  it('lets queued items drain after close, then rejects', async () => {
    const fifo = newFIFO();
    fifo.add(mkFifoObj('foo', 1));
    fifo.close();
    expect((await testPop(fifo)).val).toBe(1);
    await expect(pop(fifo)).rejects.toBeInstanceOf(FIFOClosedError);
  });

  it('consumes the item even when process throws, and rejects with that error', async () => {
    const fifo = newFIFO();
    fifo.add(mkFifoObj('foo', 1));
    const failure = new Error('handler failed');
    await expect(
      fifo.pop(() => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(fifo.listKeys()).toEqual([]);
  });

  it('hands each waiting pop a different item', async () => {
    const fifo = newFIFO();
    const pops = [testPop(fifo), testPop(fifo), testPop(fifo)];
    fifo.add(mkFifoObj('a', 1));
    fifo.add(mkFifoObj('b', 2));
    fifo.add(mkFifoObj('c', 3));
    expect((await Promise.all(pops)).map((obj) => obj.name)).toEqual(['a', 'b', 'c']);
  });

  it('keeps first-in-first-out order across a long queue consumed while it grows', async () => {
    const fifo = newFIFO();
    const popped: string[] = [];
    let next = 0;
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 100; i++) fifo.add(mkFifoObj(`key-${next++}`, next));
      for (let i = 0; i < 60; i++) popped.push((await testPop(fifo)).name);
    }
    while (fifo.listKeys().length > 0) popped.push((await testPop(fifo)).name);
    expect(popped).toEqual(Array.from({ length: next }, (_, index) => `key-${index}`));
  });

  it('keeps its semantics with more keys queued than one table holds before it splits (5,000)', async () => {
    const fifo = newFIFO({ emitDeltaTypeReplaced: true });
    for (let i = 0; i < 5_000; i++) fifo.add(mkFifoObj(`key-${i}`, i));
    fifo.update(mkFifoObj('key-7', 'updated'));
    // A relist that lists the even keys: each gets its Replaced, each odd one a tombstone, in place.
    fifo.replace(
      Array.from({ length: 2_500 }, (_, index) => mkFifoObj(`key-${index * 2}`, 'listed')),
      '9',
    );
    expect(fifo.listKeys()).toEqual(Array.from({ length: 5_000 }, (_, index) => `key-${index}`));
    expect(fifo.getDeltasByKey('key-7')).toStrictEqual([
      { type: 'Added', object: mkFifoObj('key-7', 7) },
      { type: 'Updated', object: mkFifoObj('key-7', 'updated') },
      { type: 'Deleted', object: tombstone('key-7', mkFifoObj('key-7', 'updated')) },
    ]);
    expect(fifo.getDeltasByKey('key-8')).toStrictEqual([
      { type: 'Added', object: mkFifoObj('key-8', 8) },
      { type: 'Replaced', object: mkFifoObj('key-8', 'listed') },
    ]);
    const types: string[] = [];
    for (let i = 0; i < 5_000; i++) types.push(newest(await fifo.pop(() => {}))!.type);
    expect(types).toEqual(
      Array.from({ length: 5_000 }, (_, index) => (index % 2 === 0 ? 'Replaced' : 'Deleted')),
    );
    expect(fifo.list()).toEqual([]);
  });

  it('transforms each replace item once, but neither tombstones nor resync Syncs', () => {
    let transformations = 0;
    const known = [mkFifoObj('known', 1), mkFifoObj('dropped', 2)];
    const fifo = newFIFO({
      knownObjects: literalListerGetter(() => known),
      transformer: (obj) => {
        transformations++;
        return obj;
      },
    });
    fifo.resync();
    expect(fifo.getDeltasByKey('known')).toStrictEqual([{ type: 'Sync', object: known[0] }]);
    expect(transformations).toBe(0);

    fifo.replace([mkFifoObj('listed', 3)], '1');
    expect(transformations).toBe(1);
    expect(fifo.getDeltasByKey('dropped')).toStrictEqual([
      { type: 'Sync', object: known[1] },
      { type: 'Deleted', object: tombstone('dropped', known[1]) },
    ]);
    expect(fifo.transformer()).toBeTypeOf('function');
  });

  it('queues the transformed object, not the original', async () => {
    const fifo = newFIFO({ transformer: (obj) => ({ ...(obj as TestFifoObject), val: 'stripped' }) });
    fifo.add(mkFifoObj('foo', 'managedFields'));
    expect((await testPop(fifo)).val).toBe('stripped');
  });

  it('accepts a tombstone in delete, keyed by the key it carries', async () => {
    const fifo = newFIFO({ knownObjects: literalListerGetter(() => [mkFifoObj('foo', 1)]) });
    fifo.delete(tombstone('foo', mkFifoObj('foo', 1)));
    await expectPops(fifo, [[{ type: 'Deleted', object: tombstone('foo', mkFifoObj('foo', 1)) }]]);
  });

  it('keeps the newer of two Deleted deltas when the older is a tombstone', () => {
    const fifo = newFIFO();
    fifo.add(mkFifoObj('foo', 1));
    fifo.replace([], '2');
    fifo.delete(mkFifoObj('foo', 3));
    expect(fifo.getDeltasByKey('foo')).toStrictEqual([
      { type: 'Added', object: mkFifoObj('foo', 1) },
      { type: 'Deleted', object: mkFifoObj('foo', 3) },
    ]);
  });

  it('answers Store reads with the newest object and getDeltas with a copy of the Deltas', () => {
    const fifo = newFIFO();
    fifo.add(mkFifoObj('foo', 1));
    fifo.replace([], '2');
    expect(fifo.getByKey('foo')).toEqual(mkFifoObj('foo', 1));
    expect(fifo.list()).toEqual([mkFifoObj('foo', 1)]);
    const copy = fifo.getDeltas(mkFifoObj('foo', 0));
    copy?.pop();
    expect(fifo.getDeltasByKey('foo')).toHaveLength(2);
  });

  it('throws a KeyError for objects its key function rejects', () => {
    const fifo = new DeltaFIFO<TestFifoObject>({
      keyFunction: () => {
        throw new Error('unkeyable');
      },
    });
    expect(() => fifo.add(mkFifoObj('foo', 1))).toThrow(KeyError);
    expect(fifo.listKeys()).toEqual([]);
  });

  it('keys objects with metaNamespaceKeyFunc by default', () => {
    const fifo = new DeltaFIFO<{ metadata: { name: string; namespace?: string } }>();
    fifo.add({ metadata: { namespace: 'default', name: 'web' } });
    expect(fifo.listKeys()).toEqual(['default/web']);
  });
});
