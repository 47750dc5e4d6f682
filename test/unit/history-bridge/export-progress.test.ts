// An export's progress and cancel through HistoryService: progress goes to the renderer tied to the
// export's request, and historyExportCancel stops it mid-write, answering a clear error and leaving
// no file (no download offered, nothing at the chosen destination, no partial file in main's folders).
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClusterSession } from '../../../main/bridge/cluster-session';
import { HistoryService } from '../../../main/bridge/history-service';
import { HistoryTransfers } from '../../../main/bridge/history-transfers';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { HistoryExportReply, ServerMessage } from '../../../shared/protocol';
import { recordChurn, tempDirectory } from '../history/fixtures';
import { messageValue } from '../../../main/bridge/outgoing-message';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/** A service over a recorded churn run, its sent messages, and main's download folder. */
async function setUp(options: { pickFile?: (purpose: string) => Promise<string> } = {}) {
  const directory = tempDirectory();
  cleanups.push(directory.remove);
  const run = await recordChurn(directory.file('source.kubetide'), 40);
  const transfers = new HistoryTransfers();
  cleanups.push(() => transfers.close());
  const sent: ServerMessage[] = [];
  const session = { context: 'test', recording: { file: run.file } } as unknown as ClusterSession;
  let onSent: (message: ServerMessage, service: HistoryService) => void = () => {};
  const service: HistoryService = new HistoryService({
    session: () => session,
    send: (outgoing) => {
      const message = messageValue(outgoing);
      sent.push(message);
      onSent(message, service);
    },
    clock: new FakeClock(),
    transfers,
    exportProgressEvery: 10,
    ...(options.pickFile ? { pickFile: options.pickFile } : {}),
  });
  cleanups.push(() => service.close());
  const transferFiles = () => {
    // newFile names a path in the folder without creating anything.
    return readdirSync(dirname(transfers.newFile('probe').file));
  };
  return {
    service,
    sent,
    transferFiles,
    whenSent: (listener: typeof onSent) => (onSent = listener),
  };
}

const exportAll = (requestId: number, destination: 'dialog' | 'download') =>
  ({ type: 'historyExport', requestId, from: 0, to: Date.now() + 86_400_000, destination }) as const;

describe('export progress and cancel', () => {
  it('sends the progress of an export tied to its request, before its reply', async () => {
    const { service, sent } = await setUp();
    const reply = (await service.serve(exportAll(7, 'download'))) as HistoryExportReply;
    const progress = sent.filter((message) => message.type === 'historyExportProgress');
    expect(reply.changes).toBeGreaterThan(30);
    expect(progress.length).toBe(Math.floor(reply.changes / 10));
    expect(progress.map((message) => message.requestId)).toEqual(progress.map(() => 7));
    expect(progress.map((message) => message.changes)).toEqual(progress.map((_, index) => (index + 1) * 10));
  });

  it('stops a download export on cancel: a clear error, no download, no file left', async () => {
    const { service, transferFiles, whenSent } = await setUp();
    const cancels: unknown[] = [];
    whenSent((message, running) => {
      if (message.type === 'historyExportProgress' && cancels.length === 0)
        cancels.push(running.serve({ type: 'historyWithdraw', requestId: 9, withdrawnRequestId: 8 }));
    });
    await expect(service.serve(exportAll(8, 'download')) as Promise<unknown>).rejects.toThrow(
      'the export was cancelled: no file was written',
    );
    expect(cancels).toEqual([true]);
    expect(transferFiles()).toEqual([]);
    // Once ended, there is nothing to cancel.
    expect(service.serve({ type: 'historyWithdraw', requestId: 10, withdrawnRequestId: 8 })).toBe(false);
  });

  it('stops an export to a chosen file on cancel, leaving nothing at the destination', async () => {
    const elsewhere = tempDirectory();
    cleanups.push(elsewhere.remove);
    const { service, whenSent } = await setUp({ pickFile: async () => elsewhere.file('chosen.kubetide') });
    whenSent((message, running) => {
      if (message.type === 'historyExportProgress')
        running.serve({ type: 'historyWithdraw', requestId: 2, withdrawnRequestId: 1 });
    });
    await expect(service.serve(exportAll(1, 'dialog')) as Promise<unknown>).rejects.toThrow(/cancelled/);
    expect(readdirSync(elsewhere.path)).toEqual([]);
  });
});
