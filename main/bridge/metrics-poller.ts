// Polls metrics.k8s.io for the CPU and memory of pods and nodes, as k9s and Lens read metrics-server:
// one LIST per resource per resolution window (metrics-server has nothing newer to say), landing soon
// after each scrape is published (MetricsPollPhase; a little more often for a few polls while that
// moment is sought), only while some renderer shows that resource, and only when discovery says the
// API is served. Where the cluster scope is refused, pod metrics are listed per namespace the user may
// read (the same namespaces the per-namespace informers use). Failures back off; a 403 for nodes, or
// for pods in every namespace, is a state of the kind, said once, never an error per row.
import type { Backoff } from '../cache/backoff';
import { stepBackoff } from '../cache/backoff';
import type { Clock, Timer } from '../cache/clock';
import { nextTurn } from '../cache/turn-budget';
import { isForbidden } from '../../shared/kube/status';
import { parseGoDuration } from '../../shared/kube/duration';
import type { MetricsMessage, MetricsResource } from '../../shared/protocol/metrics-messages';
import { metricsKeysPerPart, splitMetricsMessage } from '../../shared/protocol/metrics-parts';
import { roomForPart } from './part-pacing';
import type { MetricsFetch, MetricsListRead, MetricsPollWork } from './metrics-poll-work';
import { InlineMetricsPollWork } from './metrics-poll-work';
import { MetricsPollPhase } from './metrics-poll-phase';

export interface MetricsPollerOptions {
  clock: Clock;
  /** Where the polls' lists are read, summed and numbered (the app's: a worker thread). */
  work?: MetricsPollWork;
  /** Without `work`: lists read on this thread (InlineMetricsPollWork). */
  fetch?: MetricsFetch;
  /** True when discovery lists metrics.k8s.io's `resource` (read before every poll). */
  served: (resource: MetricsResource) => boolean;
  /** The namespaces to list pod metrics in when the cluster scope is refused. */
  namespaces: () => readonly string[];
  send: (message: MetricsMessage) => void;
  /** metrics-server's default resolution; a longer `window` in the replies lengthens it. */
  resolutionMs?: number;
  /** After a failure; reset by the next success. Default 15 s doubling to 5 min. */
  backoff?: Backoff;
  random?: () => number;
  /**
   * Yields to the event loop between the parts of a big poll's message, and, without `work`, between
   * slices of its summing (default: a macrotask).
   */
  nextTurn?: () => Promise<void>;
  /** Keys per message sent: a bigger poll goes out in parts (metrics-parts.ts). */
  keysPerPart?: number;
  /**
   * False while a connection the parts go to holds about a part's worth unsent (see part-pacing.ts):
   * the next part waits, so that what is sent meanwhile goes out between the parts. Absent: no wait.
   */
  roomForPart?: () => boolean;
  /**
   * True while the session's feeds are listing. A poll due meanwhile waits (looking again every
   * metricsListingRecheckMs), at most metricsListingWaitMaxMs: at 50,000 pods a poll is a 50,000-item
   * LIST the API server builds, decodes, sums and sends on the same main thread and cores the first
   * LIST needs, and it came every 15 s however long that LIST took. A table still listing shows its
   * rows without usage a little longer.
   */
  listing?: () => boolean;
}

export { parseGoDuration };

export const defaultMetricsResolutionMs = 15_000;

/** How often a poll waiting for the session's lists looks again (see MetricsPollerOptions.listing). */
export const metricsListingRecheckMs = 250;

/**
 * The longest a poll waits for lists to end: one that never ends (a relist every backoff) must not
 * silence usage for the whole session, so a poll goes ahead once it has waited this long.
 */
export const metricsListingWaitMaxMs = 600_000;
const defaultBackoff: Backoff = { duration: 15_000, factor: 2, jitter: 0.1, steps: 5, cap: 300_000 };

