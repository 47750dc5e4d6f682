// CPU and memory of a past moment, as the recording kept them (issue 14): while travelling, the
// metrics columns, their sort and filter, and the MetricsNote read these instead of the live samples.
// Each resource has at most one question to main in flight; scrubbing asks again only for the moment
// the view rests on once the answer comes, never once per pixel dragged. While a playback moves the
// moment, the last answer stands for it (it lags by one question, as the sidebar's counts do): every
// answer comes for a moment the playback has already left, so shown only for its exact moment, the
// columns stood empty for the whole playback while the page still took in an answer every second.
import type { MetricsResource } from '../../shared/protocol/metrics-messages';
import type { RecordedMetrics } from '../../shared/protocol/history-messages';
import type { ResourceMetrics } from './metrics-store';
import { RecordedSamples } from './recorded-samples';

/** The digests of the answer held (see RecordedMetrics): what the answer may then leave out. */
export interface HeldAnswer {
  readonly keys?: string | undefined;
  readonly answer?: string | undefined;
}

export type AskPastMetrics = (
  resource: MetricsResource,
  time: number,
  held?: HeldAnswer,
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
}

export class PastMetrics {
  private entries: Record<MetricsResource, PastEntry> = { pods: emptyEntry(), nodes: emptyEntry() };
  /**
   * The last samples taken in per resource, kept past clear(): the next question names them, so that
   * the answer is laid out by their keys (see RecordedSamples) even after a stay in the present (a
   * travel from live: at 150,000 pods the keys of a moment minutes away are still mostly the same).
   */
  private held: Record<MetricsResource, RecordedSamples | undefined> = { pods: undefined, nodes: undefined };

  constructor(
    private readonly ask: AskPastMetrics | undefined,
    private readonly notify: () => void,
    private readonly spacing: QuestionSpacing = defaultQuestionSpacing,
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
    if (!entry.asking) this.next(resource, entry);
  }

  /** Forgets every answer (a context switch, or back to live). */
  clear(): void {
    this.entries = { pods: emptyEntry(), nodes: emptyEntry() };
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
    const answered = (metrics: () => ResourceMetrics) => {
      // A clear() meanwhile replaced the entry: this answer is for a view no longer shown.
      if (this.entries[resource] !== entry) return;
      entry.asking = false;
      entry.time = time;
      try {
        entry.metrics = metrics();
        if (entry.metrics.latest instanceof RecordedSamples) this.held[resource] = entry.metrics.latest;
      } catch (error) {
        // An answer that cannot be read (laid out by keys this page does not hold) is a failure.
        entry.metrics = failing(error);
      }
      entry.roundTripMs = this.spacing.now() - entry.askedAt;
      this.notify();
      this.next(resource, entry);
    };
    const held = this.held[resource];
    this.ask!(resource, time, held && { keys: held.keysDigest, answer: held.answerDigest }).then(
      (recorded) => answered(() => resourceMetricsOf(recorded, entry.metrics, held)),
      (error: unknown) => answered(() => failing(error)),
    );
  }
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
  };
}

/**
 * A recorded moment as the views read live metrics: "absent" when nothing was recorded for it.
 * `held`: the samples the question named, which the answer may be whole (unchanged: kept as they are,
 * the very object shown when they are, so that nothing reading them renders again) or be laid out by
 * (see RecordedSamples); `shown`: the metrics shown until now.
 */
function resourceMetricsOf(
  recorded: RecordedMetrics,
  shown: ResourceMetrics,
  held: RecordedSamples | undefined,
): ResourceMetrics {
  if (recorded.unchanged) {
    if (held === undefined || held.answerDigest !== recorded.answerDigest)
      throw new Error('the recorded metrics were said unchanged from an answer this page does not hold');
    return shown.latest === held ? shown : served(recorded, held);
  }
  if (recorded.keys.length === 0 && recorded.keysFrom === undefined)
    return { ...notYetRead, availability: 'absent', reason: 'no metrics were recorded at this moment' };
  return served(recorded, new RecordedSamples(recorded, held));
}

function served(recorded: RecordedMetrics, latest: RecordedSamples): ResourceMetrics {
  return { availability: 'served', reason: undefined, timestamp: recorded.timestamp, latest };
}
