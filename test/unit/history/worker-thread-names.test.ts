// The recording worker names its thread, so `top -H`, `ps -L` and the benches' CPU by thread tell its
// time from the query and metrics workers' (Node 20 names every worker thread "node").
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import { Recorder } from '../../../main/history/recorder';
import { nameThisThread, threadNameBytes } from '../../../main/history/thread-name';
import { recordingWorkerProcess } from '../../../main/history/worker-recording-process';
import type { TempDirectory } from './fixtures';
import { tempDirectory } from './fixtures';

/** This process's threads' names (Linux: /proc/self/task/<tid>/comm). */
function threadNames(): string[] {
  return readdirSync('/proc/self/task').flatMap((task) => {
    try {
      return [readFileSync(`/proc/self/task/${task}/comm`, 'latin1').trim()];
    } catch {
      return []; // the thread ended between the listing and the read
    }
  });
}

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

describe.runIf(process.platform === 'linux')('worker thread names', () => {
  it('names the recording worker kubetide-record', async () => {
    directory = tempDirectory();
    const recorder = await Recorder.open({
      file: directory.file('named.kubetide'),
      context: 'test-context',
      clock: new FakeClock(),
      recordingProcess: recordingWorkerProcess(),
    });
    try {
      // The worker names itself before it serves the open, which Recorder.open waited for.
      expect(threadNames()).toContain('kubetide-record');
    } finally {
      await recorder.close();
    }
  });

  it('keeps the first 15 bytes of a longer name, as the kernel does', () => {
    const path = '/proc/thread-self/comm';
    const before = readFileSync(path, 'latin1').trim();
    try {
      expect(nameThisThread('kubetide-a-long-thread-name')).toBe(true);
      expect(readFileSync(path, 'latin1').trim()).toBe(
        'kubetide-a-long-thread-name'.slice(0, threadNameBytes),
      );
    } finally {
      nameThisThread(before);
    }
  });
});
