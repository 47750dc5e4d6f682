// Issue 13's file attacks on history export and import, against the real backend (embedded cluster,
// recording on): no message can name a path, main's dialogs are held to their rules even when the
// answer is hostile, browser-mode transfers need the session and the page's origin, and a crafted
// recording is refused before any copy of it is made. Every case checks the disk afterwards: nothing
// outside the chosen path is created or changed, and no temporary file is left.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend } from '../../main/app/backend';
import { startBrowserMode } from '../../main/app/serve';
import { createInMemoryTransportPair } from '../../main/bridge/in-memory-transport';
import type { BrowserMode } from '../../main/app/serve';
import { HistoryTransfers, transferLifetimeMs } from '../../main/bridge/history-transfers';
import { FakeClock } from '../../main/cache/fake-clock';
import { historyUploadPath } from '../../shared/protocol/history-messages';
import type { HistoryExportReply } from '../../shared/protocol/history-messages';
import type { ReplyMessage } from '../../shared/protocol/server-messages';
import { BridgeClientSocket, sessionCookie } from './bridge-client-socket';

let root: string;
let mode: BrowserMode;
let cookie: string;
let client: BridgeClientSocket;
const originalTmp = process.env.TMPDIR;

/** Every file and folder under `folder`, relative. */
function tree(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).sort();
}

/** A 100-byte file with an SQLite header announcing `bytes` (4 KiB pages): a bait for salvage. */
function craftedRecording(file: string, bytes: number): void {
  const header = Buffer.alloc(100);
  header.write('SQLite format 3\0', 0, 'latin1');
  header.writeUInt16BE(4096, 16);
  header.writeUInt32BE(7, 24);
  header.writeUInt32BE(Math.ceil(bytes / 4096), 28);
  header.writeUInt32BE(7, 92);
  writeFileSync(file, header);
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'kubetide-files-'));
  for (const folder of ['renderer', 'data', 'home', 'temp']) mkdirSync(join(root, folder));
  writeFileSync(join(root, 'renderer', 'index.html'), '<!doctype html><title>Kubetide</title>');
  // Temporary files (salvage copies, transfers, staged exports) land here, where the test can see them.
  process.env.TMPDIR = join(root, 'temp');
  mode = await startBrowserMode({
    port: 0,
    embedded: true,
    pods: 30,
    churn: false,
    dataDirectory: join(root, 'data'),
    rendererDirectory: join(root, 'renderer'),
    log: () => undefined,
  });
  cookie = await sessionCookie(mode.server);
  client = await BridgeClientSocket.open(mode.server, cookie);
  expect((await client.hello()).ok).toBe(true);
}, 60_000);

afterAll(async () => {
  client?.close();
  await mode?.close();
  process.env.TMPDIR = originalTmp;
  rmSync(root, { recursive: true, force: true });
});

const upload = (body: Buffer, headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${mode.server.port}${historyUploadPath}?name=mine.kubetide`, {
    method: 'POST',
    body: new Uint8Array(body),
    headers: { Cookie: cookie, Origin: `http://127.0.0.1:${mode.server.port}`, ...headers },
  });

