// A travel's moment sent as its difference from the live rows (DeltaBatch.base), main and renderer
// together over one ordered link: the replay mirror must end exactly equal to the moment, whatever the
// live stream does meanwhile (pending changes, batches between the moment's chunks), across deletes,
// reused names (a key whose object was deleted and created again: another uid), empty moments and a
// replay that already held another moment; and moments sent against the one the replay holds.
import { describe, expect, it } from 'vitest';
import { BatchStream } from '../../../main/bridge/batch-stream';
import { decodeRows, encodeRows } from '../../../main/bridge/encoded-rows';
import { MomentDifference } from '../../../main/bridge/moment-difference';
import { messageValue } from '../../../main/bridge/outgoing-message';
import type { OutgoingMessage } from '../../../main/bridge/outgoing-message';
import { FakeClock } from '../../../main/cache/fake-clock';
import { ManualFrameScheduler } from '../../../renderer/store/frame-scheduler';
import { MirrorStore } from '../../../renderer/store/mirror-store';
import { nameOrder } from '../../../renderer/store/name-order';
import { sortRowsByName } from '../../../renderer/store/named-keys';
import type { Row } from '../../../shared/protocol/row';
import type { DeltaBatch } from '../../../shared/protocol/server-messages';
import { pick, row, seededRandom } from './fixtures';

const names = Array.from({ length: 40 }, (_, index) => `team-${index % 3}/pod-${index}`);

/**
 * Main's two streams and the renderer's store, joined by one ordered link. With `frames`, each
 * delivery runs that many of the page's frames of `maxRowsPerFrame` rows (the base rows a travel's
 * first moment starts from are written a slice a frame: see SubscriptionMirror.writeAhead); the
 * last delivery of a moment runs frames until nothing is left.
 */
function session(frames?: { random: () => number; maxRowsPerFrame: number }) {
  const clock = new FakeClock();
  const link: OutgoingMessage[] = [];
  const gaps: string[] = [];
  const streams = new Map<string, BatchStream>();
  const scheduler = new ManualFrameScheduler();
  const store = new MirrorStore({
    scheduler,
    onGap: (id) => gaps.push(id),
    onApplied: (id, seq) => streams.get(id)?.acknowledge(seq),
    maxRowsPerFrame: frames?.maxRowsPerFrame,
  });
  const open = (subscriptionId: string, keepSentRows: boolean) => {
    const stream = new BatchStream({
      subscriptionId,
      clock,
      send: (message) => link.push(message),
      maxBatchRows: 5,
      keepSentRows,
    });
    streams.set(subscriptionId, stream);
    return stream;
  };
  const live = open('s1', true);
  const replay = open('replay1', false);
  store.open('s1');
  store.open('replay1', 0, { wholeSnapshots: true });
  /** Delivers what main sent so far, the first `count` messages or all, and applies them. */
  const deliver = (count = link.length) => {
    for (const message of link.splice(0, count)) {
      store.receive(messageValue(message) as DeltaBatch);
      // The messages come one by one, some frames apart.
      if (frames) for (let frame = Math.floor(frames.random() * 3); frame > 0; frame--) scheduler.runFrame();
    }
    if (!frames) store.applyQueued();
  };
  /** Runs the page's frames until none is asked for (everything delivered applied, every row written). */
  const settle = () => {
    for (let frame = 0; frame < 10_000 && scheduler.pendingFrames > 0; frame++) scheduler.runFrame();
  };
  return { clock, link, gaps, store, live, replay, deliver, settle };
}

/** Random rows: some keys of `names`, each an object (uid) at some version. */
function randomRows(random: () => number, like: readonly Row[] = []): Row[] {
  const rows = new Map<string, Row>();
  for (const previous of like) {
    const roll = random();
    // Kept as it is, changed, deleted, or deleted and created again under the same name.
    if (roll < 0.5) rows.set(previous.key, previous);
    else if (roll < 0.7) rows.set(previous.key, { ...previous, resourceVersion: `${random()}` });
    else if (roll < 0.8) rows.set(previous.key, row(previous.key, `${random()}`, { uid: `uid-${random()}` }));
  }
  const added = Math.floor(random() * 10);
  for (let index = 0; index < added; index++) {
    const key = pick(random, names);
    if (!rows.has(key)) rows.set(key, row(key, `${random()}`, { uid: `uid-${random()}` }));
  }
  return [...rows.values()].sort((left, right) => (left.key < right.key ? -1 : 1));
}

