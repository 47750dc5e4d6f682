// DeltaFIFO.replaceInTurns (Kubetide's addition): client-go's Replace, prepared off the queue in
// bounded steps and committed in one. Checked against a reference written from client-go's
// delta_fifo.go (in place, in one call), on random queues, known objects, lists and interleavings:
// the queue after it, every pop, HasSynced, and that nothing (pop, read, mutator) ever sees a half
// of it.
import { describe, expect, it } from 'vitest';
import type { Delta, DeltaType, Deltas } from '../../../main/cache/delta';
import { DeltaFIFO } from '../../../main/cache/delta-fifo';
import { DeletedFinalStateUnknown } from '../../../main/cache/keys';
import type { KeyListerGetter } from '../../../main/cache/store';
import type { Turns } from '../../../main/cache/turn-budget';
import { seededRandom } from './shared-informer-helpers';

interface Obj {
  name: string;
  val: number;
}

type Random = () => number;

/** client-go's DeltaFIFO, the parts a replace touches, in place (delta_fifo.go). */
class ReferenceFIFO {
  items = new Map<string, Deltas<Obj>>();
  queue: string[] = [];
  populated = false;
  initialPopulationCount = 0;

  constructor(readonly known: Map<string, Obj>) {}

  private queueAction(type: DeltaType, obj: Obj | DeletedFinalStateUnknown<Obj>): void {
    const key = obj instanceof DeletedFinalStateUnknown ? obj.key : obj.name;
    const deltas = [...(this.items.get(key) ?? []), { type, object: obj }];
    const count = deltas.length;
    if (count >= 2 && deltas[count - 1].type === 'Deleted' && deltas[count - 2].type === 'Deleted') {
      if (deltas[count - 2].object instanceof DeletedFinalStateUnknown) deltas[count - 2] = deltas[count - 1];
      deltas.length = count - 1;
    }
    if (!this.items.has(key)) this.queue.push(key);
    this.items.set(key, deltas);
  }

  add(obj: Obj): void {
    this.populated = true;
    this.queueAction('Added', obj);
  }

  delete(obj: Obj): void {
    this.populated = true;
    if (!this.items.has(obj.name) && !this.known.has(obj.name)) return;
    this.queueAction('Deleted', obj);
  }

  replace(list: Obj[]): void {
    const keys = new Set<string>();
    for (const obj of list) {
      keys.add(obj.name);
      this.queueAction('Replaced', obj);
    }
    let queuedDeletions = 0;
    for (const [key, deltas] of [...this.items]) {
      if (keys.has(key)) continue;
      const newest = deltas[deltas.length - 1].object;
      queuedDeletions++;
      this.queueAction(
        'Deleted',
        new DeletedFinalStateUnknown(key, newest instanceof DeletedFinalStateUnknown ? newest.obj : newest),
      );
    }
    for (const key of this.known.keys()) {
      if (keys.has(key) || this.items.has(key)) continue;
      queuedDeletions++;
      this.queueAction('Deleted', new DeletedFinalStateUnknown(key, this.known.get(key)));
    }
    if (!this.populated) {
      this.populated = true;
      this.initialPopulationCount = keys.size + queuedDeletions;
    }
  }

  /** Pops the head as an informer would, telling its consumer (the known map). */
  pop(): [Deltas<Obj>, boolean] | undefined {
    const key = this.queue.shift();
    if (key === undefined) return undefined;
    const synced = this.populated && this.initialPopulationCount === 0;
    if (this.initialPopulationCount > 0) this.initialPopulationCount--;
    const deltas = this.items.get(key)!;
    this.items.delete(key);
    know(this.known, deltas);
    return [deltas, !synced];
  }

  hasSynced(): boolean {
    return this.populated && this.initialPopulationCount === 0;
  }
}

/** What an informer's indexer does with popped deltas. */
function know(known: Map<string, Obj>, deltas: Deltas<Obj>): void {
  for (const delta of deltas) {
    const key = delta.object instanceof DeletedFinalStateUnknown ? delta.object.key : delta.object.name;
    if (delta.type === 'Deleted') known.delete(key);
    else known.set(key, delta.object as Obj);
  }
}

function listerGetter(known: Map<string, Obj>, onGet?: () => void): KeyListerGetter<Obj> {
  return {
    listKeys: () => [...known.keys()],
    getByKey: (key) => {
      onGet?.();
      return known.get(key);
    },
  };
}

/** Everything a reader can see of a queue: its keys in pop order, each key's deltas, HasSynced. */
function snapshot(fifo: DeltaFIFO<Obj> | ReferenceFIFO): unknown {
  const keys = fifo instanceof DeltaFIFO ? fifo.listKeys() : [...fifo.queue];
  const deltas = (key: string) =>
    (fifo instanceof DeltaFIFO ? fifo.getDeltasByKey(key) : fifo.items.get(key))?.map(describeDelta);
  return { keys, deltas: keys.map(deltas), synced: fifo.hasSynced() };
}

function describeDelta(delta: Delta<Obj>): string {
  const object = delta.object;
  if (object instanceof DeletedFinalStateUnknown)
    return `${delta.type} tombstone ${object.key}=${object.obj ? object.obj.val : 'none'}`;
  return `${delta.type} ${object.name}=${object.val}`;
}

/** Turns that end at random after 1-4 steps, running `between` at every turn's end. */
function randomTurns(random: Random, between: () => void): Turns & { turns: number } {
  let left = 1 + Math.floor(random() * 4);
  return {
    turns: 0,
    spend() {
      if (--left > 0) return false;
      left = 1 + Math.floor(random() * 4);
      return true;
    },
    async nextTurn() {
      this.turns++;
      between();
      await Promise.resolve();
    },
  };
}

