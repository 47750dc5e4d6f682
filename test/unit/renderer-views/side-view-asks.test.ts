import { describe, expect, it } from 'vitest';
import { SideViewAsks } from '../../../renderer/views/side-view-asks';

describe('SideViewAsks', () => {
  it('asks a moment once, the next only once the last is complete and at most every spacing', () => {
    const asks = new SideViewAsks(500);
    expect(asks.next(1_000, false, 0)).toBe('ask');
    asks.asking(1_000, 0);
    expect(asks.next(1_000, false, 10)).toBeUndefined();
    // The moment moved while the last one is still rebuilt: it finishes first.
    expect(asks.next(2_000, false, 100)).toBeUndefined();
    expect(asks.next(2_000, true, 100)).toBe(400);
    expect(asks.next(2_000, true, 500)).toBe('ask');
    asks.asking(2_000, 500);
    expect(asks.moment).toBe(2_000);
  });

  it('asks a failed moment again, waiting longer after each failure, its error kept until answered', () => {
    const asks = new SideViewAsks(500, 8_000);
    asks.asking(1_000, 0);
    asks.failed(1_000, 'main is busy');
    // Nothing is held: without the retry the view would read for good.
    expect(asks.moment).toBeUndefined();
    expect(asks.error).toBe('main is busy');
    expect(asks.next(1_000, false, 0)).toBe(1_000);
    expect(asks.next(1_000, false, 1_000)).toBe('ask');
    asks.asking(1_000, 1_000);
    asks.failed(1_000, 'main is busy');
    expect(asks.next(1_000, false, 1_000)).toBe(2_000);
    for (let failure = 0; failure < 10; failure++) {
      asks.asking(1_000, 0);
      asks.failed(1_000, 'main is busy');
    }
    expect(asks.next(1_000, false, 0)).toBe(8_000);
    asks.asking(1_000, 8_000);
    expect(asks.answered(1_000)).toBe(true);
    expect(asks.error).toBeUndefined();
    expect(asks.next(2_000, true, 8_500)).toBe('ask');
  });

  it('ignores the answer or failure of a moment asked before the last', () => {
    const asks = new SideViewAsks(0);
    asks.asking(1_000, 0);
    asks.asking(2_000, 1);
    asks.failed(1_000, 'superseded');
    expect(asks.moment).toBe(2_000);
    expect(asks.error).toBeUndefined();
    expect(asks.answered(1_000)).toBe(false);
  });

  it('asks again at once after a new connection, which holds no replay on main', () => {
    const asks = new SideViewAsks(500);
    asks.asking(1_000, 0);
    expect(asks.next(1_000, true, 10)).toBeUndefined();
    asks.reset();
    expect(asks.next(1_000, false, 10)).toBe('ask');
  });
});