describe('history files, browser mode', () => {
  it('an export to any path a message names is refused, and nothing is written or created', async () => {
    const home = join(root, 'home');
    for (const path of [
      join(home, '.ssh', 'authorized_keys', 'x.kubetide'),
      join(home, 'x.kubetide'),
      readdirSync(join(root, 'data', 'recordings')).map((name) => join(root, 'data', 'recordings', name))[0]!,
    ]) {
      const reply = await client.request({
        type: 'historyExport',
        from: 0,
        to: Date.now(),
        path,
        download: true,
      });
      expect(reply.ok).toBe(false);
      const pathless = await client.request({
        type: 'historyExport',
        from: 0,
        to: Date.now(),
        destination: path,
      });
      expect(pathless.ok).toBe(false);
    }
    expect(tree(home)).toEqual([]);
  });

  it('an import cannot probe for files: a path is refused the same way whether it exists or not', async () => {
    const existing = join(root, 'data', 'recordings', readdirSync(join(root, 'data', 'recordings'))[0]!);
    const answers = await Promise.all(
      [existing, join(root, 'no-such-file.kubetide')].map((path) =>
        client.request({ type: 'historyImport', source: { path } }),
      ),
    );
    expect(answers.map((reply) => (reply.ok ? 'accepted' : reply.error.message))).toEqual([
      'source has unknown field "path"',
      'source has unknown field "path"',
    ]);
  });

  it('an export is a one-time download for the session holder; its temp file is gone once fetched', async () => {
    const reply = await client.request({
      type: 'historyExport',
      from: 0,
      to: Date.now(),
      destination: 'download',
    });
    expect(reply.ok).toBe(true);
    const exported = (reply as { value: HistoryExportReply }).value;
    const address = `http://127.0.0.1:${mode.server.port}${exported.downloadUrl!}`;
    expect((await fetch(address)).status).toBe(401);
    const fetched = await fetch(address, { headers: { Cookie: cookie } });
    expect(fetched.status).toBe(200);
    expect((await fetched.arrayBuffer()).byteLength).toBe(exported.bytes);
    expect((await fetch(address, { headers: { Cookie: cookie } })).status).toBe(404);
    await expect
      .poll(() => tree(join(root, 'temp')).filter((entry) => entry.endsWith('.kubetide')))
      .toEqual([]);
  });

  it('an upload needs the session and the page origin, and is refused over the size limit', async () => {
    const body = Buffer.from('whatever');
    expect((await upload(body, { Cookie: '' })).status).toBe(401);
    expect((await upload(body, { Origin: 'https://evil.example' })).status).toBe(403);
    expect((await upload(body, { Origin: `http://127.0.0.1:${mode.server.port + 1}` })).status).toBe(403);
    // A declared size over the limit is refused before a byte is read.
    const status = await new Promise<number | undefined>((resolve) => {
      const sending = request(
        {
          host: '127.0.0.1',
          port: mode.server.port,
          path: historyUploadPath,
          method: 'POST',
          headers: {
            Cookie: cookie,
            Origin: `http://127.0.0.1:${mode.server.port}`,
            'Content-Length': String(5 * 1024 ** 3),
          },
        },
        (response) => {
          resolve(response.statusCode);
          response.resume();
          sending.destroy();
        },
      );
      sending.on('error', () => undefined);
      sending.write('SQLite format 3');
    });
    expect(status).toBe(413);
  });

  it('the crafted 100-byte file announcing 13 GB is refused before any copy; no temp file remains', async () => {
    const bait = join(root, 'bait.kubetide');
    craftedRecording(bait, 13 * 1024 ** 3);
    const refused = await upload(readFileSync(bait));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/header announces \d+ bytes/);
    // A smaller claim passes the bound but is no database: the salvage copy made to read it goes too.
    craftedRecording(bait, 64 * 1024 ** 2);
    const unreadable = await upload(readFileSync(bait));
    expect(unreadable.status).toBe(400);
    // tsx-*: the TypeScript loader's compile cache for the history workers when run from source (tests).
    const left = tree(join(root, 'temp')).filter(
      (entry) => !entry.startsWith('tsx-') && !statSync(join(root, 'temp', entry)).isDirectory(),
    );
    expect(left).toEqual([]);
    expect(tree(join(root, 'temp')).filter((entry) => entry.includes('salvage'))).toEqual([]);
  });

  it('an uploaded recording imports once, and its temp copy is deleted when the import closes', async () => {
    const reply = await client.request({
      type: 'historyExport',
      from: 0,
      to: Date.now(),
      destination: 'download',
    });
    const exported = (reply as { value: HistoryExportReply }).value;
    const bytes = Buffer.from(
      await (
        await fetch(`http://127.0.0.1:${mode.server.port}${exported.downloadUrl!}`, {
          headers: { Cookie: cookie },
        })
      ).arrayBuffer(),
    );
    const uploaded = await upload(bytes);
    expect(uploaded.status).toBe(201);
    const { upload: token } = (await uploaded.json()) as { upload: string };
    const imported = await client.request({ type: 'historyImport', source: { upload: token } });
    expect(imported).toMatchObject({ ok: true, value: { kind: 'imported', name: 'mine.kubetide' } });
    expect((await client.request({ type: 'historyImport', source: { upload: token } })).ok).toBe(false);
    expect((await client.request({ type: 'historyLive' })).ok).toBe(true);
    expect(tree(join(root, 'temp')).filter((entry) => entry.endsWith('.kubetide'))).toEqual([]);
  });
});

