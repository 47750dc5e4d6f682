// Exporting a recording while it is being recorded: the recorder (the real headless one, record-cli,
// writing from its worker thread, recording the embedded cluster under churn in a child process) keeps
// writing while exports run back to back in their worker, no gap opens meanwhile, and each export
// holds the recording as it was on disk when it ran.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { exportInWorker } from '../../main/history/export-in-worker';
import { openRecording } from '../../main/history/recording-reader';
import { recordingMarks, stateAt } from '../../main/history/replay';

let directory: string | undefined;
let recorder: ReturnType<typeof spawn> | undefined;
afterEach(() => {
  if (recorder && recorder.exitCode === null && recorder.signalCode === null) recorder.kill('SIGKILL');
  if (directory) rmSync(directory, { recursive: true, force: true });
});

/** Starts record-cli on the embedded cluster and resolves once it records; `exited` settles when it ends. */
async function startRecording(file: string): Promise<{ exited: Promise<void> }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'main/history/record-cli.ts',
      '--context',
      'export-test',
      '--out',
      file,
      '--embedded',
      '--pods',
      '300',
      '--churn',
      '200',
      '--kinds',
      'pods',
      '--no-crash-logs',
    ],
    { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  recorder = child;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('recording context')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`record-cli exited early (${code}):\n${output}`)));
  });
  return { exited };
}

/**
 * Resolves once the recording's start-up gap has closed (the pods' first list is recorded) and no gap
 * is open: the window checked for gaps below must not overlap the start, however long the list takes.
 */
async function listed(file: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const database = new Database(file, { readonly: true, fileMustExist: true });
    const count = (sql: string) => database.prepare(sql).pluck().get() as number;
    const closed = count(
      "SELECT count(*) FROM marks WHERE kind = 'gap' AND reason = 'listing' AND end IS NOT NULL",
    );
    const open = count("SELECT count(*) FROM marks WHERE kind = 'gap' AND end IS NULL");
    database.close();
    if (closed > 0 && open === 0) return;
    if (Date.now() > deadline) throw new Error(`the recording's start-up gap did not close in 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('export while recording', () => {
  it('lets the recorder write throughout, opens no gap, and exports what was on disk', async () => {
    directory = mkdtempSync(join(tmpdir(), 'kubetide-export-live-'));
    const file = join(directory, 'live.kubetide');
    const { exited } = await startRecording(file);
    await listed(file);

    // The highest change id on disk, read every 50 ms by a connection of this thread's own.
    const watcher = new Database(file, { readonly: true });
    const lastId = () => (watcher.prepare('SELECT max(id) FROM changes').pluck().get() as number | null) ?? 0;
    const seen: number[] = [lastId()];
    const polling = setInterval(() => seen.push(lastId()), 50);
    const windowStart = Date.now();
    const exports: { file: string; to: number }[] = [];
    while (Date.now() - windowStart < 2500) {
      const to = Date.now();
      const destination = join(directory, `export-${exports.length}.kubetide`);
      const summary = await exportInWorker(file, destination, { from: 0, to });
      expect(summary.problems).toEqual([]);
      exports.push({ file: destination, to });
    }
    const windowEnd = Date.now();
    clearInterval(polling);
    seen.push(lastId());
    watcher.close();
    recorder!.kill('SIGTERM');
    await exited;

    // Changes landed on disk again and again while the exports ran: the recorder flushes once a second.
    const increases = seen.filter((id, index) => index > 0 && id > seen[index - 1]).length;
    expect(increases).toBeGreaterThanOrEqual(2);
    const source = openRecording(file);
    expect(recordingMarks(source, windowStart, windowEnd).filter((mark) => mark.kind === 'gap')).toEqual([]);
    for (const exported of [exports[0], exports[exports.length - 1]]) {
      const reader = openRecording(exported.file);
      // The recorder writes in capture order, a batch at a time: when an export read a change stamped
      // at `last`, every change stamped before it was on disk already.
      const last = reader.database.prepare('SELECT max(time) FROM changes').pluck().get() as number;
      expect(last).toBeLessThanOrEqual(exported.to);
      expect(stateAt(reader, { gvr: 'pods.v1', time: last - 1 }).objects).toEqual(
        stateAt(source, { gvr: 'pods.v1', time: last - 1 }).objects,
      );
      reader.close();
    }
    source.close();
  }, 60_000);
});
