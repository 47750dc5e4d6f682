import { createReadStream, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClusterSession } from '../../../main/bridge/cluster-session';
import { FakeClock } from '../../../main/cache/fake-clock';
import { Recorder } from '../../../main/history/recorder';
import { inlineRecordingProcess } from '../../../main/history/recording-process';
import type { FilePicker } from '../../../main/bridge/history-service';
import { HistoryTransfers } from '../../../main/bridge/history-transfers';
import type { BridgeClient } from '../../../renderer/transport/bridge-client';
import type {
  HistoryCursorMessage,
  HistoryDiffLine,
  HistoryExportReply,
  HistoryStateReply,
  HistoryTimeline,
  ObjectVersion,
  RecordingSource,
} from '../../../shared/protocol';
import { connectInMemory } from '../../support/in-memory-bridge';
import { FakeApi, pod } from '../bridge/fake-api';
import { seededRandom } from '../bridge/fixtures';
import { tempDirectory } from '../history/fixtures';

const pods = { group: '', version: 'v1', resource: 'pods' };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A recorded session over a fake API, and a renderer-side client connected to it in memory. */
async function setUp(api: FakeApi, pickFile?: FilePicker, transfers?: HistoryTransfers) {
  const clock = new FakeClock(Date.UTC(2026, 10, 30, 12));
  const directory = tempDirectory();
  const file = directory.file('test.kubetide');
  const recorder = await Recorder.open({
    file,
    context: 'test',
    clock,
    recordingProcess: inlineRecordingProcess,
  });
  const session = new ClusterSession({
    context: 'test',
    newListerWatcher: () => api.listerWatcher(),
    clock,
    batch: { maxBatchRows: 50 },
    recording: { recorder, file, kinds: [pods] },
  });
  const { client, settle, close } = connectInMemory(session, clock, {
    ...(pickFile ? { pickFile } : {}),
    ...(transfers ? { transfers } : {}),
  });
  cleanups.push(directory.remove, () => recorder.close(), close);
  return { clock, client, settle, directory };
}

/** key -> resourceVersion of a mirror's rows. */
function versions(client: BridgeClient, subscriptionId: string): Record<string, string> {
  const rows = client.store.mirror(subscriptionId)!.rows;
  return Object.fromEntries([...rows.values()].map((row) => [row.key, row.resourceVersion]));
}

/** Random creates, relabels and deletes, settled after each step so every change reached the mirror. */
async function churn(
  clock: FakeClock,
  api: FakeApi,
  settle: () => Promise<void>,
  steps: number,
  capture: () => void,
  seed = 7,
): Promise<void> {
  const random = seededRandom(seed);
  for (let step = 0; step < steps; step++) {
    for (let change = 0; change < 6; change++) {
      const name = `p${Math.floor(random() * 40)}`;
      const namespace = `ns${Math.floor(random() * 3)}`;
      if (random() < 0.3) api.remove(namespace, name);
      else api.apply(pod(namespace, name, { step: String(step), app: `a${change % 3}` }));
    }
    await settle();
    capture();
    // The next step's changes are stamped after the captured moment, never at it.
    await clock.stepAsync(1);
  }
}

