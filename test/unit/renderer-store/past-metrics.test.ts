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
    (resource, time, held) =>
      new Promise((resolve, reject) =>
        questions.push({ resource, time, held, answer: resolve, fail: reject }),
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
    questions[0]!.answer(recorded(0.1));
    await flush();
    expect(questions.map(({ time }) => time)).toEqual([1_000, 3_000, 3_000]);
    expect(store.past.at('pods', 1_000).latest.get('default/web-1')).toEqual({
      time: 1_000,
      cpu: 0.1,
      memory: 64 * 2 ** 20,
    });
    // Not answered for 3 s yet: nothing shown for it, rather than 1 s's samples.
    expect(store.past.at('pods', 3_000)).toBe(notYetRead);
    questions[2]!.answer(recorded(0.3));
    await flush();
    expect(store.past.at('pods', 3_000).latest.get('default/web-1')?.cpu).toBe(0.3);
    store.past.load('pods', 3_000);
    expect(questions).toHaveLength(3);
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

  it('drops an answer arriving after a context switch', async () => {
    const { store, questions } = storeWithQuestions();
    store.past.load('pods', 1_000);
    store.clear();
    questions[0]!.answer(recorded(0.1));
    await flush();
    expect(store.past.at('pods', 1_000)).toBe(notYetRead);
  });
});