interface ResourcePoll {
  demand: number;
  timer?: Timer;
  abort?: AbortController;
  backoff?: Backoff;
  /** Pods only: the cluster-scope LIST was refused, so lists go per namespace from now on. */
  perNamespace: boolean;
  /** What the latest message said of the resource (its samples are in `latestParts`). */
  latest?: Pick<MetricsMessage, 'availability' | 'reason'>;
  /** The latest message as sent: its parts. */
  latestParts: readonly MetricsMessage[];
  /** When the last poll began (clock ms). */
  startedAt?: number;
  /** When the poll scheduled last was due (clock ms): a timer that fires late does not move the next. */
  dueAt?: number;
  /** When the poll due began waiting for the session's lists (clock ms). */
  waitingSince?: number;
  /** Where in metrics-server's window the polls land (see MetricsPollPhase). */
  readonly phase: MetricsPollPhase;
}

/**
 * The least time between one poll's end and the next one's start: a poll longer than its window (a
 * huge cluster, a slow server) is followed by the next after this, not at once.
 */
export const metricsPollGapMs = 1_000;

export class MetricsPoller {
  private readonly polls = new Map<MetricsResource, ResourcePoll>();
  private closed = false;
  /** Numbers the messages sent in parts, so a renderer never joins parts of two. */
  private lastMessageId = 0;
  private readonly work: MetricsPollWork;

  constructor(private readonly options: MetricsPollerOptions) {
    if (!options.work && !options.fetch) throw new Error('MetricsPoller needs a work or a fetch');
    this.work =
      options.work ??
      new InlineMetricsPollWork({
        clock: options.clock,
        fetch: options.fetch!,
        ...(options.nextTurn ? { nextTurn: options.nextTurn } : {}),
      });
  }

  /**
   * A renderer shows `resource`: polling starts with the first one, at once unless the last poll was
   * less than a resolution ago (switching kinds back and forth must not poll faster than that; the
   * renderer got the latest message meanwhile).
   */
  retain(resource: MetricsResource): void {
    const poll = this.pollOf(resource);
    if (++poll.demand > 1 || this.closed) return;
    const due =
      poll.startedAt === undefined ? 0 : poll.startedAt + this.resolutionMs - this.options.clock.now();
    if (due > 0) this.schedule(resource, due);
    else void this.poll(resource);
  }

  /** A renderer stopped showing `resource`: polling stops with the last one. */
  release(resource: MetricsResource): void {
    const poll = this.pollOf(resource);
    if (poll.demand === 0 || --poll.demand > 0) return;
    stop(poll);
  }

  /**
   * The last message sent for `resource`, in its parts, for a renderer that starts showing it now (sent
   * back to back: a renderer joining them drops the rest of that message's parts still to come).
   */
  latest(resource: MetricsResource): readonly MetricsMessage[] {
    return this.polls.get(resource)?.latestParts ?? [];
  }

  /** Stops every poll for good (the session closed). */
  close(): void {
    this.closed = true;
    for (const poll of this.polls.values()) stop(poll);
    this.work.close();
  }

  private pollOf(resource: MetricsResource): ResourcePoll {
    let poll = this.polls.get(resource);
    if (!poll)
      this.polls.set(
        resource,
        (poll = { demand: 0, perNamespace: false, latestParts: [], phase: new MetricsPollPhase() }),
      );
    return poll;
  }

  private get resolutionMs(): number {
    return this.options.resolutionMs ?? defaultMetricsResolutionMs;
  }

  private async poll(resource: MetricsResource): Promise<void> {
    const poll = this.pollOf(resource);
    const resolutionMs = this.resolutionMs;
    poll.timer = undefined;
    const dueAt = poll.dueAt;
    poll.dueAt = undefined;
    if (this.waitsForLists(poll)) return this.schedule(resource, metricsListingRecheckMs);
    poll.startedAt = this.options.clock.now();
    if (!this.options.served(resource)) {
      await this.publish(poll, {
        type: 'metrics',
        resource,
        availability: 'absent',
        keys: [],
        cpu: [],
        memory: [],
      });
      return this.schedule(resource, resolutionMs);
    }
    // The phase is kept from when the poll was due (a poll that waited for lists keeps it from when
    // the wait ended; one started by retain, from now).
    const phaseFrom = dueAt ?? poll.startedAt;
    const abort = (poll.abort = new AbortController());
    let delayMs: number;
    try {
      this.work.begin(resource);
      const lists = await this.list(resource, poll, abort.signal);
      if (abort.signal.aborted) return;
      const message = await this.work.finish(resource, lists, poll.startedAt);
      if (abort.signal.aborted) return;
      poll.backoff = undefined;
      await this.publish(poll, message, abort.signal);
      if (abort.signal.aborted) return;
      // From when the poll was due, not its end: its own time does not push the next past a scrape.
      const dueMs = poll.phase.next(Math.max(resolutionMs, message.windowMs ?? 0), message.timestamp);
      delayMs = Math.max(phaseFrom + dueMs - this.options.clock.now(), metricsPollGapMs);
    } catch (error) {
      if (abort.signal.aborted) return;
      const reason = error instanceof Error ? error.message : String(error);
      const forbidden = isForbidden(error);
      await this.publish(poll, {
        type: 'metrics',
        resource,
        availability: forbidden ? 'forbidden' : 'failing',
        reason,
        keys: [],
        cpu: [],
        memory: [],
      });
      poll.backoff ??= { ...(this.options.backoff ?? defaultBackoff) };
      delayMs = stepBackoff(poll.backoff, this.options.random);
    } finally {
      if (poll.abort === abort) poll.abort = undefined;
    }
    this.schedule(resource, delayMs);
  }

