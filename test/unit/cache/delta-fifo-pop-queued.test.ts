import { describe, expect, it } from 'vitest';
import type { Deltas } from '../../../main/cache/delta';
import { DeltaFIFO } from '../../../main/cache/delta-fifo';
import { FIFOClosedError } from '../../../main/cache/queue';

interface Item {
  name: string;
  val: number;
}

const newFIFO = () => new DeltaFIFO<Item>({ keyFunction: (obj) => obj.name });

describe('DeltaFIFO.popQueued', () => {
  it('returns undefined at once on an empty queue, open or closed', () => {
    const fifo = newFIFO();
    expect(fifo.popQueued(() => {})).toBeUndefined();
    fifo.close();
    expect(fifo.popQueued(() => {})).toBeUndefined();
  });

  it('drains a burst synchronously in queue order, like pop', () => {
    const fifo = newFIFO();
    fifo.add({ name: 'a', val: 1 });
    fifo.add({ name: 'b', val: 2 });
    fifo.update({ name: 'a', val: 3 });
    const seen: string[] = [];
    const process = (deltas: Deltas<Item>) => {
      seen.push(
        deltas
          .map((delta) => `${delta.type}:${(delta.object as Item).name}${(delta.object as Item).val}`)
          .join(','),
      );
    };
    while (fifo.popQueued(process) !== undefined);
    expect(seen).toEqual(['Added:a1,Updated:a3', 'Added:b2']);
    expect(fifo.listKeys()).toEqual([]);
  });

  it('reports isInInitialList and counts down the initial population as pop does', () => {
    const fifo = newFIFO();
    fifo.replace(
      [
        { name: 'a', val: 1 },
        { name: 'b', val: 2 },
      ],
      '1',
    );
    const flags: boolean[] = [];
    while (fifo.popQueued((_, isInInitialList) => flags.push(isInInitialList)) !== undefined);
    expect(flags).toEqual([true, true]);
    expect(fifo.hasSynced()).toBe(true);
  });

  it('lets a throw from process propagate without requeueing the item', () => {
    const fifo = newFIFO();
    fifo.add({ name: 'a', val: 1 });
    expect(() =>
      fifo.popQueued(() => {
        throw new Error('handler failed');
      }),
    ).toThrow('handler failed');
    expect(fifo.listKeys()).toEqual([]);
  });

  it('still drains what was queued before close, then pop rejects', async () => {
    const fifo = newFIFO();
    fifo.add({ name: 'a', val: 1 });
    fifo.close();
    expect(fifo.popQueued(() => {})).toHaveLength(1);
    await expect(fifo.pop(() => {})).rejects.toBeInstanceOf(FIFOClosedError);
  });
});