describe('history through the bridge', () => {
  it('shows at each moment of a churn run what the live mirror held then', async () => {
    const api = new FakeApi();
    for (let index = 0; index < 30; index++) api.apply(pod(`ns${index % 3}`, `p${index}`));
    const { clock, client, settle } = await setUp(api);
    client.start();
    await settle(4);
    const live = await client.subscribe(pods);
    await settle();
    const captured: { time: number; rows: Record<string, string> }[] = [];
    await churn(clock, api, settle, 12, () =>
      captured.push({ time: clock.now(), rows: versions(client, live) }),
    );

    const replay = client.openReplay();
    for (const moment of captured) {
      const reply = await client.history<HistoryStateReply>({
        type: 'historyState',
        subscriptionId: replay,
        gvr: pods,
        time: moment.time,
      });
      await settle(4);
      expect(reply.gap).toBeUndefined();
      expect(reply.count).toBe(Object.keys(moment.rows).length);
      expect(versions(client, replay)).toEqual(moment.rows);
    }
  });

  it('plays forward from a past moment until the replay mirror equals the live one', async () => {
    const api = new FakeApi();
    for (let index = 0; index < 20; index++) api.apply(pod(`ns${index % 3}`, `p${index}`));
    const { clock, client, settle } = await setUp(api);
    client.start();
    await settle(4);
    const live = await client.subscribe(pods);
    await settle();
    const start = clock.now();
    await churn(clock, api, settle, 10, () => {}, 11);

    const replay = client.openReplay();
    await client.history({ type: 'historyState', subscriptionId: replay, gvr: pods, time: start });
    await settle(4);
    expect(versions(client, replay)).not.toEqual(versions(client, live));
    const cursors: HistoryCursorMessage[] = [];
    client.onHistoryCursor((cursor) => cursors.push(cursor));
    await client.history({ type: 'historyPlay', subscriptionId: replay, speed: 10 });
    await settle(40);
    expect(cursors.at(-1)?.playing).toBe(false);
    expect(cursors.length).toBeGreaterThan(3);
    expect(versions(client, replay)).toEqual(versions(client, live));
  });

  it('answers the timeline with density per kind and the relist of the initial list', async () => {
    const api = new FakeApi();
    for (let index = 0; index < 10; index++) api.apply(pod('ns0', `p${index}`));
    const { clock, client, settle } = await setUp(api);
    client.start();
    await settle(4);
    await churn(clock, api, settle, 3, () => {});
    const timeline = await client.history<HistoryTimeline>({ type: 'historyTimeline', buckets: 20 });
    expect(timeline.source.kind).toBe('live');
    expect(timeline.density['pods.v1']!.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(10);
    expect(timeline.marks.some((mark) => mark.kind === 'relist' && mark.gvr === 'pods.v1')).toBe(true);
  });

  it('exports a range as a download and, uploaded back, answers the same versions of an object', async () => {
    const api = new FakeApi();
    api.apply(pod('ns0', 'web', { version: '1' }));
    const transfers = new HistoryTransfers();
    cleanups.push(() => transfers.close());
    const { clock, client, settle } = await setUp(api, undefined, transfers);
    client.start();
    // Past RecordedKindsStart's poll: the first list is recorded once the session's feeds have synced.
    await settle(8);
    api.apply(pod('ns0', 'web', { version: '2' }));
    await settle();
    const web = { gvr: pods, namespace: 'ns0', name: 'web' };
    const live = await client.history<ObjectVersion[]>({ type: 'historyVersions', object: web });
    const exported = await client.history<HistoryExportReply>({
      type: 'historyExport',
      from: 0,
      to: clock.now(),
      destination: 'download',
    });
    expect(exported.changes).toBe(2);
    const token = exported.downloadUrl!.split('/').pop()!;
    const offered = transfers.takeDownload(token)!;
    expect(readFileSync(offered.file).length).toBe(exported.bytes);
    expect(transfers.takeDownload(token)).toBeUndefined();

    const upload = await transfers.receiveUpload(createReadStream(offered.file), 'export.kubetide');
    offered.remove();
    const source = await client.history<RecordingSource>({ type: 'historyImport', source: { upload } });
    expect(source).toMatchObject({ kind: 'imported', context: 'test', name: 'export.kubetide' });
    const imported = await client.history<ObjectVersion[]>({ type: 'historyVersions', object: web });
    expect(imported.map(({ type, resourceVersion }) => [type, resourceVersion])).toEqual(
      live.map(({ type, resourceVersion }) => [type, resourceVersion]),
    );
    const diff = await client.history<HistoryDiffLine[]>({
      type: 'historyDiff',
      object: web,
      olderId: imported[0]!.id,
      newerId: imported[1]!.id,
    });
    expect(diff.filter((line) => line.kind === 'added').map((line) => line.text.trim())).toContain(
      'version: "2"',
    );
    await expect(client.history({ type: 'historyImport', source: { upload } })).rejects.toThrow(
      /no such upload/,
    );
  });

  it('cancels an export from the client: the reply says so and main offers no download', async () => {
    const api = new FakeApi();
    api.apply(pod('ns0', 'web'));
    const transfers = new HistoryTransfers();
    cleanups.push(() => transfers.close());
    const { clock, client, settle } = await setUp(api, undefined, transfers);
    client.start();
    await settle(4);
    const offered = vi.spyOn(transfers, 'offerDownload');
    const exporting = client.exportHistory(
      { type: 'historyExport', from: 0, to: clock.now(), destination: 'download' },
      () => {},
    );
    // Sent right behind the export on the same ordered link: the worker cannot have finished.
    exporting.cancel();
    await expect(exporting.reply).rejects.toThrow('the export was cancelled: no file was written');
    expect(offered).not.toHaveBeenCalled();
  });

  it("exports to a new file main's dialog picked, and never over an existing one", async () => {
    const elsewhere = tempDirectory();
    cleanups.push(elsewhere.remove);
    let answer = elsewhere.file('chosen');
    const { clock, client, settle } = await setUp(new FakeApi(), async (purpose, suggested) => {
      expect(purpose).toBe('export');
      expect(suggested).toMatch(/^test-.*\.kubetide$/);
      return answer;
    });
    client.start();
    await settle(4);
    const reply = await client.history<HistoryExportReply>({
      type: 'historyExport',
      from: 0,
      to: clock.now(),
      destination: 'dialog',
    });
    expect(reply.name).toBe('chosen.kubetide');
    expect(readFileSync(elsewhere.file('chosen.kubetide')).length).toBe(reply.bytes);

    answer = elsewhere.file('notes.kubetide');
    writeFileSync(answer, 'keep me');
    await expect(
      client.history({ type: 'historyExport', from: 0, to: 1, destination: 'dialog' }),
    ).rejects.toThrow(/already exists/);
    expect(readFileSync(answer, 'utf8')).toBe('keep me');
    expect(readdirSync(join(elsewhere.file('')))).toEqual(['chosen.kubetide', 'notes.kubetide']);
  });

  it('refuses a dialog where main has none, and a download where main offers none', async () => {
    const browser = await setUp(new FakeApi());
    browser.client.start();
    await browser.settle(4);
    await expect(browser.client.history({ type: 'historyImport', source: 'dialog' })).rejects.toThrow(
      /no file dialog/,
    );
    await expect(
      browser.client.history({ type: 'historyExport', from: 0, to: 1, destination: 'download' }),
    ).rejects.toThrow(/no downloads/);
    expect(existsSync(join(browser.directory.file(''), 'exports'))).toBe(false);
  });
});
