// A recorder killed with SIGKILL mid-recording: the file opens again, holds everything flushed up to
// about a second before the kill, and rebuilds. The recorder is the real headless one (record-cli)
// recording the embedded cluster under churn in a child process, so nothing gets a chance to close.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { realClock } from '../../main/cache/real-clock';
import { Recorder } from '../../main/history/recorder';
import { openRecording } from '../../main/history/recording-reader';
import { recordingMarks, stateAt, timeRange } from '../../main/history/replay';

let directory: string | undefined;
let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (directory) rmSync(directory, { recursive: true, force: true });
});

/** The recorder's flush interval, and slack for a loaded machine delaying timers. */
const lossToleranceMs = 1000 + 1500;

describe('a recorder killed with SIGKILL', () => {
  it('leaves a recording that opens, holds all but the last second, and rebuilds', async () => {
    directory = mkdtempSync(join(tmpdir(), 'kubetide-kill-'));
    const file = join(directory, 'killed.kubetide');
    const recorder = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'main/history/record-cli.ts',
        '--context',
        'kill-test',
        '--out',
        file,
        '--embedded',
        '--pods',
        '150',
        '--churn',
        '60',
        '--kinds',
        'pods',
      ],
      { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = recorder;
    const exited = new Promise<void>((resolve) => recorder.once('exit', () => resolve()));
    let output = '';
    recorder.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const progress: { count: number; at: number }[] = [];
    await new Promise<void>((resolve, reject) => {
      recorder.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        for (const match of chunk.toString().matchAll(/recorded (\d+) events/g))
          progress.push({ count: Number(match[1]), at: Date.now() });
        // Enough lines that the initial list is behind and churn is being recorded.
        if (progress.length >= 4 && progress[progress.length - 1].count > progress[0].count + 20) resolve();
      });
      recorder.once('exit', (code) => reject(new Error(`record-cli exited early (${code}):\n${output}`)));
    });
    const killedAt = Date.now();
    recorder.kill('SIGKILL');
    await exited;
    const printed = progress[progress.length - 1].count;

    const reader = openRecording(file);
    expect(reader.report()).toEqual([]);
    const recorded = (
      reader.database.prepare('SELECT count(*) AS count FROM changes').get() as { count: number }
    ).count;
    expect(recorded).toBeGreaterThanOrEqual(printed);
    const range = timeRange(reader)!;
    expect(range.end).toBeGreaterThanOrEqual(killedAt - lossToleranceMs);
    const state = stateAt(reader, { gvr: 'pods.v1', time: range.end });
    expect(state.complete).toBe(true);
    expect(state.objects.length).toBeGreaterThan(100);
    reader.close();

    // Recording again into the same file: it opens for writing and marks the time it was down.
    await (await Recorder.open({ file, context: 'kill-test', clock: realClock })).close();
    const reopened = openRecording(file);
    const gap = recordingMarks(reopened, range.end, Date.now()).find(
      (mark) => mark.reason === 'not-recording',
    );
    expect(gap?.start).toBeLessThanOrEqual(killedAt);
    expect(stateAt(reopened, { gvr: 'pods.v1', time: range.end }).objects).toEqual(state.objects);
    reopened.close();
  }, 180_000);
});
