import { describe, expect, it } from 'vitest';
import { ManualFrameScheduler } from '../../../renderer/store/frame-scheduler';
import { MirrorStore } from '../../../renderer/store/mirror-store';
import { NarrowingQuery } from '../../../renderer/store/narrowing-query';
import type { Row } from '../../../shared/protocol/row';
import { parseFilterExpression } from '../../../renderer/ui-state/filter-expression';
import { queryKindRows } from '../../../renderer/views/kind-rows-query';
import { followSettledRequeries } from '../../../renderer/views/settled-requery';
import { SortedOrder } from '../../../renderer/views/sorted-order';
import { deltaBatch, pick, row, seededRandom } from '../bridge/fixtures';
import { churnRound, keysByName } from '../renderer-store/random-churn';
import { manualTimers } from '../../support/manual-timers';

const framePeriodMs = 16;
const gapMs = 100;

/**
 * A MirrorStore on hand-driven frames and timers, subscription "s" followed by followSettledRequeries
 * whose requery asks the table's unfiltered query (by name) and keeps its answer, as the window shows.
 */
function setup() {
  const scheduler = new ManualFrameScheduler();
  const store = new MirrorStore({ scheduler });
  store.open('s');
  const clock = manualTimers();
  const order = new SortedOrder();
  const narrowing = new NarrowingQuery();
  const expression = parseFilterExpression('');
  let inFrame = false;
  const requeries: { inFrame: boolean; revision: number }[] = [];
  let shown: readonly string[] = [];
  const stop = followSettledRequeries(store.state, 's', {
    requery: () => {
      const mirror = store.mirror('s')!;
      requeries.push({ inFrame, revision: mirror.revision });
      shown = queryKindRows(
        mirror,
        expression,
        {},
        { column: 'name', descending: false },
        order,
        undefined,
        narrowing,
      ).keys;
    },
    gapMs: () => gapMs,
    holdFor: () => 0,
    hasSnapshot: () => store.mirror('s')!.hasSnapshot,
    now: clock.now,
    setTimer: clock.setTimer,
    clearTimer: clock.clearTimer,
  });
  /** One frame: the batches received so far applied, then the page's time moves a frame on. */
  const frame = (): void => {
    inFrame = true;
    scheduler.runFrame();
    inFrame = false;
    clock.advance(framePeriodMs);
  };
  let seq = 0;
  const send = (upserts: Row[], deletes: string[] = []): void => {
    seq += 1;
    store.receive({
      ...deltaBatch(seq, { upserts, deletes }),
      ...(seq === 1 ? { replace: true, snapshotEnd: true } : {}),
    });
  };
  return { store, clock, frame, send, requeries, shown: () => shown, stop };
}

describe('followSettledRequeries', () => {
  it("never queries in the frame that applied the rows: the settle posts a task, which reads the frame's rows", () => {
    const { frame, send, requeries } = setup();
    send([row('a'), row('b')]);
    frame();
    expect(requeries.length).toBeGreaterThan(0);
    expect(requeries.every((requery) => !requery.inFrame)).toBe(true);
    expect(requeries.at(-1)!.revision).toBe(1);
  });

  it('runs one task for the settles that come while it is pending', () => {
    const { store, clock, send, requeries } = setup();
    const start = requeries.length;
    send([row('a')]);
    // Two frames' batches applied before the page's timers run (a busy page): one task answers both.
    store.applyQueued();
    send([row('b')]);
    store.applyQueued();
    clock.advance(0);
    expect(requeries.length - start).toBe(1);
    expect(requeries.at(-1)!.revision).toBe(2);
  });

  it('stops with its pending task', () => {
    const { store, clock, send, requeries, stop } = setup();
    clock.advance(0);
    const start = requeries.length;
    send([row('a')]);
    store.applyQueued();
    stop();
    clock.advance(1_000);
    expect(requeries.length).toBe(start);
  });

  it('fuzz: under churn every frame, the keys shown equal the store once the churn stops', () => {
    const random = seededRandom(41);
    const { store, frame, send, requeries, shown } = setup();
    const live = new Map<string, Row>();
    for (let round = 1; round <= 200; round++) {
      const { upserts, deletes } = churnRound(random, live, {
        changes: round === 1 ? 2_000 : 1 + Math.floor(random() * 40),
        deleteChance: 0.4,
        newKey: () =>
          `${pick(random, ['a', 'b'])}/${pick(random, ['web', 'db', 'api-7'])}-${Math.floor(random() * 3_000)}`,
        make: (key) => row(key, String(round)),
      });
      send([...upserts.values()], [...deletes]);
      frame();
    }
    // Paced by the gap: far fewer queries than frames, none inside one.
    expect(requeries.length).toBeLessThan(200 * (framePeriodMs / gapMs) + 5);
    expect(requeries.every((requery) => !requery.inFrame)).toBe(true);
    // The churn stops; the last settle comes within a gap, and its task answers the final rows.
    for (let quiet = 0; quiet < 10; quiet++) frame();
    expect(requeries.at(-1)!.revision).toBe(store.mirror('s')!.revision);
    expect(shown()).toEqual(keysByName(live.values()));
  });
});