describe('DeltaFIFO.replaceInTurns', () => {
  it('leaves the queue, pops and HasSynced as client-go Replace does, and no one sees half of it', async () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = seededRandom(seed);
      const names = Array.from({ length: 3 + Math.floor(random() * 12) }, (_, index) => `o${index}`);
      const pick = () => names[Math.floor(random() * names.length)];
      let val = 0;
      const obj = (): Obj => ({ name: pick(), val: ++val });
      const fifoKnown = new Map<string, Obj>();
      const referenceKnown = new Map<string, Obj>();
      const fifo = new DeltaFIFO<Obj>({
        keyFunction: (object) => object.name,
        knownObjects: listerGetter(fifoKnown),
        emitDeltaTypeReplaced: true,
      });
      const reference = new ReferenceFIFO(referenceKnown);
      const popBoth = () => {
        const expected = reference.pop();
        let popped: [Deltas<Obj>, boolean] | undefined;
        fifo.popQueued((deltas, initial) => {
          popped = [deltas, initial];
          know(fifoKnown, deltas);
        });
        expect(popped?.[1]).toBe(expected?.[1]);
        expect(popped?.[0].map(describeDelta)).toEqual(expected?.[0].map(describeDelta));
      };

      for (let step = 0; step < 12; step++) {
        const roll = random();
        if (roll < 0.3) {
          const added = obj();
          fifo.add(added);
          reference.add(added);
        } else if (roll < 0.45) {
          const deleted = obj();
          fifo.delete(deleted);
          reference.delete(deleted);
        } else if (roll < 0.7) popBoth();
        else {
          const list = Array.from({ length: Math.floor(random() * names.length * 1.5) }, obj);
          const before = snapshot(fifo);
          // Calls made while it is under way: pops and reads must see the queue as it was, and
          // mutators run after it, in order (the reference runs them after its Replace).
          const held: Obj[] = [];
          const turns = randomTurns(random, () => {
            expect(snapshot(fifo)).toEqual(before);
            expect(fifo.popQueued(() => {})).toBeUndefined();
            if (random() < 0.3) {
              const added = obj();
              held.push(added);
              fifo.add(added);
            }
          });
          const replacing = fifo.replaceInTurns(list, '1', turns, new AbortController().signal);
          if (replacing) expect(await replacing).toBe(true);
          reference.replace(list);
          for (const added of held) reference.add(added);
        }
        expect(snapshot(fifo), `seed ${seed} step ${step}`).toEqual(snapshot(reference));
      }
      while (reference.queue.length > 0) popBoth();
    }
  });

  it('does at most a turn of steps synchronously: objects listed, keys queued and keys known', async () => {
    const known = new Map<string, Obj>();
    for (let index = 0; index < 3000; index++) known.set(`known${index}`, { name: `known${index}`, val: 0 });
    let work = 0;
    let longest = 0;
    const fifo = new DeltaFIFO<Obj>({
      keyFunction: (object) => {
        work++;
        return object.name;
      },
      knownObjects: listerGetter(known, () => work++),
      emitDeltaTypeReplaced: true,
    });
    for (let index = 0; index < 2000; index++) fifo.add({ name: `queued${index}`, val: 1 });
    const list = Array.from({ length: 5000 }, (_, index) => ({ name: `listed${index}`, val: 2 }));
    work = 0;
    let spent = 0;
    const turns: Turns = {
      spend: () => ++spent % 100 === 0,
      nextTurn: async () => {
        longest = Math.max(longest, work);
        work = 0;
        await Promise.resolve();
      },
    };
    await fifo.replaceInTurns(list, '1', turns, new AbortController().signal);
    longest = Math.max(longest, work);
    // Each step is one object keyed, one queued key merged or one known key read (the known keys'
    // list itself is one call).
    expect(longest).toBeLessThanOrEqual(100);
    expect(fifo.listKeys()).toHaveLength(10_000);
    expect(fifo.listKeys().slice(0, 2)).toEqual(['queued0', 'queued1']);
    expect(fifo.listKeys().slice(2000, 2002)).toEqual(['listed0', 'listed1']);
    expect(fifo.listKeys().slice(7000, 7002)).toEqual(['known0', 'known1']);
  });

  it('pop waits for the commit and sees the whole replacement; an abort leaves the queue untouched', async () => {
    const fifo = new DeltaFIFO<Obj>({ keyFunction: (object) => object.name });
    fifo.add({ name: 'a', val: 1 });
    const list = Array.from({ length: 50 }, (_, index) => ({ name: `l${index}`, val: 1 }));
    const everyStep: Turns = {
      spend: () => true,
      nextTurn: () => new Promise((resolve) => setImmediate(resolve)),
    };

    const aborted = new AbortController();
    const abandoned = fifo.replaceInTurns(list, '1', everyStep, aborted.signal)!;
    aborted.abort();
    expect(await abandoned).toBe(false);
    expect(fifo.listKeys()).toEqual(['a']);

    const replacing = fifo.replaceInTurns(list, '1', everyStep, new AbortController().signal)!;
    let seen: string[] | undefined;
    const popped = fifo.pop(() => (seen = fifo.listKeys()));
    expect(await replacing).toBe(true);
    // The pop took the head of the replaced queue, with every other key of it still queued.
    expect((await popped).map(describeDelta)).toEqual(['Added a=1', 'Deleted tombstone a=1']);
    expect(seen).toHaveLength(50);
  });
});
