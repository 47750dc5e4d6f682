// The metrics poller on a fake clock: one LIST per resource per resolution window while demanded, none
// when nobody shows the resource, "absent" said once, backoff on failures, and namespace-limited
// access (per-namespace lists after the cluster scope's 403; "forbidden" when every namespace refuses).
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../main/cache/clock';
import { FakeClock, flushMicrotasks } from '../../../main/cache/fake-clock';
import { partWaitMaxMs, partWaitMs } from '../../../main/bridge/part-pacing';
import { metricsItemsPerTurn, type MetricsFetch } from '../../../main/bridge/metrics-poll-work';
import {
  MetricsPoller,
  metricsListingRecheckMs,
  metricsListingWaitMaxMs,
  metricsPollGapMs,
  parseGoDuration,
} from '../../../main/bridge/metrics-poller';
import type { MetricsList } from '../../../main/kube/metrics-list';
import {
  metricsPhaseHoldPolls,
  metricsPhaseStepMs,
  metricsStaleRetryMs,
} from '../../../main/bridge/metrics-poll-phase';
import { metricsUsageOf } from '../../../main/kube/metrics-usage';
import { StatusError, newStatus } from '../../../shared/kube/status';
import type { MetricsMessage } from '../../../shared/protocol/metrics-messages';
import { MetricsPartJoiner } from '../../../shared/protocol/metrics-parts';

const forbidden = () => new StatusError(newStatus(403, 'Forbidden', 'pods.metrics.k8s.io is forbidden'));

function podList(namespace: string, name: string): MetricsList {
  return {
    items: [
      {
        metadata: { name, namespace },
        timestamp: '2026-01-01T00:00:00Z',
        window: '15s',
        containers: [
          { usage: { cpu: '250000000n', memory: '1024Ki' } },
          { usage: { cpu: '5m', memory: '1Mi' } },
        ],
      },
    ],
  };
}

/** One pod's metrics item in namespace shop, one container using 1m and 1Mi. */
const item = (name: string, timestamp: string, window: string) => ({
  metadata: { name, namespace: 'shop' },
  timestamp,
  window,
  containers: [{ usage: { cpu: '1m', memory: '1Mi' } }],
});

/** A fetch answering with whole lists, as a test writes them (read into columns as listMetrics does). */
type ListFetch = (...request: Parameters<MetricsFetch>) => Promise<MetricsList>;

const readInto =
  (fetch: ListFetch): MetricsFetch =>
  async (resource, namespace, signal, keys) =>
    metricsUsageOf(resource, await fetch(resource, namespace, signal, keys), keys);

function setup(
  fetch: ListFetch,
  options: { served?: boolean; namespaces?: string[]; listing?: () => boolean } = {},
) {
  const clock = new FakeClock();
  const sent: MetricsMessage[] = [];
  const calls: string[] = [];
  const poller = new MetricsPoller({
    clock,
    fetch: (resource, namespace, signal, keys) => {
      calls.push(`${resource}@${namespace || '*'}`);
      return readInto(fetch)(resource, namespace, signal, keys);
    },
    served: () => options.served ?? true,
    namespaces: () => options.namespaces ?? [],
    send: (message) => sent.push(message),
    random: () => 0,
    ...(options.listing ? { listing: options.listing } : {}),
  });
  return { clock, sent, calls, poller };
}

