// CPU and memory of a past moment, as the recording kept them (issue 14): while travelling, the
// metrics columns, their sort and filter, and the MetricsNote read these instead of the live samples.
// Each resource has at most one question to main in flight; scrubbing asks again only for the moment
// the view rests on once the answer comes, never once per pixel dragged. While a playback moves the
// moment, the last answer stands for it (it lags by one question, as the sidebar's counts do): every
// answer comes for a moment the playback has already left, so shown only for its exact moment, the
// columns stood empty for the whole playback while the page still took in an answer every second.
// An answer for a moment the view has left is not taken in, and an answer's keys are indexed in parts.
import type { MetricsResource } from '../../shared/protocol/metrics-messages';
import type { RecordedMetrics } from '../../shared/protocol/history-messages';
import type { ResourceMetrics } from './metrics-store';
import { pageTasks, runInParts } from './parted-work';
import type { PartedWork, PartTasks } from './parted-work';
import { SamplesIndexing } from './recorded-samples';
import type { RecordedSamples } from './recorded-samples';

/** The digests of the answer held (see RecordedMetrics): what the answer may then leave out. */
export interface HeldAnswer {
  readonly keys?: string | undefined;
  readonly answer?: string | undefined;
}

/**
 * Asks main for a past moment's metrics; `signal` withdraws the question (main then sends no answer,
 * and the promise rejects).
 */
export type AskPastMetrics = (
  resource: MetricsResource,
  time: number,
  held?: HeldAnswer,
  signal?: AbortSignal,
) => Promise<RecordedMetrics>;

/**
 * The least wall time between two questions about one resource, and the clock it is kept on. A
 * moment's metrics cost the recording's worker a few hundred ms at 50,000 pods and the page a Map of
 * every sample; asked again as each answer came, a 10x playback kept both busy (a tenth of the
 * page's time) for samples that change every 15 s of recorded time, 1.5 s of wall time at 10x.
 */
export interface QuestionSpacing {
  readonly ms: number;
  now(): number;
  setTimeout(callback: () => void, ms: number): void;
}

/**
 * While playing, questions are also spaced by this many times the last one's round trip (question to
 * answer taken in): at 150,000 pods one costs the recording's reader about half a second, main a 7 MB
 * relay and the page a 7 MB message, about a second in all on a loaded 2-core machine, which once a
 * second kept the page's thread busy a third of the playback.
 */
export const playingSpacingPerRoundTrip = 2;

export const defaultQuestionSpacing: QuestionSpacing = {
  ms: 1_000,
  now: () => Date.now(),
  setTimeout: (callback, ms) => void setTimeout(callback, ms),
};

/** Until main answers for the moment shown: nothing, said as not known yet (not as "none"). */
export const notYetRead: ResourceMetrics = {
  availability: undefined,
  reason: undefined,
  timestamp: undefined,
  latest: new Map(),
};

interface PastEntry {
  /** The moment `metrics` answers. */
  time: number | undefined;
  metrics: ResourceMetrics;
  asking: boolean;
  /** The moment wanted next, once the question in flight is answered. */
  wanted: number | undefined;
  /** When the last question was asked (spacing's clock). */
  askedAt: number;
  /** How long the last answered question took, asked to taken in (spacing's clock). */
  roundTripMs: number;
  /** The moment wanted next is a playing one (see playingSpacingPerRoundTrip). */
  playing: boolean;
  /** The question sent and not yet answered: its moment, and what withdraws it. */
  question: { time: number; withdraw: AbortController } | undefined;
}

export class PastMetrics {
  private entries: Record<MetricsResource, PastEntry> = { pods: emptyEntry(), nodes: emptyEntry() };
  /**
   * The last samples taken in per resource, kept past clear(): the next question names them, so that
   * the answer is laid out by their keys (see RecordedSamples) even after a stay in the present (a
   * travel from live: at 150,000 pods the keys of a moment minutes away are still mostly the same).
   */
  private held: Record<MetricsResource, RecordedSamples | undefined> = { pods: undefined, nodes: undefined };
  /** Per resource, the answer whose keys are being indexed in parts (at most one: see next). */
  private readonly indexing: Partial<Record<MetricsResource, PartedWork>> = {};

  constructor(
    private readonly ask: AskPastMetrics | undefined,
    private readonly notify: () => void,
    private readonly spacing: QuestionSpacing = defaultQuestionSpacing,
    /** Where an answer's keys are indexed, in parts (see SamplesIndexing). */
    private readonly tasks: PartTasks = pageTasks,
  ) {}

  /**
   * The metrics of `resource` at `time`, or notYetRead until main has answered for that moment; while
   * `playing`, the last answer, for a moment the playback passed (never one ahead of `time`: played
   * from a moment before it, that answer stands for nothing shown).
   */
  at(resource: MetricsResource, time: number, playing = false): ResourceMetrics {
    const entry = this.entries[resource];
    const answered = entry.time;
    return answered === time || (playing && answered !== undefined && answered <= time)
      ? entry.metrics
      : notYetRead;
  }

  /**
   * Asks main for `resource` at `time`, unless that is what is shown or asked already; `playing`: the
   * moment is a playback's, so questions are spaced by their round trip too.
   */
  load(resource: MetricsResource, time: number, playing = false): void {
    const entry = this.entries[resource];
    if (!this.ask || entry.time === time) return;
    entry.wanted = time;
    entry.playing = playing;
    // The question sent would be answered for a moment left: withdrawn, its answer (8 MB at 150,000
    // pods) is neither sent ahead of the rows nor parsed, and the question for this one goes sooner.
    const question = entry.question;
    if (question && superseded(entry, question.time)) question.withdraw.abort();
    if (!entry.asking) this.next(resource, entry);
  }

