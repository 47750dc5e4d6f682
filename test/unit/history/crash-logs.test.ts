// Crash logs kept in history (issue 14): which status changes are crashes, the bounded fetches, the
// crash_logs record written with the change's time and tied to the pod's uid and the run's container
// id, older recordings still read, and retention dropping crash logs with their time range.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { CrashLogRequest } from '../../../main/history/crash-log-capture';
import { CrashLogFetches } from '../../../main/history/crash-log-fetches';
import { CrashLogCapture } from '../../../main/history/crash-log-capture';
import { crashLogsAt, writeCrashLog } from '../../../main/history/crash-log-store';
import { exportRecording } from '../../../main/history/export-recording';
import { containerCrashes, podRunsOf } from '../../../main/history/container-crashes';
import { openRecording } from '../../../main/history/recording-reader';
import type { CrashLogEntry } from '../../../main/history/recording-protocol';
import { RecordingWriter } from '../../../main/history/recording-writer';
import { enforceRetention } from '../../../main/history/retention';
import { openForWriting, readMeta, recordingFormatVersion } from '../../../main/history/schema';
import type { KubeObject } from '../../../shared/kube/object';
import { StatusError, newStatus } from '../../../shared/kube/status';
import { FakeControllerSource } from '../../support/fake-controller-source';
import type { TempDirectory } from './fixtures';
import { realisticPod, recordedInformer, settle, tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

interface Run {
  readonly restarts: number;
  readonly ended?: { readonly containerID: string; readonly exitCode: number; readonly finishedAt: string };
  readonly terminatedNow?: { readonly containerID: string; readonly exitCode: number };
}

/** `pod` with the app container's status as given (and the pod's phase). */
function withStatus(pod: KubeObject, run: Run, phase = 'Running'): KubeObject {
  return {
    ...pod,
    status: {
      phase,
      containerStatuses: [
        {
          name: 'app',
          restartCount: run.restarts,
          containerID: 'containerd://current',
          state: run.terminatedNow
            ? { terminated: { ...run.terminatedNow, reason: 'Error' } }
            : { running: { startedAt: '2026-01-01T00:00:00Z' } },
          ...(run.ended ? { lastState: { terminated: { ...run.ended, reason: 'Error' } } } : {}),
        },
      ],
    },
  };
}

const firstEnd = { containerID: 'containerd://run-1', exitCode: 1, finishedAt: '2026-01-01T00:01:00Z' };
const secondEnd = { containerID: 'containerd://run-2', exitCode: 137, finishedAt: '2026-01-01T00:02:00Z' };

describe('containerCrashes', () => {
  const pod = realisticPod('api-1');
  it('sees a restart: the run in lastState ended, its logs are the previous instance', () => {
    const before = podRunsOf(withStatus(pod, { restarts: 0 }));
    expect(containerCrashes(before, withStatus(pod, { restarts: 1, ended: firstEnd }))).toEqual([
      {
        container: 'app',
        containerId: 'containerd://run-1',
        previous: true,
        exitCode: 1,
        reason: 'Error',
        finishedAt: '2026-01-01T00:01:00Z',
      },
    ]);
  });

  it('sees a different ended run even when restartCount did not move, and nothing when nothing ended', () => {
    const before = podRunsOf(withStatus(pod, { restarts: 1, ended: firstEnd }));
    expect(containerCrashes(before, withStatus(pod, { restarts: 1, ended: firstEnd }))).toEqual([]);
    expect(containerCrashes(before, withStatus(pod, { restarts: 1, ended: secondEnd }))).toMatchObject([
      { containerId: 'containerd://run-2', previous: true, exitCode: 137 },
    ]);
  });

  it('sees a pod that failed without a restart: its terminated runs are the current logs', () => {
    const before = podRunsOf(withStatus(pod, { restarts: 0 }));
    const failed = withStatus(
      pod,
      { restarts: 0, terminatedNow: { containerID: 'containerd://only', exitCode: 2 } },
      'Failed',
    );
    expect(containerCrashes(before, failed)).toMatchObject([
      { containerId: 'containerd://only', previous: false, exitCode: 2 },
    ]);
    // Already failed before: not a new crash.
    expect(containerCrashes(podRunsOf(failed), failed)).toEqual([]);
  });
});

describe('CrashLogCapture', () => {
  it('records the previous run logs with the change time, pod uid and container id', async () => {
    directory = tempDirectory();
    const file = directory.file('crash.kubetide');
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    const requests: CrashLogRequest[] = [];
    const fetchCrashLogs = (request: CrashLogRequest) => {
      requests.push(request);
      return Promise.resolve('starting\npanic: cannot connect to the database\n');
    };
    const pod = source.add(withStatus(realisticPod('api-1'), { restarts: 0 }));
    const run = await recordedInformer(source, file, clock, {}, { fetchCrashLogs });
    await settle();
    await clock.stepAsync(5000);
    const crashTime = clock.now();
    source.modify(withStatus(pod, { restarts: 1, ended: firstEnd }));
    await settle();
    await clock.stepAsync(1000);
    expect(requests).toEqual([
      {
        namespace: 'default',
        pod: 'api-1',
        container: 'app',
        previous: true,
        limitBytes: 262_144,
        tailLines: 5000,
      },
    ]);
    await run.stop();
    await run.recorder.close();

    const reader = openRecording(file);
    const uid = pod.metadata.uid!;
    expect(crashLogsAt(reader.database, uid, crashTime - 1)).toEqual([]);
    expect(crashLogsAt(reader.database, uid, crashTime)).toEqual([
      {
        time: crashTime,
        uid,
        namespace: 'default',
        pod: 'api-1',
        container: 'app',
        containerId: 'containerd://run-1',
        exitCode: 1,
        reason: 'Error',
        finishedAt: '2026-01-01T00:01:00Z',
        logs: 'starting\npanic: cannot connect to the database\n',
        truncated: false,
        problem: undefined,
      },
    ]);
    reader.close();
  });

  it('does not take a pod first seen with restarts as a crash (they predate the recording)', async () => {
    directory = tempDirectory();
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    const fetched: CrashLogRequest[] = [];
    source.add(withStatus(realisticPod('api-1'), { restarts: 4, ended: firstEnd }));
    const run = await recordedInformer(
      source,
      directory.file('seen.kubetide'),
      clock,
      {},
      {
        fetchCrashLogs: (request) => (fetched.push(request), Promise.resolve('')),
      },
    );
    await settle();
    await clock.stepAsync(1000);
    expect(fetched).toEqual([]);
    await run.stop();
    await run.recorder.close();
  });

  it('fetches at most `concurrency` at once across informers, notes crashes past its queue and a gone pod', async () => {
    const entries: CrashLogEntry[] = [];
    const answers: { resolve: (text: string) => void; reject: (error: Error) => void }[] = [];
    const fetches = new CrashLogFetches({
      append: (entry) => entries.push(entry),
      concurrency: 3,
      queueLimit: 4,
      tailLines: 2,
    });
    // Two informers (one per namespace, as for a user limited to some) share the Recorder's one bound.
    const fetch = () => new Promise<string>((resolve, reject) => answers.push({ resolve, reject }));
    const captures = [
      new CrashLogCapture(fetch, fetches, () => 1000),
      new CrashLogCapture(fetch, fetches, () => 1000),
    ];
    const pods = Array.from({ length: 8 }, (_, index) => realisticPod(`job-${index}`));
    const captureOf = (index: number) => captures[index % 2]!;
    pods.forEach((pod, index) =>
      captureOf(index).observeDeltas([{ type: 'Added', object: withStatus(pod, { restarts: 0 }) }]),
    );
    pods.forEach((pod, index) =>
      captureOf(index).observeDeltas([
        { type: 'Updated', object: withStatus(pod, { restarts: 1, ended: firstEnd }) },
      ]),
    );
    // 3 fetching, 4 waiting, the 8th only noted.
    expect(answers).toHaveLength(3);
    expect(fetches.pending).toBe(7);
    expect(entries).toMatchObject([
      { pod: 'job-7', logs: '', problem: expect.stringMatching(/more than 4/) },
    ]);
    answers[0]!.reject(new StatusError(newStatus(404, 'NotFound', 'pods "job-0" not found')));
    await settle();
    expect(entries[1]).toMatchObject({
      pod: 'job-0',
      logs: '',
      problem: 'the pod was gone before its logs were read',
    });
    expect(answers).toHaveLength(4); // the next waiting crash took the freed slot
    answers[1]!.resolve('a\nb\n');
    for (const answer of answers.slice(2)) answer.resolve('bye\n');
    await settle();
    for (const answer of answers.slice(4)) answer.resolve('bye\n');
    await settle();
    expect(answers).toHaveLength(7);
    expect(fetches.pending).toBe(0);
    expect(entries).toHaveLength(8);
    // At the tail's bound the run may have written more: said so; under it, not.
    expect(entries.find((entry) => entry.logs === 'a\nb\n')?.truncated).toBe(true);
    expect(entries.filter((entry) => entry.logs === 'bye\n').every((entry) => !entry.truncated)).toBe(true);
  });
});

function crashEntry(time: number, uid: string): CrashLogEntry {
  return {
    record: 'crash-log',
    time,
    uid,
    namespace: 'default',
    pod: 'api-1',
    container: 'app',
    containerId: `containerd://${time}`,
    exitCode: 1,
    reason: 'Error',
    finishedAt: undefined,
    logs: `run ended at ${time}\n`,
    truncated: false,
    problem: undefined,
  };
}

describe('crash_logs storage', () => {
  it('keeps a format 2 recording readable (no crash logs) and upgrades it when written', () => {
    directory = tempDirectory();
    const file = directory.file('old.kubetide');
    const database = openForWriting(file, 'test-context');
    database.exec('DROP TABLE crash_logs');
    database.prepare("UPDATE meta SET value = '2' WHERE key = 'formatVersion'").run();
    database.close();

    const reader = openRecording(file);
    expect(reader.problems).toEqual([]);
    expect(crashLogsAt(reader.database, 'any-uid', Date.now())).toEqual([]);
    reader.close();

    const upgraded = openForWriting(file, 'test-context');
    expect(readMeta(upgraded, 'formatVersion')).toBe(String(recordingFormatVersion));
    writeCrashLog(upgraded, crashEntry(5000, 'uid-1'));
    expect(crashLogsAt(upgraded, 'uid-1', 5000).map((log) => log.logs)).toEqual(['run ended at 5000\n']);
    upgraded.close();
  });

  it('stores the text deflated and retention deletes crash logs with their time range', () => {
    directory = tempDirectory();
    const file = directory.file('retention.kubetide');
    const database = openForWriting(file, 'test-context');
    const writer = new RecordingWriter(database);
    const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
    writer.writeKeyframe(stream, 0);
    const pod = realisticPod('api-1');
    for (const time of [1000, 2000, 3000]) {
      writer.writeChange({
        time,
        stream,
        type: 'Updated',
        finalStateUnknown: false,
        object: pod,
        key: 'default/api-1',
      });
      writeCrashLog(database, { ...crashEntry(time, pod.metadata.uid!), logs: 'x'.repeat(10_000) });
    }
    const stored = database.prepare('SELECT max(length(payload)) AS bytes FROM crash_logs').get() as {
      bytes: number;
    };
    expect(stored.bytes).toBeLessThan(1000);
    expect(enforceRetention(writer, { maxAgeMs: 1500 }, 3500)).toBe(2000);
    expect(crashLogsAt(database, pod.metadata.uid!, 3000).map((log) => log.time)).toEqual([3000, 2000]);
    database.close();
    const reopened = new Database(file, { readonly: true });
    expect(reopened.prepare('SELECT count(*) AS n FROM crash_logs').get()).toEqual({ n: 2 });
    reopened.close();
  });

  it('travels in an export of its range (namespaces filtered) and reads back from the exported file', () => {
    directory = tempDirectory();
    const file = directory.file('source.kubetide');
    const database = openForWriting(file, 'test-context');
    const writer = new RecordingWriter(database);
    const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
    writer.writeKeyframe(stream, 0);
    const pod = realisticPod('api-1');
    writer.writeChange({
      time: 1000,
      stream,
      type: 'Added',
      finalStateUnknown: false,
      object: pod,
      key: 'default/api-1',
    });
    for (const time of [1500, 2500]) writeCrashLog(database, crashEntry(time, pod.metadata.uid!));
    writeCrashLog(database, { ...crashEntry(2600, 'other-uid'), namespace: 'kube-system' });
    database.close();

    const source = openRecording(file);
    exportRecording(source, directory.file('export.kubetide'), {
      from: 2000,
      to: 3000,
      namespaces: ['default'],
    });
    source.close();
    const exported = openRecording(directory.file('export.kubetide'));
    expect(
      crashLogsAt(exported.database, pod.metadata.uid!, 3000).map((log) => [log.time, log.logs]),
    ).toEqual([[2500, 'run ended at 2500\n']]);
    expect(crashLogsAt(exported.database, 'other-uid', 3000)).toEqual([]);
    exported.close();
  });
});