describe('MetricsPoller', () => {
  it('sums a big poll in slices, yielding to the event loop between them, and sends every total', async () => {
    const count = 3 * metricsItemsPerTurn;
    const big: MetricsList = {
      items: Array.from({ length: count }, (_, index) => ({
        metadata: { name: `web-${index}`, namespace: 'shop' },
        timestamp: '2026-01-01T00:00:00Z',
        window: '15s',
        containers: [{ usage: { cpu: '5m', memory: '1Mi' } }],
      })),
    };
    const sent: MetricsMessage[] = [];
    let turns = 0;
    const poller = new MetricsPoller({
      clock: new FakeClock(),
      fetch: readInto(async () => big),
      served: () => true,
      namespaces: () => [],
      send: (message) => sent.push(message),
      random: () => 0,
      keysPerPart: count,
      nextTurn: async () => {
        turns++;
        // Nothing is sent before the whole poll is summed.
        expect(sent).toHaveLength(0);
      },
    });
    poller.retain('pods');
    await flushMicrotasks();
    expect(turns).toBe(2);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.part).toBeUndefined();
    expect(sent[0]!.keys).toHaveLength(count);
    expect(sent[0]!.keys[count - 1]).toBe(`shop/web-${count - 1}`);
    expect(sent[0]!.cpu[count - 1]).toBeCloseTo(0.005);
    poller.close();
  });

  it('sends a poll of more keys than a part holds in parts, one per turn, that join into the whole', async () => {
    const count = 25;
    const many: MetricsList = {
      items: Array.from({ length: count }, (_, index) => ({
        metadata: { name: `web-${index}`, namespace: 'shop' },
        timestamp: '2026-01-01T00:00:00Z',
        window: '15s',
        containers: [{ usage: { cpu: `${index}m`, memory: '1Mi' } }],
      })),
    };
    const sent: MetricsMessage[] = [];
    const sentBeforeTurn: number[] = [];
    const poller = new MetricsPoller({
      clock: new FakeClock(),
      fetch: readInto(async () => many),
      served: () => true,
      namespaces: () => [],
      send: (message) => sent.push(message),
      random: () => 0,
      keysPerPart: 10,
      nextTurn: async () => {
        sentBeforeTurn.push(sent.length);
      },
    });
    poller.retain('pods');
    await flushMicrotasks();
    expect(sent.map((message) => message.part)).toEqual([
      { id: 1, index: 0, count: 3 },
      { id: 1, index: 1, count: 3 },
      { id: 1, index: 2, count: 3 },
    ]);
    // One part per turn: the turns taken after summing came between the parts.
    expect(sentBeforeTurn).toEqual([1, 2]);
    const joiner = new MetricsPartJoiner();
    const whole = sent.map((message) => joiner.add(message)).at(-1)!;
    expect(whole.keys).toEqual(many.items!.map((item) => `shop/${item.metadata!.name}`));
    expect(whole.cpu[24]).toBeCloseTo(0.024);
    // A renderer that starts showing pods now is sent the same parts.
    expect(poller.latest('pods')).toEqual(sent);
    poller.close();
  });

  /** A poller of `pods` pods' metrics in parts of 10, sent when `room.now` says the connections have room. */
  function pacedPoller(pods: number, room: { now: boolean }, onSend: () => void = () => {}) {
    const clock = new FakeClock();
    const sent: MetricsMessage[] = [];
    const poller = new MetricsPoller({
      clock,
      fetch: readInto(async () => ({
        items: Array.from({ length: pods }, (_, index) => ({
          metadata: { name: `web-${index}`, namespace: 'shop' },
          containers: [{ usage: { cpu: '1m', memory: '1Mi' } }],
        })),
      })),
      served: () => true,
      namespaces: () => [],
      send: (message) => {
        sent.push(message);
        onSend();
      },
      random: () => 0,
      keysPerPart: 10,
      nextTurn: async () => {},
      roomForPart: () => room.now,
    });
    return { clock, sent, poller };
  }

  it('sends the next part only once the connections have room: what is sent meanwhile goes between the parts', async () => {
    const room = { now: false };
    // Each part fills the connection (8-9 MB of parts at 150,000 pods went out at once, ahead of a
    // playback's rows and cursor) until it drains.
    const { clock, sent, poller } = pacedPoller(30, room, () => (room.now = false));
    poller.retain('pods');
    await clock.stepAsync(partWaitMs * 10);
    expect(sent).toEqual([]);
    for (const parts of [1, 2, 3]) {
      room.now = true;
      await clock.stepAsync(partWaitMs);
      expect(sent.map((message) => message.part?.index)).toEqual([0, 1, 2].slice(0, parts));
      await clock.stepAsync(partWaitMs * 10);
      expect(sent).toHaveLength(parts);
    }
    poller.close();
  });

  it('sends a part that waited partWaitMaxMs for room anyway: a renderer that stopped reading holds the others no longer', async () => {
    const { clock, sent, poller } = pacedPoller(20, { now: false });
    poller.retain('pods');
    await clock.stepAsync(partWaitMaxMs - partWaitMs);
    expect(sent).toEqual([]);
    await clock.stepAsync(partWaitMs);
    expect(sent).toHaveLength(1);
    await clock.stepAsync(partWaitMaxMs);
    expect(sent).toHaveLength(2);
    poller.close();
  });

  it("stops sending a message's parts once the last renderer stops showing the resource", async () => {
    const many: MetricsList = {
      items: Array.from({ length: 30 }, (_, index) => ({
        metadata: { name: `web-${index}`, namespace: 'shop' },
        containers: [{ usage: { cpu: '1m', memory: '1Mi' } }],
      })),
    };
    const sent: MetricsMessage[] = [];
    const poller = new MetricsPoller({
      clock: new FakeClock(),
      fetch: readInto(async () => many),
      served: () => true,
      namespaces: () => [],
      send: (message) => {
        sent.push(message);
        poller.release('pods');
      },
      random: () => 0,
      keysPerPart: 10,
      nextTurn: async () => {},
    });
    poller.retain('pods');
    await flushMicrotasks();
    expect(sent.map((message) => message.part?.index)).toEqual([0]);
  });

  it("stamps a poll with its newest sample's time and its typical window, whichever items have them", async () => {
    const { sent, poller } = setup(async () => ({
      items: [
        item('a', '2026-01-01T00:00:00Z', '15s'),
        item('b', '2026-01-01T00:00:00Z', '15s'),
        item('c', '2026-01-01T00:00:05Z', '20s'),
        item('d', '2026-01-01T00:00:05Z', '20s'),
        item('e', '2026-01-01T00:00:01Z', '15s'),
      ],
    }));
    poller.retain('pods');
    await flushMicrotasks();
    // The median window: metrics-server's window spans the two kubelet samples it used, so a few items'
    // windows are longer than its resolution (a pod whose stats did not move between two scrapes).
    expect(sent[0]).toMatchObject({ timestamp: Date.parse('2026-01-01T00:00:05Z'), windowMs: 15_000 });
    poller.close();
  });

  it('keeps to the typical window: a few items with long windows do not lengthen the polls', async () => {
    const at = '2026-01-01T00:00:00Z';
    const { clock, calls, poller } = setup(async () => ({
      items: [
        item('a', at, '15.2s'),
        item('b', at, '14.8s'),
        item('c', at, '31s'),
        item('d', at, '15s'),
        item('e', at, '45s'),
      ],
    }));
    poller.retain('pods');
    await flushMicrotasks();
    await clock.stepAsync(15_000 - metricsPhaseStepMs);
    expect(calls).toHaveLength(2);
    poller.close();
  });

  it('lists once per 15 s window while a renderer shows pods, and sends per-pod totals', async () => {
    const { clock, sent, calls, poller } = setup(async () => podList('shop', 'web-1'));
    poller.retain('pods');
    await flushMicrotasks();
    expect(calls).toEqual(['pods@*']);
    expect(sent[0]).toMatchObject({ availability: 'served', keys: ['shop/web-1'], windowMs: 15_000 });
    expect(sent[0]!.cpu[0]).toBeCloseTo(0.255);
    expect(sent[0]!.memory[0]).toBe(2 * 2 ** 20);
    // A step early: where in the window scrapes land is sought (MetricsPollPhase).
    await clock.stepAsync(15_000 - metricsPhaseStepMs - 1);
    expect(calls).toHaveLength(1);
    await clock.stepAsync(1);
    expect(calls).toHaveLength(2);
  });

  it("waits while the session's feeds are listing, and polls within a recheck of their end", async () => {
    let listing = true;
    const { clock, sent, calls, poller } = setup(async () => podList('shop', 'web-1'), {
      listing: () => listing,
    });
    poller.retain('pods');
    await clock.stepAsync(60_000);
    expect(calls).toEqual([]);
    expect(sent).toEqual([]);
    listing = false;
    await clock.stepAsync(metricsListingRecheckMs);
    expect(calls).toEqual(['pods@*']);
    // The window runs from the poll, not from the wait's start.
    await clock.stepAsync(15_000 - metricsPhaseStepMs - 1);
    expect(calls).toHaveLength(1);
    await clock.stepAsync(1);
    expect(calls).toHaveLength(2);
  });

  it('polls anyway once it has waited metricsListingWaitMaxMs for lists that never end, then waits again', async () => {
    const { clock, calls, poller } = setup(async () => podList('shop', 'web-1'), { listing: () => true });
    poller.retain('pods');
    await clock.stepAsync(metricsListingWaitMaxMs - 1);
    expect(calls).toEqual([]);
    await clock.stepAsync(metricsListingRecheckMs);
    expect(calls).toEqual(['pods@*']);
    await clock.stepAsync(15_000 - metricsPhaseStepMs + metricsListingWaitMaxMs - metricsListingRecheckMs);
    expect(calls).toHaveLength(1);
    await clock.stepAsync(2 * metricsListingRecheckMs);
    expect(calls).toHaveLength(2);
  });

  it('stops polling when the last renderer stops showing the resource', async () => {
    const { clock, calls, poller } = setup(async () => podList('shop', 'web-1'));
    poller.retain('pods');
    poller.retain('pods');
    await flushMicrotasks();
    poller.release('pods');
    await clock.stepAsync(15_000);
    expect(calls).toHaveLength(2);
    poller.release('pods');
    await clock.stepAsync(60_000);
    expect(calls).toHaveLength(2);
    expect(clock.waiterCount()).toBe(0);
  });

  it('does not poll faster than the resolution when a renderer leaves and comes back', async () => {
    const { clock, calls, poller } = setup(async () => podList('shop', 'web-1'));
    poller.retain('pods');
    await flushMicrotasks();
    await clock.stepAsync(5_000);
    poller.release('pods');
    poller.retain('pods');
    await clock.stepAsync(9_999);
    expect(calls).toHaveLength(1);
    await clock.stepAsync(1);
    expect(calls).toHaveLength(2);
  });

  it('says "absent" once, and sends no request, when discovery lists no metrics.k8s.io', async () => {
    const { clock, sent, calls, poller } = setup(async () => podList('shop', 'web-1'), { served: false });
    poller.retain('nodes');
    await clock.stepAsync(60_000);
    expect(calls).toEqual([]);
    expect(sent).toEqual([
      { type: 'metrics', resource: 'nodes', availability: 'absent', keys: [], cpu: [], memory: [] },
    ]);
    expect(poller.latest('nodes').map((message) => message.availability)).toEqual(['absent']);
  });

  it('backs off after failures (15 s, 30 s, 60 s) and returns to the resolution after a success', async () => {
    let failing = true;
    const { clock, sent, calls, poller } = setup(async () => {
      if (failing) throw new Error('connection refused');
      return podList('shop', 'web-1');
    });
    poller.retain('pods');
    await flushMicrotasks();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ availability: 'failing', reason: 'connection refused' });
    await clock.stepAsync(15_000);
    await clock.stepAsync(30_000);
    expect(calls).toHaveLength(3);
    await clock.stepAsync(59_999);
    expect(calls).toHaveLength(3);
    failing = false;
    await clock.stepAsync(1);
    expect(calls).toHaveLength(4);
    expect(sent.at(-1)?.availability).toBe('served');
    await clock.stepAsync(15_000);
    expect(calls).toHaveLength(5);
    // The repeated failure was said once, not once per attempt.
    expect(sent.filter((message) => message.availability === 'failing')).toHaveLength(1);
  });

  it('lists pod metrics per readable namespace when the cluster scope is forbidden', async () => {
    const { clock, sent, calls, poller } = setup(
      async (_resource, namespace) => {
        if (namespace === '' || namespace === 'secret') throw forbidden();
        return podList(namespace, 'web-1');
      },
      { namespaces: ['default', 'secret', 'shop'] },
    );
    poller.retain('pods');
    await flushMicrotasks();
    expect(calls).toEqual(['pods@*', 'pods@default', 'pods@secret', 'pods@shop']);
    expect(sent[0]).toMatchObject({ availability: 'served', keys: ['default/web-1', 'shop/web-1'] });
    await clock.stepAsync(15_000);
    // The cluster scope is not asked again.
    expect(calls.slice(4)).toEqual(['pods@default', 'pods@secret', 'pods@shop']);
  });

  it('reports "forbidden" for nodes refused at the cluster scope', async () => {
    const { sent, poller } = setup(async () => {
      throw forbidden();
    });
    poller.retain('nodes');
    await flushMicrotasks();
    expect(sent[0]).toMatchObject({ resource: 'nodes', availability: 'forbidden' });
  });
});