  /**
   * Forgets every answer (a context switch, or back to live). An answer being indexed is finished
   * first, though no longer shown: it may be extending the index of the samples held, and the next
   * answer is laid out by its keys (it becomes the samples held) rather than sharing its positions.
   */
  clear(): void {
    this.entries.pods.question?.withdraw.abort();
    this.entries.nodes.question?.withdraw.abort();
    this.entries = { pods: emptyEntry(), nodes: emptyEntry() };
    this.indexing.pods?.finish();
    this.indexing.nodes?.finish();
  }

  private next(resource: MetricsResource, entry: PastEntry): void {
    const time = entry.wanted;
    if (time === undefined || time === entry.time) return;
    // Too soon after the last question: asked once the spacing has passed, for the moment wanted
    // by then (the wait counts as a question in flight).
    const spacingMs = Math.max(
      this.spacing.ms,
      entry.playing ? playingSpacingPerRoundTrip * entry.roundTripMs : 0,
    );
    const wait = entry.askedAt + spacingMs - this.spacing.now();
    if (wait > 0) {
      entry.asking = true;
      this.spacing.setTimeout(() => {
        if (this.entries[resource] !== entry) return;
        entry.asking = false;
        this.next(resource, entry);
      }, wait);
      return;
    }
    entry.wanted = undefined;
    entry.asking = true;
    entry.askedAt = this.spacing.now();
    const withdraw = new AbortController();
    entry.question = { time, withdraw };
    // A clear() meanwhile replaced the entry: an answer for a view no longer shown.
    const shown = () => this.entries[resource] === entry;
    // The question is over, answered or not: the next one may go.
    const settled = () => {
      entry.asking = false;
      entry.question = undefined;
      entry.roundTripMs = this.spacing.now() - entry.askedAt;
    };
    // Asked for a moment the view has left, and which at() would not show for the one wanted now:
    // indexing its keys (a fresh layout: 150,000 at 150,000 pods) would only hold the page and the
    // question for the moment wanted. The samples held stay what questions name.
    const dropped = () => {
      settled();
      this.next(resource, entry);
    };
    const answered = (metrics: ResourceMetrics) => {
      settled();
      entry.time = time;
      entry.metrics = metrics;
      this.notify();
      this.next(resource, entry);
    };
    const held = this.held[resource];
    const heldAnswer = held && { keys: held.keysDigest, answer: held.answerDigest };
    this.ask!(resource, time, heldAnswer, withdraw.signal).then(
      (recorded) => {
        if (!shown()) return;
        // Answered (before main heard of any withdrawal): its keys may be indexed, no longer withdrawn.
        entry.question = undefined;
        if (superseded(entry, time)) return dropped();
        let indexing: SamplesIndexing;
        try {
          const atOnce = answerAtOnce(recorded, entry.metrics, held);
          if (atOnce) return answered(atOnce);
          indexing = new SamplesIndexing(recorded, held);
        } catch (error) {
          // An answer that cannot be read (laid out by keys this page does not hold) is a failure.
          return answered(failing(error));
        }
        // Still asking while its keys are indexed: the next question waits for them.
        const work = runInParts(
          (more) => indexing.step(more),
          () => {
            delete this.indexing[resource];
            const samples = indexing.samples();
            this.held[resource] = samples;
            if (shown()) answered(served(recorded, samples));
          },
          this.tasks,
        );
        if (!work.over) this.indexing[resource] = work;
      },
      (error: unknown) => {
        if (!shown()) return;
        if (withdraw.signal.aborted) dropped();
        else answered(failing(error));
      },
    );
  }
}

/**
 * The answer for `time` would never be shown: another moment is wanted now, and it is not a moment
 * played past `time` (for which at() shows the last answer before it).
 */
function superseded(entry: PastEntry, time: number): boolean {
  const wanted = entry.wanted;
  return wanted !== undefined && wanted !== time && !(entry.playing && wanted > time);
}

function failing(error: unknown): ResourceMetrics {
  return {
    ...notYetRead,
    availability: 'failing',
    reason: `reading the recorded metrics failed: ${error instanceof Error ? error.message : String(error)}`,
  };
}

function emptyEntry(): PastEntry {
  return {
    time: undefined,
    metrics: notYetRead,
    asking: false,
    wanted: undefined,
    askedAt: Number.NEGATIVE_INFINITY,
    roundTripMs: 0,
    playing: false,
    question: undefined,
  };
}

/**
 * A recorded moment as the views read live metrics, when that needs no keys indexed: "absent" when
 * nothing was recorded for it, or the samples `held` when the answer says it is theirs (unchanged:
 * kept as they are, the very object shown when they are, so that nothing reading them renders again);
 * undefined for an answer whose samples are to be indexed (see SamplesIndexing). `shown`: the metrics
 * shown until now.
 */
function answerAtOnce(
  recorded: RecordedMetrics,
  shown: ResourceMetrics,
  held: RecordedSamples | undefined,
): ResourceMetrics | undefined {
  if (recorded.unchanged) {
    if (held === undefined || held.answerDigest !== recorded.answerDigest)
      throw new Error('the recorded metrics were said unchanged from an answer this page does not hold');
    return shown.latest === held ? shown : served(recorded, held);
  }
  if (recorded.keys.length === 0 && recorded.keysFrom === undefined)
    return { ...notYetRead, availability: 'absent', reason: 'no metrics were recorded at this moment' };
  return undefined;
}

function served(recorded: RecordedMetrics, latest: RecordedSamples): ResourceMetrics {
  return { availability: 'served', reason: undefined, timestamp: recorded.timestamp, latest };
}