/** Random live changes to `rows` (the feed), recorded into the live stream. */
function churn(random: () => number, rows: Map<string, Row>, live: BatchStream): void {
  const changes = Math.floor(random() * 6);
  for (let index = 0; index < changes; index++) {
    const key = pick(random, names);
    const old = rows.get(key);
    if (old && random() < 0.3) {
      rows.delete(key);
      live.record({ type: 'deleted', key });
    } else {
      const next = row(key, `${random()}`, old ? { uid: old.uid } : { uid: `uid-${random()}` });
      rows.set(key, next);
      live.record(old ? { type: 'updated', row: next } : { type: 'added', row: next });
    }
  }
}

/** Sends `moment` against the live stream's rows as the worker's chunks come, churning between them. */
async function sendMoment(
  random: () => number,
  moment: readonly Row[],
  feed: Map<string, Row>,
  { clock, live, replay }: ReturnType<typeof session>,
): Promise<MomentDifference> {
  const base = live.baseRows();
  if (!base) throw new Error('the live stream has no base');
  const difference = new MomentDifference(base, new Set());
  const snapshot = replay.openSnapshot({ subscriptionId: 's1', seq: base.seq });
  for (let from = 0; from < moment.length;) {
    const to = from + 1 + Math.floor(random() * 8);
    const chunk = moment.slice(from, to);
    snapshot.add(difference.changed(random() < 0.7 ? encodeRows(chunk) : chunk));
    from = to;
    churn(random, feed, live);
    if (random() < 0.5) clock.step(100);
  }
  // Live batches go on between the slices of the deletes too.
  const deletes = await difference.deletes(() => {
    churn(random, feed, live);
    clock.step(100);
    return Promise.resolve();
  }, 3);
  snapshot.end(deletes);
  return difference;
}

/**
 * Sends `moment` against the rows the replay holds (`held`, the moment it was sent last, whole): the
 * rows that are not the very rows held, then the keys held that the moment lacks, as the query worker
 * sends a moment against the one before (MomentRows), the live stream churning meanwhile.
 */
function sendAgainstHeld(
  random: () => number,
  moment: readonly Row[],
  held: readonly Row[],
  feed: Map<string, Row>,
  { clock, live, replay }: ReturnType<typeof session>,
): { unchanged: number } {
  const heldRows = new Map(held.map((each) => [each.key, each]));
  const changed = moment.filter((each) => heldRows.get(each.key) !== each);
  const keys = new Set(moment.map((each) => each.key));
  const snapshot = replay.openSnapshot({ subscriptionId: 'replay1', seq: replay.lastSeq });
  for (let from = 0; from < changed.length;) {
    const to = from + 1 + Math.floor(random() * 8);
    const chunk = changed.slice(from, to);
    snapshot.add(random() < 0.7 ? encodeRows(chunk) : chunk);
    from = to;
    churn(random, feed, live);
    if (random() < 0.5) clock.step(100);
  }
  snapshot.end(held.filter((each) => !keys.has(each.key)).map((each) => each.key));
  return { unchanged: moment.length - changed.length };
}

function expectHolds(store: MirrorStore, subscriptionId: string, rows: readonly Row[]): void {
  const mirror = store.mirror(subscriptionId)!;
  expect(new Map(mirror.rows)).toEqual(new Map(rows.map((each) => [each.key, each])));
  expect(nameOrder(mirror)).toEqual(sortRowsByName(rows).keys);
}