/**
 * A metrics-server whose clock runs `skewMs` ahead of ours, publishing a scrape every 15 s (at its
 * window's start, plus `publishDelayMs`), read by polls that each take `pollMs` of our clock; it
 * stops scraping from `stopsAt` (our clock) on. Logs each poll's start and the scrape it read.
 */
function scrapingServer(options: {
  skewMs: number;
  publishDelayMs: number;
  pollMs: number;
  stopsAt?: number;
  lateMs?: number;
}) {
  const polls: { at: number; timestamp: number }[] = [];
  const clock = new FakeClock();
  const published = (now: number) => {
    const serverNow = Math.min(now, options.stopsAt ?? Infinity) + options.skewMs;
    return Math.floor((serverNow - options.publishDelayMs) / 15_000) * 15_000;
  };
  // Timers that fire `lateMs` after they are due, as a busy event loop's do.
  const lateMs = options.lateMs ?? 0;
  const timers: Clock = {
    now: () => clock.now(),
    setTimeout: (callback, delayMs) => clock.setTimeout(callback, delayMs + lateMs),
    sleep: (delayMs, signal) => clock.sleep(delayMs, signal),
  };
  const poller = new MetricsPoller({
    clock: timers,
    fetch: readInto(async () => {
      const at = clock.now();
      const timestamp = published(at);
      polls.push({ at, timestamp });
      await clock.sleep(options.pollMs);
      return {
        items: [
          {
            metadata: { name: 'web-1', namespace: 'shop' },
            timestamp: new Date(timestamp).toISOString(),
            window: '15s',
            containers: [{ usage: { cpu: '5m', memory: '1Mi' } }],
          },
        ],
      };
    }),
    served: () => true,
    namespaces: () => [],
    send: () => {},
    random: () => 0,
  });
  /** How old each poll's scrape was when the poll began (the server's clock: its publication included). */
  const ages = () => polls.map(({ at, timestamp }) => at + options.skewMs - timestamp);
  return { clock, poller, polls, ages };
}

