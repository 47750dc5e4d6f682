// The player's view clock as a video player's (issue 12: N x within 10%, never a stall over 250 ms),
// on an injected clock: a Player over a fake view (the rows' moment, the cursors it announces) and
// fake worker reads whose pages answer after a chosen delay.
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../main/cache/clock';
import { FakeClock } from '../../../main/cache/fake-clock';
import { PlaybackClock } from '../../../main/bridge/playback-clock';
import { Player, timerSlackMs } from '../../../main/bridge/player';
import type { PlaybackView, PlayerReads } from '../../../main/bridge/player';
import type { PlaybackChange } from '../../../main/history/history-queries';

const speed = 10;
const from = 1_000_000;
/** A change every 10 recorded ms (1,000 a wall second at 10x) for 60 recorded seconds. */
const end = from + 60_000;
const changes: PlaybackChange[] = Array.from({ length: 6_000 }, (_, index) => ({
  time: from + (index + 1) * 10,
  key: `shop/pod-${index % 50}`,
}));

/**
 * Plays the changes from `from` at 10x for `forMs` of wall time, each page answered `delayMs(page)`
 * after it is asked for (the first, read before playing, at once), each change applied taking
 * `applyMs` of the player's clock. Returns each announced cursor.
 */
async function play(forMs: number, delayMs: (page: number) => number, applyMs = 0, played = changes) {
  const fake = new FakeClock(0);
  /** Time the frames worked, on top of the fake clock's. */
  let worked = 0;
  const clock: Clock = {
    now: () => fake.now() + worked,
    // As Node's, timers count from the event loop's cached time: a frame's fires a ms early by now().
    setTimeout: (callback, delay) => fake.setTimeout(callback, Math.max(0, delay - (applyMs > 0 ? 1 : 0))),
    sleep: (delay, signal) => fake.sleep(delay, signal),
  };
  let moment = from;
  let catchingUp = false;
  const cursors: { wall: number; time: number; catchingUp: boolean }[] = [];
  const view: PlaybackView = {
    moment: () => moment,
    rendererBehind: () => false,
    rebuiltRowsPending: () => false,
    apply: (change) => {
      moment = change.time;
      worked += applyMs;
    },
    // Sending a frame's rows takes a frame's worth of applying.
    flush: () => void (worked += 100 * applyMs),
    rebuild: () => Promise.reject(new Error('no jump expected')),
    hold: (held, _gap, waiting) => ((moment = held), (catchingUp = waiting)),
    announce: () => cursors.push({ wall: clock.now(), time: moment, catchingUp }),
    ended: () => {},
  };
  let next = 0;
  let pages = 0;
  /** The worker answers in the order asked: a page is never answered before the one before it. */
  let lastDue = 0;
  const reads: PlayerReads = {
    openPlayback: () => Promise.resolve({ id: 1, end, marks: [] }),
    playbackChanges: (_id, max) => {
      const page = { changes: played.slice(next, next + max), done: next + max >= played.length };
      next += max;
      const delay = pages === 0 ? 0 : delayMs(pages);
      pages++;
      if (delay === 0) return Promise.resolve(page);
      lastDue = Math.max(lastDue, clock.now() + delay);
      return clock.sleep(lastDue - clock.now()).then(() => page);
    },
    closePlayback: () => {},
    stateRows: () => Promise.reject(new Error('no jump expected')),
    stateAt: () => Promise.reject(new Error('no jump expected')),
  };
  const start = { reads, file: 'recording', query: { gvr: 'pods.v1', rows: true }, from, speed };
  const player = await Player.open(view, start, clock, { jumpLagMs: 10_000 });
  player.play();
  for (let wall = 0; wall < forMs; wall += 5) await fake.stepAsync(5);
  player.close();
  return cursors;
}

/** The first cursor that moved: playing starts there, as the ui bench measures it. */
function firstMove(cursors: readonly { wall: number; time: number }[]) {
  return cursors.find((cursor) => cursor.time !== from)!;
}

/** The longest the cursor stood still after its first move, in wall ms. */
function longestStill(cursors: readonly { wall: number; time: number }[]): number {
  let still = firstMove(cursors);
  let longest = 0;
  for (const cursor of cursors.filter((entry) => entry.wall >= still.wall)) {
    if (cursor.time !== still.time) still = cursor;
    longest = Math.max(longest, cursor.wall - still.wall);
  }
  return longest;
}

