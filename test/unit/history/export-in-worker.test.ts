// Export off the main thread: the same file exportRecording writes, written by a worker thread while
// the main thread's event loop keeps turning, and a cancel that leaves no partial file.
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { exportInWorker } from '../../../main/history/export-in-worker';
import { openRecording } from '../../../main/history/recording-reader';
import { stateAt, timeRange } from '../../../main/history/replay';
import type { TempDirectory } from './fixtures';
import { recordChurn, tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

describe('exportInWorker', () => {
  it('exports in a worker thread while the main thread keeps turning', async () => {
    directory = tempDirectory();
    const run = await recordChurn(directory.file('source.kubetide'), 60, { keyframeEveryChanges: 16 });
    const reader = openRecording(run.file);
    const range = timeRange(reader)!;
    const middle = run.moments[30];
    reader.close();
    let turns = 0;
    let turning = true;
    const turn = () => {
      turns++;
      if (turning) setImmediate(turn);
    };
    setImmediate(turn);
    const summary = await exportInWorker(run.file, directory.file('out.kubetide'), {
      from: range.start,
      to: range.end,
    });
    turning = false;
    expect(turns).toBeGreaterThan(0);
    expect(summary.changes).toBeGreaterThan(60);
    expect(summary.problems).toEqual([]);
    const exported = openRecording(summary.file);
    expect(stateAt(exported, { gvr: 'pods.v1', time: middle.time }).objects).toEqual(middle.objects);
    exported.close();
  });

  it('stops on abort and removes the partial file', async () => {
    directory = tempDirectory();
    const run = await recordChurn(directory.file('source.kubetide'), 10);
    const destination = directory.file('cancelled.kubetide');
    const abort = new AbortController();
    const exporting = exportInWorker(run.file, destination, {
      from: 0,
      to: Date.now() + 86_400_000,
      signal: abort.signal,
    });
    abort.abort(new Error('the user cancelled'));
    await expect(exporting).rejects.toThrow('the user cancelled');
    expect(existsSync(destination)).toBe(false);
  });
});
