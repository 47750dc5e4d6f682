// The recorded metrics of a past moment in the renderer (PastMetrics): one question per resource in
// flight, scrubbing coalesced to the moment the view rests on, answers read as the live metrics are,
// and an answer for a view no longer shown dropped.
import { describe, expect, it } from 'vitest';
import type { RecordedMetrics } from '../../../shared/protocol/history-messages';
import type { MetricsResource } from '../../../shared/protocol/metrics-messages';
import { MetricsStore } from '../../../renderer/store/metrics-store';
import { notYetRead } from '../../../renderer/store/past-metrics';
import type { HeldAnswer, QuestionSpacing } from '../../../renderer/store/past-metrics';

interface Question {
  readonly resource: MetricsResource;
  readonly time: number;
  readonly held: HeldAnswer | undefined;
  readonly signal: AbortSignal | undefined;
  answer(metrics: RecordedMetrics): void;
  fail(error: Error): void;
}

/** A clock for the spacing between questions, moved by hand. */
class SpacingClock implements QuestionSpacing {
  private time = 0;
  private readonly timers: { at: number; callback: () => void }[] = [];
  constructor(readonly ms: number) {}
  now(): number {
    return this.time;
  }
  setTimeout(callback: () => void, ms: number): void {
    this.timers.push({ at: this.time + ms, callback });
  }
  step(ms: number): void {
    this.time += ms;
    for (const timer of this.timers.filter((each) => each.at <= this.time)) {
      this.timers.splice(this.timers.indexOf(timer), 1);
      timer.callback();
    }
  }
}