  /** Whether the poll due waits for the session's lists (MetricsPollerOptions.listing), from now. */
  private waitsForLists(poll: ResourcePoll): boolean {
    const now = this.options.clock.now();
    if (this.options.listing?.()) {
      poll.waitingSince ??= now;
      if (now - poll.waitingSince < metricsListingWaitMaxMs) return true;
    }
    poll.waitingSince = undefined;
    return false;
  }

  private schedule(resource: MetricsResource, delayMs: number): void {
    const poll = this.pollOf(resource);
    if (this.closed || poll.demand === 0) return;
    poll.dueAt = this.options.clock.now() + delayMs;
    poll.timer = this.options.clock.setTimeout(() => void this.poll(resource), delayMs);
  }

  /**
   * One LIST at the cluster scope; for pods, once that is refused, one per namespace the user may read,
   * leaving out the namespaces that refuse too. Throws the 403 when every one of them refused.
   */
  private async list(
    resource: MetricsResource,
    poll: ResourcePoll,
    signal: AbortSignal,
  ): Promise<MetricsListRead[]> {
    if (!poll.perNamespace) {
      try {
        return [await this.work.list(resource, '', signal)];
      } catch (error) {
        if (resource !== 'pods' || !isForbidden(error) || this.options.namespaces().length === 0) throw error;
        poll.perNamespace = true;
      }
    }
    const namespaces = this.options.namespaces();
    const settled = await Promise.allSettled(
      namespaces.map((namespace) => this.work.list(resource, namespace, signal)),
    );
    const lists: MetricsListRead[] = [];
    let refusal: unknown;
    for (const result of settled) {
      if (result.status === 'fulfilled') lists.push(result.value);
      else if (isForbidden(result.reason)) refusal ??= result.reason;
      else throw result.reason;
    }
    if (lists.length === 0 && refusal !== undefined) throw refusal;
    return lists;
  }

  /**
   * Sends `message`, unless it repeats a sampleless state already said; a big one in parts, one per
   * turn of the event loop at the connections' pace (roomForPart), until `signal` (the poll was
   * stopped) or close() ends it.
   */
  private async publish(poll: ResourcePoll, message: MetricsMessage, signal?: AbortSignal): Promise<void> {
    const previous = poll.latest;
    const parts = splitMetricsMessage(
      message,
      ++this.lastMessageId,
      this.options.keysPerPart ?? metricsKeysPerPart,
    );
    poll.latest = { availability: message.availability, reason: message.reason };
    poll.latestParts = parts;
    const repeated =
      message.availability !== 'served' &&
      previous?.availability === message.availability &&
      previous.reason === message.reason;
    if (repeated) return;
    const stopped = () => this.closed || signal?.aborted === true;
    const room = this.options.roomForPart ?? (() => true);
    for (let index = 0; index < parts.length; index++) {
      if (index > 0) await (this.options.nextTurn ?? nextTurn)();
      await roomForPart(this.options.clock, room, stopped);
      if (stopped()) return;
      this.options.send(parts[index]!);
    }
  }
}

/** Cancels the pending poll and the request in flight, if any. */
function stop(poll: ResourcePoll): void {
  poll.timer?.stop();
  poll.abort?.abort();
  poll.timer = poll.abort = poll.dueAt = undefined;
}
