// The recording worker lowers its own thread's priority, and only its own: the informers' thread (this
// one, the process's main thread) keeps its nice value, so it takes a core back from the worker at once.
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import { Recorder } from '../../../main/history/recorder';
import { recordingWorkerProcess } from '../../../main/history/worker-recording-process';
import type { TempDirectory } from './fixtures';
import { tempDirectory } from './fixtures';

/** Each of this process's threads' nice values, by thread id (Linux: /proc/self/task/<tid>/stat). */
function threadNiceValues(): Map<number, number> {
  const values = new Map<number, number>();
  for (const task of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${task}/stat`, 'latin1');
    // Fields after the command name (which may hold spaces), from field 3 on: nice is field 19.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    values.set(Number(task), Number(fields[19 - 3]));
  }
  return values;
}

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

describe.runIf(process.platform === 'linux')('the recording worker thread', () => {
  it('runs at its nice value while the thread that started it keeps its own', async () => {
    directory = tempDirectory();
    const before = threadNiceValues();
    const mainNiceness = before.get(process.pid)!;
    const niceness = Math.min(19, mainNiceness + 7);
    const recorder = await Recorder.open({
      file: directory.file('niced.kubetide'),
      context: 'test-context',
      clock: new FakeClock(),
      recordingProcess: recordingWorkerProcess(niceness),
    });
    try {
      // The worker sets its value before it serves the open, which Recorder.open waited for.
      const started = [...threadNiceValues()].filter(([thread]) => !before.has(thread));
      expect(started.filter(([, value]) => value === niceness)).toHaveLength(1);
      expect(threadNiceValues().get(process.pid)).toBe(mainNiceness);
    } finally {
      await recorder.close();
    }
  });
});