describe('MetricsPoller, where its polls land in the scrape window', () => {
  it("keeps to the window from each poll's start: a slow poll does not push the next past a scrape", async () => {
    const { clock, poller, polls } = scrapingServer({ skewMs: 0, publishDelayMs: 0, pollMs: 4_000 });
    clock.setTime(Math.ceil(clock.now() / 15_000) * 15_000 + 14_000);
    poller.retain('pods');
    await clock.stepAsync(20 * 60_000);
    poller.close();
    // Every window's scrape read, in order, none skipped (polling 15 s after each poll's end skipped
    // one window in four here).
    const windows = polls.map(({ timestamp }) => timestamp / 15_000);
    const read = [...new Set(windows)];
    expect(read.length).toBeGreaterThan(75);
    expect(read.every((window, index) => index === 0 || window === read[index - 1]! + 1)).toBe(true);
    // Each poll after the previous one's end, by at least the least gap.
    for (let index = 1; index < polls.length; index++)
      expect(polls[index]!.at - polls[index - 1]!.at).toBeGreaterThanOrEqual(4_000 + metricsPollGapMs);
  });

  it('finds when scrapes are published, whatever the clocks, and polls soon after each', async () => {
    for (const skewMs of [0, 7_300, -123_456]) {
      const { clock, poller, polls, ages } = scrapingServer({ skewMs, publishDelayMs: 1_200, pollMs: 300 });
      poller.retain('pods');
      await clock.stepAsync(10 * 60_000);
      poller.close();
      // Found within about two minutes: from there, every poll reads a scrape at most one step and a
      // retry old (the first read one almost a window old).
      const found = polls.findIndex(({ at }) => at - polls[0]!.at > 2 * 60_000);
      expect(Math.max(...ages().slice(found))).toBeLessThanOrEqual(1_200 + metricsStaleRetryMs);
      // One poll a window, but for the few the search adds: each window's scrape read once or twice.
      const perWindow = new Map<number, number>();
      for (const { timestamp } of polls) perWindow.set(timestamp, (perWindow.get(timestamp) ?? 0) + 1);
      const windows = [...perWindow.keys()];
      expect(windows.length).toBeGreaterThanOrEqual(40);
      expect(windows.every((window, index) => index === 0 || window === windows[index - 1]! + 15_000)).toBe(
        true,
      );
      expect([...perWindow.values()].filter((count) => count > 1).length).toBeLessThanOrEqual(2);
    }
  });

  it('seeks the moment again after holding it a while, as the clocks drift apart', async () => {
    const { clock, poller, polls } = scrapingServer({ skewMs: 0, publishDelayMs: 0, pollMs: 0 });
    clock.setTime(Math.ceil(clock.now() / 15_000) * 15_000 + 500);
    poller.retain('pods');
    await clock.stepAsync((metricsPhaseHoldPolls + 3) * 15_000);
    poller.close();
    const gaps = polls.slice(1).map(({ at }, index) => at - polls[index]!.at);
    // 0.5 s after a scrape: the next, a step earlier, came before the next scrape; the retry after it
    // is held for metricsPhaseHoldPolls polls, then the search steps earlier again.
    expect(gaps.slice(0, 2)).toEqual([15_000 - metricsPhaseStepMs, metricsStaleRetryMs]);
    expect(gaps.slice(2, 2 + metricsPhaseHoldPolls)).toEqual(Array(metricsPhaseHoldPolls).fill(15_000));
    expect(gaps[2 + metricsPhaseHoldPolls]).toBe(15_000 - metricsPhaseStepMs);
  });

  it('holds the phase it found when its timers fire late', async () => {
    const { clock, poller, ages } = scrapingServer({ skewMs: 0, publishDelayMs: 700, pollMs: 0, lateMs: 40 });
    poller.retain('pods');
    await clock.stepAsync(metricsPhaseHoldPolls * 15_000);
    poller.close();
    // Held from the retry on: 40 ms late each time, never 40 ms more each time.
    const held = ages().slice(-metricsPhaseHoldPolls / 2);
    expect(Math.max(...held) - Math.min(...held)).toBeLessThanOrEqual(40);
  });

  it('polls once a window, after one retry, a metrics-server that stopped scraping', async () => {
    // The fake clock starts on a window's start; the last scrape is published 45 s in.
    const stopsAt = new FakeClock().now() + 59_000;
    const { clock, poller, polls } = scrapingServer({ skewMs: 0, publishDelayMs: 0, pollMs: 0, stopsAt });
    poller.retain('pods');
    await clock.stepAsync(5 * 60_000);
    poller.close();
    const gaps = polls.slice(1).map(({ at }, index) => at - polls[index]!.at);
    // Found at once (0 s, then 13 s before the 15 s scrape, its retry at 16 s), held at 31 and 46 s;
    // from 61 s nothing new: one retry, then a whole window each time.
    expect(gaps.slice(0, 4)).toEqual([15_000 - metricsPhaseStepMs, metricsStaleRetryMs, 15_000, 15_000]);
    expect(gaps[4]).toBe(15_000);
    expect(gaps[5]).toBe(metricsStaleRetryMs);
    expect(gaps.slice(6).every((gap) => gap === 15_000)).toBe(true);
    expect(gaps.length).toBeGreaterThan(20);
  });
});

describe('parseGoDuration', () => {
  it('reads metav1.Duration texts', () => {
    expect(parseGoDuration('15s')).toBe(15_000);
    expect(parseGoDuration('1m0s')).toBe(60_000);
    expect(parseGoDuration('10.5s')).toBe(10_500);
    expect(parseGoDuration('500ms')).toBe(500);
    expect(parseGoDuration('soon')).toBeUndefined();
  });
});