describe('a moment sent against the live rows (DeltaBatch.base)', () => {
  it('fuzz: the replay mirror ends exactly equal to the moment, however the live rows move meanwhile', async () => {
    for (let seed = 1; seed <= 400; seed++) {
      const random = seededRandom(seed);
      // Half the sessions apply in the page's frames of a few rows, so the live rows a first moment
      // starts from are written ahead between its chunks, before and after the chunks change them.
      const parts = session(
        seed > 200 ? { random, maxRowsPerFrame: 1 + Math.floor(random() * 6) } : undefined,
      );
      const { clock, live, store, deliver } = parts;
      const feed = new Map(randomRows(random).map((each) => [each.key, each]));
      live.snapshot([...feed.values()]);
      churn(random, feed, live);
      clock.step(100);
      // Part of what was sent is still on its way, and some changes are still pending in main.
      deliver(Math.floor(random() * parts.link.length));
      churn(random, feed, live);
      const moments = [randomRows(random, [...feed.values()])];
      if (random() < 0.5) moments.push(randomRows(random, moments[0]));
      // Then moments sent against the one the replay holds (as the query worker sends them).
      const againstHeld = Math.floor(random() * 3);
      for (let index = 0; index < againstHeld; index++) moments.push(randomRows(random, moments.at(-1)));
      for (const [index, moment] of moments.entries()) {
        const held = index > 0 && index >= moments.length - againstHeld ? moments[index - 1] : undefined;
        const difference = held
          ? sendAgainstHeld(random, moment, held, feed, parts)
          : await sendMoment(random, moment, feed, parts);
        clock.step(100);
        deliver();
        // Let the streams send what acknowledgements allowed, until nothing is left.
        for (let round = 0; round < 20 && parts.link.length === 0; round++) clock.step(1_000);
        deliver();
        clock.step(1_000);
        deliver();
        parts.settle();
        expect(parts.gaps, `seed ${seed}`).toEqual([]);
        expectHolds(store, 'replay1', moment);
        expect(difference.unchanged).toBeGreaterThanOrEqual(0);
      }
      // What the live stream sends once the last acknowledgements are in.
      for (let round = 0; round < 5; round++) {
        clock.step(1_000);
        deliver();
        parts.settle();
      }
      expectHolds(store, 's1', [...feed.values()]);
    }
  });

  it('sends only the rows that differ from the live rows, and deletes the keys the moment lacks', async () => {
    const parts = session();
    const { live, replay, link, store, deliver } = parts;
    const a = row('ns/a');
    const b = row('ns/b');
    const c = row('ns/c');
    live.snapshot([a, b, c]);
    deliver();
    const base = live.baseRows()!;
    const difference = new MomentDifference(base, new Set());
    const snapshot = replay.openSnapshot({ subscriptionId: 's1', seq: base.seq });
    const changedB = row('ns/b', '2');
    const d = row('ns/d');
    snapshot.add(difference.changed(encodeRows([a, changedB, d])));
    snapshot.end(await difference.deletes(() => Promise.resolve()));
    const sent = link.map((message) => messageValue(message) as DeltaBatch);
    expect(sent.map((batch) => [batch.upserts.map((each) => each.key), batch.deletes])).toEqual([
      [[], []],
      [['ns/b', 'ns/d'], ['ns/c']],
    ]);
    expect(sent[0].base).toEqual({ subscriptionId: 's1', seq: 1 });
    expect(difference.unchanged).toBe(1);
    deliver();
    expectHolds(store, 'replay1', [a, changedB, d]);
  });

  it('finds each row of a chunk of tuples by its key, whatever its strings hold, and reads only its identity', () => {
    const parts = session();
    const { live } = parts;
    // Strings that spell a row's start ("," "[" the next key ","), escapes, a boxed first cell.
    const tricky = (key: string, version: string) =>
      row(key, version, {
        labels: { next: ',["ns/c",', quote: 'say "hi" \\' },
        cells: ['other-name', ',["ns/c",'],
      });
    const rows = [tricky('ns/a', '1'), tricky('ns/b', '1'), tricky('ns/c', '1'), tricky('ns/d', '1')];
    live.snapshot(rows);
    parts.deliver();
    const difference = new MomentDifference(live.baseRows()!, new Set());
    const moment = [rows[0], tricky('ns/b', '2'), rows[2], { ...rows[3], uid: 'another' }];
    const layout = { cellFields: ['name' as const, null] };
    const changed = difference.changed(encodeRows(moment, layout));
    expect('json' in changed && decodeRows(changed)).toEqual([moment[1], moment[3]]);
    expect(difference.unchanged).toBe(2);
    difference.release();
  });

  it('treats a base the renderer no longer holds as it was as a gap, to be resnapshotted whole', () => {
    const parts = session();
    const { live, replay, store, deliver, gaps } = parts;
    live.snapshot([row('ns/a')]);
    deliver();
    const base = live.baseRows()!;
    // The renderer dropped the live mirror meanwhile (its kind left long ago).
    store.close('s1');
    const snapshot = replay.openSnapshot({ subscriptionId: 's1', seq: base.seq });
    snapshot.add([row('ns/a')]);
    snapshot.end([]);
    deliver();
    expect(gaps).toEqual(['replay1']);
    expect(store.mirror('replay1')!.rows.size).toBe(0);
  });

  it('has no base while a live snapshot is under way', () => {
    const { live } = session();
    live.snapshot([row('a'), row('b')]);
    expect(live.baseRows()?.seq).toBe(1);
    // The renderer keeps unmentioned rows until a snapshot's end: until then it holds no base.
    const opened = live.openSnapshot();
    expect(live.baseRows()).toBeUndefined();
    opened.end();
    expect(live.baseRows()).toBeDefined();
  });
});
