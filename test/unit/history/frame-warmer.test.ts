// FrameWarmer runs a warming a step per task: what is asked meanwhile runs between two steps, a
// warming asked again for the same file is joined, and one for another file gives the first up. Held
// (a travel's questions under way), it takes no step until released.
import { describe, expect, it } from 'vitest';
import { FrameWarmer } from '../../../main/history/frame-warmer';

/** `count` steps, each logged as `${name}${index}`. */
function* steps(log: string[], name: string, count: number): Generator<void, void> {
  for (let index = 0; index < count; index++) {
    log.push(`${name}${index}`);
    yield;
  }
}

/** Settles after `tasks` rounds of setImmediate. */
const afterTasks = async (tasks: number) => {
  for (let task = 0; task < tasks; task++) await new Promise((resolve) => setImmediate(resolve));
};

describe('FrameWarmer', () => {
  it('runs a step per task, letting other tasks run between, then says it is done', async () => {
    const log: string[] = [];
    const warmer = new FrameWarmer();
    const done = new Promise<void>((resolve) =>
      warmer.warm(
        'a',
        () => steps(log, 'a', 3),
        () => {
          log.push('done');
          resolve();
        },
      ),
    );
    expect(log).toEqual([]);
    await afterTasks(1);
    log.push('question');
    await done;
    expect(log.indexOf('question')).toBeGreaterThan(0);
    expect(log.indexOf('question')).toBeLessThan(log.indexOf('a2'));
    expect(log.filter((entry) => entry !== 'question')).toEqual(['a0', 'a1', 'a2', 'done']);
  });

  it('joins a warming of the same file, and gives it up for another file', async () => {
    const log: string[] = [];
    const warmer = new FrameWarmer();
    warmer.warm(
      'a',
      () => steps(log, 'a', 5),
      () => log.push('a done'),
    );
    await afterTasks(2);
    warmer.warm(
      'a',
      () => steps(log, 'again', 5),
      () => log.push('a done again'),
    );
    await afterTasks(1);
    const started = log.length;
    warmer.warm(
      'b',
      () => steps(log, 'b', 2),
      () => log.push('b done'),
    );
    expect(log.slice(started)).toEqual(['a done', 'a done again']);
    await afterTasks(5);
    expect(log.filter((entry) => entry.startsWith('again'))).toEqual([]);
    expect(log.slice(started)).toEqual(['a done', 'a done again', 'b0', 'b1', 'b done']);
  });

  it("takes no step while held (between a travel's two questions), and goes on where it was once released", async () => {
    const log: string[] = [];
    const warmer = new FrameWarmer();
    const done = new Promise<void>((resolve) =>
      warmer.warm(
        'a',
        () => steps(log, 'a', 4),
        () => {
          log.push('done');
          resolve();
        },
      ),
    );
    await afterTasks(2);
    const before = log.length;
    expect(before).toBeGreaterThan(0);
    warmer.hold();
    await afterTasks(6);
    expect(log.length).toBe(before);
    warmer.release();
    await done;
    expect(log).toEqual(['a0', 'a1', 'a2', 'a3', 'done']);
  });

  it('has a warming asked while held wait for the release', async () => {
    const log: string[] = [];
    const warmer = new FrameWarmer();
    warmer.hold();
    const done = new Promise<void>((resolve) => warmer.warm('a', () => steps(log, 'a', 2), resolve));
    await afterTasks(4);
    expect(log).toEqual([]);
    warmer.release();
    await done;
    expect(log).toEqual(['a0', 'a1']);
  });

  it('runs a task given to soon in a task of its own, the last given only, not while held', async () => {
    const log: string[] = [];
    const warmer = new FrameWarmer();
    warmer.hold();
    warmer.soon(() => log.push('first comparison'));
    warmer.soon(() => log.push('second comparison'));
    await afterTasks(3);
    expect(log).toEqual([]);
    warmer.release();
    log.push('released');
    await afterTasks(2);
    expect(log).toEqual(['released', 'second comparison']);
    warmer.soon(() => {
      throw new Error('the reader was closed');
    });
    await afterTasks(2);
    warmer.soon(() => log.push('after a failure'));
    await afterTasks(2);
    expect(log.at(-1)).toBe('after a failure');
  });

  it('ends a warming whose step fails, and says it is done', async () => {
    const warmer = new FrameWarmer();
    const failing = function* (): Generator<void, void> {
      yield;
      throw new Error('the reader was closed');
    };
    await new Promise<void>((resolve) => warmer.warm('a', failing, resolve));
  });
});