describe("a player's view clock", () => {
  it('plays at 10x within 10%, never still over 250 ms, when pages come in time', async () => {
    const cursors = await play(3_000, () => 40);
    const first = firstMove(cursors);
    // The first page holds 500 changes (500 ms of playback): playing starts at once.
    expect(first.wall).toBeLessThanOrEqual(100);
    const last = cursors.at(-1)!;
    const rate = (last.time - first.time) / (last.wall - first.wall);
    expect(Math.abs(rate - speed) / speed).toBeLessThanOrEqual(0.1);
    expect(longestStill(cursors)).toBeLessThanOrEqual(250);
    expect(cursors.filter((cursor) => cursor.wall >= first.wall).some((cursor) => cursor.catchingUp)).toBe(
      false,
    );
  });

  it('moves the moment a step every frame after the one that starts its clock, however long that frame works', async () => {
    // The worker's changes come squashed in steps of a frame's recording (1 s at 10x), stamped at
    // the steps' ends; each applied takes 0.02 ms, and sending a frame's rows 2 ms, so the first
    // frame works 2 ms before its clock runs. Run from the end of that work, the clock was 20
    // recorded ms short of each next step's end when the next frame came (its timer a ms early, as
    // Node's are by the wall clock): the moment stood a frame at the step before.
    const stepped = changes.map((change, index) => ({
      ...change,
      time: from + (Math.floor(index / 100) + 1) * 1_000,
    }));
    const cursors = await play(2_000, () => 40, 0.02, stepped);
    // The first frame starts the clock; every one after it moves the moment a step.
    for (const [index, cursor] of cursors.slice(1).entries())
      expect(cursor.time, `frame ${index + 1}`).toBe(from + (index + 1) * 1_000);
  });

  it('holds the clock while a page is late, saying so, and resumes from where it stood at 10x', async () => {
    // The fourth page answers after 3 s: the changes read before it (2,000 are kept read: 2 s of
    // playback) run out, the clock is held at the last change applied, and once it comes the clock
    // runs on from there, not from where an unheld clock would be (which would race the moment on).
    const cursors = await play(5_000, (page) => (page === 3 ? 3_000 : 40));
    const held = cursors.filter((cursor) => cursor.catchingUp && cursor.wall > 100);
    expect(held.length).toBeGreaterThan(5);
    // Held: the moment does not move.
    expect(new Set(held.map((cursor) => cursor.time)).size).toBe(1);
    const resumed = cursors.find((cursor) => cursor.wall > held.at(-1)!.wall && !cursor.catchingUp)!;
    const after = cursors.filter((cursor) => cursor.wall > resumed.wall);
    for (const [index, cursor] of after.entries()) {
      const previous = index === 0 ? resumed : after[index - 1]!;
      // Never faster than 10x (a frame's rounding, and the resumed clock's slack for early timers,
      // aside): no stretch made up for the stall.
      expect(cursor.time - previous.time).toBeLessThanOrEqual(
        speed * (cursor.wall - previous.wall + timerSlackMs) + 10,
      );
    }
    const last = after.at(-1)!;
    const rate = (last.time - resumed.time) / (last.wall - resumed.wall);
    expect(Math.abs(rate - speed) / speed).toBeLessThanOrEqual(0.1);
  });

  it('never stands still over 250 ms when pages answer slower than a frame but read-ahead covers them', async () => {
    // Every page answers after 300 ms, three frames: two are asked at once and a second of playback
    // is kept read, so the moment never waits for one.
    const cursors = await play(5_000, () => 300);
    const first = firstMove(cursors);
    expect(longestStill(cursors)).toBeLessThanOrEqual(250);
    const last = cursors.at(-1)!;
    const rate = (last.time - first.time) / (last.wall - first.wall);
    expect(Math.abs(rate - speed) / speed).toBeLessThanOrEqual(0.1);
  });
});

describe('PlaybackClock', () => {
  it('is held at the moment played from until started and resumed, then runs at its speed', () => {
    let now = 0;
    const clock = new PlaybackClock(() => now, 100, 10, 1_000);
    clock.start();
    now = 50;
    expect(clock.time()).toBe(100);
    clock.resume();
    now = 80;
    expect(clock.time()).toBe(400);
  });

  it('holds where the rows stand, never ahead of where it runs nor back, and resumes from there', () => {
    let now = 0;
    const clock = new PlaybackClock(() => now, 0, 10, 100_000);
    clock.resume();
    now = 100;
    clock.hold(2_000);
    expect(clock.time()).toBe(1_000);
    clock.hold(500);
    expect(clock.time()).toBe(1_000);
    now = 1_100;
    expect(clock.time()).toBe(1_000);
    expect(clock.running()).toBe(11_000);
    clock.resume();
    now = 1_200;
    expect(clock.time()).toBe(2_000);
  });

  it('stops at the end of the recording, and a held clock moves on to a jump', () => {
    let now = 0;
    const clock = new PlaybackClock(() => now, 0, 10, 500);
    clock.resume();
    now = 100;
    expect(clock.time()).toBe(500);
    const held = new PlaybackClock(() => now, 0, 10, 100_000);
    held.seek(3_000);
    expect(held.time()).toBe(3_000);
    expect(held.held).toBe(true);
  });
});
