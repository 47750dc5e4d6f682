import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClusterSession } from '../../../main/bridge/cluster-session';
import {
  RecordedKindsStart,
  recordedKindsMaxWaitMs,
  recordedKindsPollMs,
  recordedKindsStallMs,
} from '../../../main/bridge/recorded-kinds-start';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { ListerWatcher } from '../../../main/cache/lister-watcher';
import type { GroupVersionResource, KubeObject } from '../../../shared/kube/object';
import type { SyncState } from '../../../shared/protocol/sync-state';
import { FakeApi, pod } from './fake-api';
import { metricsListingRecheckMs } from '../../../main/bridge/metrics-poller';
import type { MetricsResource } from '../../../shared/protocol/metrics-messages';
import { Recorder } from '../../../main/history/recorder';
import { inlineRecordingProcess } from '../../../main/history/recording-process';
import type { RecordingProcessFactory } from '../../../main/history/recording-process';
import type { RecordingReply } from '../../../main/history/recording-protocol';
import { messageValue } from '../../../main/bridge/outgoing-message';
import { metricsUsageOf } from '../../../main/kube/metrics-usage';

const pods: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };
const deployments: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'deployments' };
const services: GroupVersionResource = { group: '', version: 'v1', resource: 'services' };

const cleanups: (() => Promise<void> | void)[] = [];