describe('history transfers', () => {
  it('a download or upload not collected is deleted at its production lifetime', async () => {
    const clock = new FakeClock();
    const transfers = new HistoryTransfers(clock);
    const target = transfers.newFile('late.kubetide');
    writeFileSync(target.file, 'export');
    const address = transfers.offerDownload(target);
    clock.step(transferLifetimeMs - 1);
    expect(readdirSync(join(target.file, '..'))).toHaveLength(1);
    clock.step(1);
    expect(readdirSync(join(target.file, '..'))).toEqual([]);
    expect(transfers.takeDownload(address.split('/').pop()!)).toBeUndefined();
    transfers.close();
  });
});

describe("history files, Electron: main's dialogs answered with hostile paths", () => {
  it('exports only to a new file in an existing folder outside the recordings; imports refuse crafted files', async () => {
    let picked = '';
    const data = join(root, 'electron-data');
    const home = join(root, 'electron-home');
    mkdirSync(home);
    const backend = await startBackend({
      embedded: true,
      pods: 20,
      churn: false,
      dataDirectory: data,
      log: () => undefined,
      pickFile: async () => picked,
    });
    try {
      const pair = createInMemoryTransportPair('electron');
      backend.connect(pair.server);
      const replies = new Map<number, ReplyMessage>();
      pair.client.onMessage((message) => {
        if (message.type === 'reply') replies.set(message.requestId, message);
      });
      let nextId = 1;
      const request = async (message: Record<string, unknown>) => {
        const requestId = nextId++;
        pair.client.send({ ...message, requestId });
        await expect.poll(() => replies.has(requestId), { timeout: 15_000 }).toBe(true);
        return replies.get(requestId)!;
      };
      const failure = (reply: ReplyMessage) => (reply.ok ? 'accepted' : reply.error.message);
      expect((await request({ type: 'hello', protocolVersion: 1 })).ok).toBe(true);
      const exportTo = async (path: string) => {
        picked = path;
        return request({ type: 'historyExport', from: 0, to: Date.now(), destination: 'dialog' });
      };
      const recordings = join(data, 'recordings');
      const live = join(recordings, readdirSync(recordings)[0]!);
      const liveBefore = statSync(live);

      expect(failure(await exportTo(live))).toMatch(/recordings folder|already exists/);
      expect(failure(await exportTo(join(recordings, 'new.kubetide')))).toMatch(/recordings folder/);
      expect(failure(await exportTo(join(home, '.ssh', 'authorized_keys', 'x.kubetide')))).toMatch(
        /creates no folders/,
      );
      writeFileSync(join(home, 'notes.kubetide'), 'keep me');
      expect(failure(await exportTo(join(home, 'notes.kubetide')))).toMatch(/already exists/);
      expect(readFileSync(join(home, 'notes.kubetide'), 'utf8')).toBe('keep me');
      expect(statSync(live).ino).toBe(liveBefore.ino);
      expect(statSync(live).size).toBeGreaterThanOrEqual(liveBefore.size);
      expect(readdirSync(recordings).filter((name) => name.endsWith('.kubetide'))).toEqual([
        live.split('/').pop(),
      ]);

      const exported = await exportTo(join(home, 'chosen'));
      expect(exported).toMatchObject({ ok: true, value: { name: 'chosen.kubetide' } });
      expect(tree(home)).toEqual(['chosen.kubetide', 'notes.kubetide']);

      const bait = join(home, 'bait.kubetide');
      craftedRecording(bait, 13 * 1024 ** 3);
      picked = bait;
      expect(failure(await request({ type: 'historyImport', source: 'dialog' }))).toMatch(/header announces/);
      craftedRecording(bait, 64 * 1024 ** 2);
      expect(failure(await request({ type: 'historyImport', source: 'dialog' }))).not.toBe('accepted');
      expect(tree(join(root, 'temp')).filter((entry) => entry.includes('salvage'))).toEqual([]);
      picked = join(home, 'chosen.kubetide');
      expect(await request({ type: 'historyImport', source: 'dialog' })).toMatchObject({
        ok: true,
        value: { kind: 'imported', name: 'chosen.kubetide' },
      });
      pair.client.close();
    } finally {
      await backend.close();
    }
  }, 60_000);
});