function storeWithQuestions(spacing: QuestionSpacing = new SpacingClock(0)): {
  store: MetricsStore;
  questions: Question[];
} {
  const questions: Question[] = [];
  const store = new MetricsStore(
    undefined,
    (resource, time, held, signal) =>
      new Promise((resolve, reject) =>
        questions.push({ resource, time, held, signal, answer: resolve, fail: reject }),
      ),
    undefined,
    spacing,
  );
  return { store, questions };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const recorded = (cpu: number): RecordedMetrics => ({
  timestamp: 1_000,
  windowMs: 15_000,
  keys: ['default/web-1'],
  cpu: [cpu],
  memory: [64 * 2 ** 20],
});

describe('PastMetrics', () => {
  it('asks once per moment, and only for the last moment wanted while a question is in flight', async () => {
    const { store, questions } = storeWithQuestions();
    store.past.load('pods', 1_000);
    store.past.load('pods', 2_000);
    store.past.load('pods', 3_000);
    store.past.load('nodes', 3_000);
    expect(questions.map(({ resource, time }) => [resource, time])).toEqual([
      ['pods', 1_000],
      ['nodes', 3_000],
    ]);
    questions[0]!.answer({ ...recorded(0.1), keysDigest: 'web-1', answerDigest: 'first' });
    await flush();
    // The answer for 1 s, a moment the view has left, is not taken in (it would not be shown):
    // nothing shown for 3 s, rather than 1 s's samples, and the samples held are still none.
    expect(questions.map(({ time }) => time)).toEqual([1_000, 3_000, 3_000]);
    expect(questions[2]!.held).toBeUndefined();
    expect(store.past.at('pods', 1_000)).toBe(notYetRead);
    expect(store.past.at('pods', 3_000)).toBe(notYetRead);
    questions[2]!.answer(recorded(0.3));
    await flush();
    expect(store.past.at('pods', 3_000).latest.get('default/web-1')?.cpu).toBe(0.3);
    store.past.load('pods', 3_000);
    expect(questions).toHaveLength(3);
  });

  it('withdraws the question for a moment the view has left, and asks for the one wanted once main says it is withdrawn', async () => {
    const { store, questions } = storeWithQuestions();
    store.past.load('pods', 1_000);
    expect(questions[0]!.signal?.aborted).toBe(false);
    store.past.load('pods', 2_000);
    // Its answer (8 MB at 150,000 pods) would come ahead of a playback's rows, only to be dropped.
    expect(questions[0]!.signal?.aborted).toBe(true);
    expect(questions).toHaveLength(1);
    questions[0]!.fail(new Error('the question was withdrawn'));
    await flush();
    expect(questions.map(({ time }) => time)).toEqual([1_000, 2_000]);
    // A withdrawn question is no failure: 2 s is not yet read, not "failing".
    expect(store.past.at('pods', 2_000)).toBe(notYetRead);
    questions[1]!.answer(recorded(0.2));
    await flush();
    expect(store.past.at('pods', 2_000).latest.get('default/web-1')?.cpu).toBe(0.2);
    // While playing, a moment played past is not withdrawn (at() shows its answer meanwhile); a
    // clear() (back to live) withdraws the question in flight.
    store.past.load('pods', 3_000, true);
    store.past.load('pods', 4_000, true);
    expect(questions[2]!.signal?.aborted).toBe(false);
    store.past.clear();
    expect(questions[2]!.signal?.aborted).toBe(true);
  });

  it('while playing, takes in an answer the moment has passed, not one ahead of it', async () => {
    const { store, questions } = storeWithQuestions();
    store.past.load('pods', 5_000, true);
    store.past.load('pods', 6_000, true);
    questions[0]!.answer(recorded(0.5));
    await flush();
    expect(store.past.at('pods', 6_000, true).latest.get('default/web-1')?.cpu).toBe(0.5);
    // Travelled back while the next was asked: its answer, ahead of the moment wanted, is not.
    store.past.load('pods', 2_000, true);
    questions[1]!.answer(recorded(0.6));
    await flush();
    expect(store.past.at('pods', 6_000, true).latest.get('default/web-1')?.cpu).toBe(0.5);
    expect(questions.map(({ time }) => time)).toEqual([5_000, 6_000, 2_000]);
  });

  it('asks about a resource at most once per spacing, then for the last moment wanted (a playback moving it)', async () => {
    const clock = new SpacingClock(1_000);
    const { store, questions } = storeWithQuestions(clock);
    store.past.load('pods', 1_000);
    questions[0]!.answer(recorded(0.1));
    await flush();
    clock.step(400);
    store.past.load('pods', 2_000);
    store.past.load('pods', 3_000);
    expect(questions).toHaveLength(1);
    clock.step(599);
    expect(questions).toHaveLength(1);
    clock.step(1);
    expect(questions.map(({ time }) => time)).toEqual([1_000, 3_000]);
    // Spaced from the question, not from its answer: one answered late is followed at once.
    clock.step(1_500);
    questions[1]!.answer(recorded(0.3));
    await flush();
    store.past.load('pods', 4_000);
    expect(questions.map(({ time }) => time)).toEqual([1_000, 3_000, 4_000]);
  });

  it('while playing, shows the last answer for the moment the playback has reached, not nothing', async () => {
    const { store, questions } = storeWithQuestions();
    store.past.load('pods', 1_000, true);
    expect(store.past.at('pods', 1_000, true)).toBe(notYetRead);
    questions[0]!.answer(recorded(0.1));
    await flush();
    // The playback moved on meanwhile: its moment is never the one asked, yet the answer stands.
    expect(store.past.at('pods', 1_400, true).latest.get('default/web-1')?.cpu).toBe(0.1);
    // Paused there, only that moment's own answer is shown; played from before it, none.
    expect(store.past.at('pods', 1_400)).toBe(notYetRead);
    expect(store.past.at('pods', 900, true)).toBe(notYetRead);
  });

  it('while playing, spaces questions by twice their round trip as well (a large cluster)', async () => {
    const clock = new SpacingClock(1_000);
    const { store, questions } = storeWithQuestions(clock);
    store.past.load('pods', 1_000, true);
    clock.step(1_500);
    questions[0]!.answer(recorded(0.1));
    await flush();
    // Answered 1.5 s after it was asked: the next goes 3 s after it, not 1 s.
    store.past.load('pods', 2_000, true);
    expect(questions).toHaveLength(1);
    clock.step(1_499);
    expect(questions).toHaveLength(1);
    clock.step(1);
    expect(questions.map(({ time }) => time)).toEqual([1_000, 2_000]);
    // Paused, the spacing is the plain one: the moment the view rests on is asked 1 s after the last.
    questions[1]!.answer(recorded(0.2));
    await flush();
    clock.step(1_000);
    store.past.load('pods', 2_500);
    expect(questions.map(({ time }) => time)).toEqual([1_000, 2_000, 2_500]);
  });

  it('says "absent" for a moment without samples, "failing" when the recording could not be read', async () => {
    const { store, questions } = storeWithQuestions();
    let notified = 0;
    store.subscribe(() => notified++);
    store.past.load('pods', 1_000);
    questions[0]!.answer({ keys: [], cpu: [], memory: [] });
    await flush();
    expect(store.past.at('pods', 1_000)).toMatchObject({ availability: 'absent', latest: new Map() });
    store.past.load('nodes', 1_000);
    questions[1]!.fail(new Error('database is locked'));
    await flush();
    expect(store.past.at('nodes', 1_000).reason).toMatch(/database is locked/);
    expect(notified).toBe(2);
  });

  it('names the answer held, keeps it for an answer unchanged, reads one laid out by its keys, and fails one it cannot read', async () => {
    const { store, questions } = storeWithQuestions();
    let notified = 0;
    store.subscribe(() => notified++);
    store.past.load('pods', 1_000);
    expect(questions[0]!.held).toBeUndefined();
    questions[0]!.answer({ ...recorded(0.1), keysDigest: 'web-1', answerDigest: 'first' });
    await flush();
    const first = store.past.at('pods', 1_000);
    // The same polls a moment later: the metrics shown stay the very same object.
    store.past.load('pods', 1_500);
    expect(questions[1]!.held).toEqual({ keys: 'web-1', answer: 'first' });
    const unchanged = { keys: [], cpu: [], memory: [], keysDigest: 'web-1', unchanged: true as const };
    questions[1]!.answer({ ...unchanged, timestamp: 1_000, answerDigest: 'first' });
    await flush();
    expect(store.past.at('pods', 1_500)).toBe(first);
    expect(notified).toBe(2);
    // The next poll: its values laid out by the keys held, a new pod added.
    store.past.load('pods', 2_000);
    expect(questions[2]!.held).toEqual({ keys: 'web-1', answer: 'first' });
    const laidOut = { keys: [], keysFrom: 'web-1', keysDigest: 'web-1,2', answerDigest: 'second' };
    questions[2]!.answer({ ...laidOut, addedKeys: ['default/web-2'], cpu: [0.2, 0.3], memory: [1, 2] });
    await flush();
    const past = store.past.at('pods', 2_000);
    expect(past.availability).toBe('served');
    expect(past.latest.get('default/web-1')).toMatchObject({ cpu: 0.2 });
    expect(past.latest.get('default/web-2')).toMatchObject({ cpu: 0.3 });
    // Back to live and into the past again: the samples last taken in are still named.
    store.clear();
    store.past.load('pods', 2_000);
    expect(questions[3]!.held).toEqual({ keys: 'web-1,2', answer: 'second' });
    questions[3]!.answer({ ...unchanged, keysDigest: 'web-1,2', answerDigest: 'second' });
    await flush();
    expect(store.past.at('pods', 2_000).latest).toBe(past.latest);
    // What main never sends (laid out by keys not held, said unchanged from another answer): a
    // failure, not shown.
    store.past.load('pods', 3_000);
    questions[4]!.answer({ ...laidOut, keysFrom: 'web-9', addedKeys: [], cpu: [0.1, 0.1], memory: [1, 1] });
    await flush();
    expect(store.past.at('pods', 3_000)).toMatchObject({ availability: 'failing' });
    expect(store.past.at('pods', 3_000).reason).toMatch(/keys this page does not hold/);
    store.past.load('pods', 4_000);
    questions[5]!.answer({ ...unchanged, answerDigest: 'third' });
    await flush();
    expect(store.past.at('pods', 4_000).reason).toMatch(/unchanged from an answer this page does not hold/);
  });

  /** A store whose parts go to `tasks`, on a clock where each look is 1 ms after the last. */
  function storeInParts(): { store: MetricsStore; questions: Question[]; tasks: (() => void)[] } {
    const questions: Question[] = [];
    const tasks: (() => void)[] = [];
    let clock = 0;
    const store = new MetricsStore(
      undefined,
      (resource, time, held, signal) =>
        new Promise((resolve, reject) =>
          questions.push({ resource, time, held, signal, answer: resolve, fail: reject }),
        ),
      {
        schedule: (task) => {
          tasks.push(task);
          return () => void tasks.splice(tasks.indexOf(task), 1);
        },
        now: () => clock++,
      },
      new SpacingClock(0),
    );
    return { store, questions, tasks };
  }
  const manyKeys = Array.from({ length: 50_000 }, (_, at) => `default/web-${at}`);
  const large = (cpu: number, keysDigest: string): RecordedMetrics => ({
    timestamp: 1_000,
    windowMs: 15_000,
    keys: manyKeys,
    cpu: manyKeys.map(() => cpu),
    memory: manyKeys.map(() => 1),
    keysDigest,
    answerDigest: keysDigest,
  });

  it("takes in a large answer's keys in parts, one task each, shown once all are and asking again only then", async () => {
    const { store, questions, tasks } = storeInParts();
    let notified = 0;
    store.subscribe(() => notified++);
    store.past.load('pods', 1_000);
    questions[0]!.answer(large(0.5, 'fresh'));
    await flush();
    // The first part ran in the answer's own task; the rest wait for tasks of their own.
    expect(tasks).toHaveLength(1);
    expect(store.past.at('pods', 1_000)).toBe(notYetRead);
    store.past.load('pods', 2_000);
    expect(questions).toHaveLength(1);
    let parts = 1;
    while (tasks.length > 0) {
      tasks.shift()!();
      parts++;
    }
    expect(parts).toBeGreaterThan(5);
    expect(notified).toBe(1);
    expect(store.past.at('pods', 1_000).latest.get('default/web-49999')).toMatchObject({ cpu: 0.5 });
    // The moment wanted meanwhile is asked once the answer is in, naming it.
    expect(questions).toHaveLength(2);
    expect(questions[1]!.held).toEqual({ keys: 'fresh', answer: 'fresh' });
  });

  it('finishes an answer still being indexed on a clear, and lays the next out by its keys', async () => {
    const { store, questions, tasks } = storeInParts();
    store.past.load('pods', 1_000);
    questions[0]!.answer(large(0.5, 'first'));
    await flush();
    while (tasks.length > 0) tasks.shift()!();
    const first = store.past.at('pods', 1_000).latest;
    // The next answer extends the first's index by 50,000 keys, in parts; back to live meanwhile.
    store.past.load('pods', 3_000);
    expect(questions[1]!.held).toEqual({ keys: 'first', answer: 'first' });
    const added = manyKeys.map((key) => `${key}-b`);
    questions[1]!.answer({
      ...large(0.7, 'second'),
      keys: [],
      keysFrom: 'first',
      addedKeys: added,
      cpu: [...manyKeys.map(() => null), ...added.map(() => 0.7)],
      memory: [...manyKeys.map(() => null), ...added.map(() => 1)],
    });
    await flush();
    expect(tasks.length).toBeGreaterThan(0);
    store.clear();
    // Finished at once, though not shown: the next question names it, not the first.
    expect(tasks).toHaveLength(0);
    expect(store.past.at('pods', 3_000)).toBe(notYetRead);
    store.past.load('pods', 3_000);
    expect(questions[2]!.held).toEqual({ keys: 'second', answer: 'second' });
    expect(first.get('default/web-1-b')).toBeUndefined();
  });

  it('drops an answer arriving after a context switch', async () => {
    const { store, questions } = storeWithQuestions();
    store.past.load('pods', 1_000);
    store.clear();
    questions[0]!.answer(recorded(0.1));
    await flush();
    expect(store.past.at('pods', 1_000)).toBe(notYetRead);
  });
});