const service = (namespace: string, name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { namespace, name },
  spec: { ports: [{ port: 80 }] },
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A RecordedKindsStart over sync states (and, when given, renderers' delivery) the test sets; `calls`
 * lists its callbacks in order.
 */
function waiting(states: SyncState[], delivery?: { behind: boolean; acknowledged: number }) {
  const clock = new FakeClock();
  const calls: string[] = [];
  const start = new RecordedKindsStart({
    clock,
    runningStates: () => states,
    ...(delivery ? { delivery: () => delivery } : {}),
    startLaterKinds: () => void calls.push('start later kinds'),
    releaseRecording: () => void calls.push('release recording'),
  });
  return { clock, start, calls, started: () => calls.filter((call) => call === 'start later kinds').length };
}

/** A FakeApi per kind of `kinds`, the pods' holding the pods `podNames` in "default". */
function fakeApis(kinds: readonly GroupVersionResource[], podNames = ['web-1']): Map<string, FakeApi> {
  const apis = new Map(kinds.map((gvr) => [gvr.resource, new FakeApi()]));
  for (const name of podNames) apis.get('pods')!.apply(pod('default', name));
  return apis;
}

/** Lister-watchers of `apis` whose pods LIST answers only once the test calls answerPodsList. */
function podsListHeld(apis: ReadonlyMap<string, FakeApi>): {
  newListerWatcher: (gvr: GroupVersionResource) => ListerWatcher;
  answerPodsList: () => void;
} {
  let answerPodsList = () => {};
  const podsListAnswered = new Promise<void>((resolve) => (answerPodsList = resolve));
  const newListerWatcher = (gvr: GroupVersionResource): ListerWatcher => {
    const listerWatcher = apis.get(gvr.resource)!.listerWatcher();
    if (gvr.resource !== 'pods') return listerWatcher;
    return {
      ...listerWatcher,
      list: async (options, signal, transformItem) => {
        await podsListAnswered;
        return listerWatcher.list(options, signal, transformItem);
      },
    };
  };
  return { newListerWatcher, answerPodsList };
}

/** A session recording pods, then deployments, read-only (no recorder here), its pods LIST held. */
function readOnlySessionWithPodsListHeld(clock: FakeClock): {
  session: ClusterSession;
  answerPodsList: () => void;
} {
  const apis = fakeApis([pods, deployments]);
  const { newListerWatcher, answerPodsList } = podsListHeld(apis);
  const session = new ClusterSession({
    context: 'test',
    newListerWatcher,
    clock,
    recording: {
      recorder: undefined,
      readOnly: 'read-only here',
      file: 'test.kubetide',
      kinds: [pods, deployments],
    },
  });
  cleanups.push(() => session.close());
  return { session, answerPodsList };
}

describe('RecordedKindsStart', () => {
  it('starts the later kinds once every running feed has synced, not before', () => {
    const states: SyncState[] = [{ phase: 'synced' }, { phase: 'listing', listed: 10 }];
    const { clock, started } = waiting(states);
    clock.step(recordedKindsPollMs * 10);
    expect(started()).toBe(0);
    states[1] = { phase: 'synced' };
    clock.step(recordedKindsPollMs);
    expect(started()).toBe(1);
    clock.step(recordedKindsMaxWaitMs);
    expect(started()).toBe(1);
  });

  it('does not wait for a feed that is refused (an error is not retried)', () => {
    const { started } = waiting([{ phase: 'error', error: { code: 403, message: 'forbidden' } }]);
    expect(started()).toBe(1);
  });

  it('starts them after the stall limit when a running feed never syncs', () => {
    const { clock, started } = waiting([{ phase: 'reconnecting', retryAt: 0 }]);
    clock.step(recordedKindsStallMs - recordedKindsPollMs);
    expect(started()).toBe(0);
    clock.step(recordedKindsPollMs);
    expect(started()).toBe(1);
  });

  it('waits past the stall limit while a running list grows, and starts them once it stops growing', () => {
    const states: SyncState[] = [{ phase: 'synced' }, { phase: 'listing', listed: 0 }];
    const { clock, started } = waiting(states);
    for (let second = 1; second <= 180; second++) {
      states[1] = { phase: 'listing', listed: second * 500 };
      clock.step(1000);
    }
    expect(started()).toBe(0);
    // The last growth was seen a poll into the last second.
    clock.step(recordedKindsStallMs - 1000);
    expect(started()).toBe(0);
    clock.step(1000);
    expect(started()).toBe(1);
  });

  it('starts them at the longest wait even while a list grows (one relisting over and over)', () => {
    const states: SyncState[] = [{ phase: 'listing', listed: 0 }];
    const { clock, started } = waiting(states);
    for (let second = 1; second < recordedKindsMaxWaitMs / 1000; second++) {
      states[0] = { phase: 'listing', listed: (second % 100) * 500 };
      clock.step(1000);
    }
    expect(started()).toBe(0);
    clock.step(1000);
    expect(started()).toBe(1);
  });

  it("waits for the renderers to take the synced feeds' rows while they take them, past the stall limit", () => {
    const delivery = { behind: true, acknowledged: 8 };
    const { clock, started } = waiting([{ phase: 'synced' }], delivery);
    for (let second = 1; second <= 120; second++) {
      delivery.acknowledged += 1;
      clock.step(1000);
    }
    expect(started()).toBe(0);
    delivery.behind = false;
    clock.step(recordedKindsPollMs);
    expect(started()).toBe(1);
  });

  it('starts them after the stall limit when a renderer behind takes no more rows (a hidden page)', () => {
    const { clock, started } = waiting([{ phase: 'synced' }], { behind: true, acknowledged: 8 });
    clock.step(recordedKindsStallMs - recordedKindsPollMs);
    expect(started()).toBe(0);
    clock.step(recordedKindsPollMs);
    expect(started()).toBe(1);
  });

  it('never starts them once stopped (the session closed)', () => {
    const { clock, start, calls } = waiting([{ phase: 'listing' }]);
    start.stop();
    clock.step(recordedKindsMaxWaitMs * 2);
    expect(calls).toEqual([]);
  });

  it("releases the recorder's held whole caches once, when the running feeds have synced", () => {
    const states: SyncState[] = [{ phase: 'listing', listed: 10 }];
    const { clock, calls } = waiting(states);
    clock.step(recordedKindsPollMs * 10);
    expect(calls).toEqual([]);
    states[0] = { phase: 'synced' };
    clock.step(recordedKindsPollMs * 10);
    expect(calls).toEqual(['release recording', 'start later kinds']);
  });

  it('starts them at the release, and lets their records go once what it let go is written, while the recording writes', async () => {
    for (const writes of ['in time', 'never', 'too slowly'] as const) {
      const clock = new FakeClock();
      const calls: string[] = [];
      let written = () => {};
      let changesWritten = 0;
      new RecordedKindsStart({
        clock,
        runningStates: () => [{ phase: 'synced' }],
        startLaterKinds: () => void calls.push('start later kinds'),
        releaseRecording: () => {
          calls.push('release recording');
          return new Promise<void>((resolve) => (written = resolve));
        },
        recordingWritten: () => changesWritten,
        holdLaterRecording: () => {
          calls.push('hold later records');
          return () => void calls.push('release later records');
        },
      });
      const atRelease = ['release recording', 'hold later records', 'start later kinds'];
      expect(calls, writes).toEqual(atRelease);
      // Past the stall limit while the recording writes a change a second.
      for (let second = 1; second <= recordedKindsStallMs / 1000 + 30; second++) {
        changesWritten++;
        await clock.stepAsync(1000);
      }
      expect(calls, writes).toEqual(atRelease);
      if (writes === 'in time') written();
      else if (writes === 'never') {
        // The recording stops writing: the stall limit after its last change.
        await clock.stepAsync(recordedKindsStallMs - 1000);
        expect(calls, writes).toEqual(atRelease);
        await clock.stepAsync(1000);
      } else {
        for (let second = 0; second < recordedKindsMaxWaitMs / 1000; second++) {
          changesWritten++;
          await clock.stepAsync(1000);
        }
      }
      await clock.stepAsync(0);
      expect(calls, writes).toEqual([...atRelease, 'release later records']);
      // Once: whichever of the written promise and the limits comes second lets nothing go again.
      written();
      await clock.stepAsync(recordedKindsMaxWaitMs);
      expect(calls, writes).toEqual([...atRelease, 'release later records']);
    }
  });
});

/**
 * The inline recording process, whose "written" replies wait while `gate.closed` (a recording worker
 * behind): flushed() waits with them.
 */
function gatedRecordingProcess(): { factory: RecordingProcessFactory; open: () => void } {
  let closed = true;
  const waiting: (() => void)[] = [];
  const factory: RecordingProcessFactory = () => {
    const inner = inlineRecordingProcess();
    return {
      ...inner,
      onReply: (listener) =>
        inner.onReply((reply: RecordingReply) => {
          if (reply.type === 'written' && closed) waiting.push(() => listener(reply));
          else listener(reply);
        }),
    };
  };
  const open = () => {
    closed = false;
    for (const reply of waiting.splice(0)) reply();
  };
  return { factory, open };
}

describe('a session recording several kinds', () => {
  it("starts the first kind's feed with the session, and records it and starts the others once it has synced", async () => {
    const clock = new FakeClock();
    const folder = mkdtempSync(join(tmpdir(), 'kubetide-recorded-kinds-'));
    const recorder = await Recorder.open({
      file: join(folder, 'test.kubetide'),
      context: 'test',
      clock,
      recordingProcess: inlineRecordingProcess,
    });
    cleanups.push(
      () => rmSync(folder, { recursive: true, force: true }),
      () => recorder.close(),
    );
    const apis = fakeApis([pods, deployments, services]);
    // The pods LIST answers when the test says: until then the pods feed is listing.
    const { newListerWatcher, answerPodsList } = podsListHeld(apis);
    const session = new ClusterSession({
      context: 'test',
      newListerWatcher,
      clock,
      recording: { recorder, file: recorder.file, kinds: [pods, deployments, services] },
    });
    cleanups.push(() => session.close());
    await clock.stepAsync(recordedKindsPollMs * 4);
    expect(session.feeds.find(pods, '')?.syncState().phase).toBe('listing');
    expect(session.feeds.find(deployments, '')).toBeUndefined();
    expect(session.feeds.find(services, '')).toBeUndefined();

    answerPodsList();
    let recordedBeforeStart: number | undefined;
    for (let step = 0; step < 20 && !session.feeds.find(deployments, ''); step++) {
      await recorder.flushed();
      recordedBeforeStart = recorder.stats().changesWritten;
      await clock.stepAsync(recordedKindsPollMs);
    }
    expect(session.feeds.find(pods, '')?.syncState().phase).toBe('synced');
    expect(session.feeds.find(deployments, '')).toBeDefined();
    expect(session.feeds.find(services, '')).toBeDefined();
    // The pods' first list waited for the same moment (the recorder held it), and was recorded then.
    expect(recordedBeforeStart).toBe(0);
    await clock.stepAsync(recordedKindsPollMs);
    await recorder.flushed();
    expect(recorder.stats().changesWritten).toBe(1);
  });

  it("starts the others with the first kind's record, and records them only once it is written, never queued ahead of it", async () => {
    const clock = new FakeClock();
    const folder = mkdtempSync(join(tmpdir(), 'kubetide-recorded-kinds-'));
    const worker = gatedRecordingProcess();
    const recorder = await Recorder.open({
      file: join(folder, 'test.kubetide'),
      context: 'test',
      clock,
      recordingProcess: worker.factory,
    });
    cleanups.push(
      () => rmSync(folder, { recursive: true, force: true }),
      () => recorder.close(),
    );
    const apis = fakeApis([pods, services], ['web-1', 'web-2', 'web-3']);
    apis.get('services')!.apply(service('default', 'web'));
    const { newListerWatcher, answerPodsList } = podsListHeld(apis);
    const session = new ClusterSession({
      context: 'test',
      newListerWatcher,
      clock,
      recording: { recorder, file: recorder.file, kinds: [pods, services] },
    });
    cleanups.push(() => session.close());
    answerPodsList();
    // The pods synced and their cache was released to the recording, which has not written it yet;
    // the services' feed started then (a view of them needs no wait) and synced, its cache held.
    for (let step = 0; step < 20 && recorder.stats().buffered < 3; step++)
      await clock.stepAsync(recordedKindsPollMs);
    expect(session.feeds.find(pods, '')?.syncState().phase).toBe('synced');
    await clock.stepAsync(recordedKindsPollMs * 8);
    expect(session.feeds.find(services, '')?.syncState().phase).toBe('synced');
    expect(recorder.stats().buffered).toBe(3);
    expect(recorder.stats().changesWritten).toBe(0);

    // Written, the pods' record lets the services' go.
    worker.open();
    await clock.stepAsync(recordedKindsPollMs);
    await recorder.flushed();
    expect(recorder.stats().changesWritten).toBe(4);
  });

  it('starts the others only once a renderer has acknowledged the rows its "synced" came after', async () => {
    const clock = new FakeClock();
    const { session, answerPodsList } = readOnlySessionWithPodsListHeld(clock);
    // A renderer showing pods that acknowledges nothing until the test says.
    const received: { type: string; seq?: number; phase?: string }[] = [];
    const connection = session.attach({
      send: (message) => void received.push(messageValue(message) as (typeof received)[number]),
    });
    connection.subscribe('s1', pods);
    answerPodsList();
    for (let step = 0; step < 20 && !received.some((message) => message.phase === 'synced'); step++)
      await clock.stepAsync(recordedKindsPollMs);
    expect(received.some((message) => message.phase === 'synced')).toBe(true);
    await clock.stepAsync(recordedKindsPollMs * 4);
    expect(session.feeds.find(deployments, '')).toBeUndefined();

    const lastSeq = Math.max(...received.map((message) => message.seq ?? 0));
    connection.acknowledge('s1', lastSeq);
    await clock.stepAsync(recordedKindsPollMs);
    expect(session.feeds.find(deployments, '')).toBeDefined();
  });

  it('ends its first listing once the first kind has synced, while the start still waits for the others', async () => {
    const clock = new FakeClock();
    const { session, answerPodsList } = readOnlySessionWithPodsListHeld(clock);
    // A renderer showing pods that acknowledges nothing: the later kinds wait for it.
    const received: { phase?: string }[] = [];
    const connection = session.attach({
      send: (message) => void received.push(messageValue(message) as (typeof received)[number]),
    });
    connection.subscribe('s1', pods);
    await clock.stepAsync(recordedKindsPollMs * 4);
    expect([session.starting, session.firstListing]).toEqual([true, true]);
    answerPodsList();
    for (let step = 0; step < 20 && !received.some((message) => message.phase === 'synced'); step++)
      await clock.stepAsync(recordedKindsPollMs);
    await clock.stepAsync(recordedKindsPollMs * 4);
    expect(session.feeds.find(deployments, '')).toBeUndefined();
    expect([session.starting, session.firstListing]).toEqual([true, false]);
  });

  it("polls metrics only once the session's start has synced: its first kind, then the later ones", async () => {
    const clock = new FakeClock();
    const apis = fakeApis([pods, deployments]);
    const { newListerWatcher, answerPodsList } = podsListHeld(apis);
    const polls: MetricsResource[] = [];
    const session = new ClusterSession({
      context: 'test',
      newListerWatcher,
      clock,
      discovery: {
        preferredResources: () => [
          {
            group: 'metrics.k8s.io',
            version: 'v1beta1',
            resource: 'pods',
            kind: 'PodMetrics',
            namespaced: true,
            verbs: ['get', 'list'],
            preferred: true,
          },
        ],
        onChange: () => () => {},
      },
      recording: {
        recorder: undefined,
        readOnly: 'read-only here',
        file: 'test.kubetide',
        kinds: [pods, deployments],
      },
      metrics: async (resource) => {
        polls.push(resource);
        return metricsUsageOf(resource, { items: [] });
      },
    });
    cleanups.push(() => session.close());
    // A renderer shows pods: their usage is wanted, but the pods are still listing.
    session.metrics!.retain('pods');
    await clock.stepAsync(60_000);
    expect(session.feeds.find(pods, '')?.syncState().phase).toBe('listing');
    expect(polls).toEqual([]);

    answerPodsList();
    for (let step = 0; step < 20 && polls.length === 0; step++)
      await clock.stepAsync(metricsListingRecheckMs);
    // The later kinds started once the pods had synced, and listed before the first poll.
    expect(session.feeds.find(deployments, '')?.syncState().phase).toBe('synced');
    expect(polls).toEqual(['pods']);
  });
});
