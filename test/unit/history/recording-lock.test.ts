// One writer per recording: a second recorder on the same file is refused (and the app then opens the
// recording read-only), while a lock left by a killed recorder is taken over.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import { openSessionRecording } from '../../../main/app/history-recording';
import { Recorder } from '../../../main/history/recorder';
import { recordingFile } from '../../../main/history/data-directory';
import { inlineRecordingProcess } from '../../../main/history/recording-process';
import type { TempDirectory } from './fixtures';
import { tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

describe('one writer per recording', () => {
  it('refuses a second recorder while the first runs, and lets one record once it closed', async () => {
    directory = tempDirectory();
    const file = directory.file('shared.kubetide');
    const options = {
      file,
      context: 'test-context',
      clock: new FakeClock(),
      recordingProcess: inlineRecordingProcess,
    };
    const first = await Recorder.open(options);
    await expect(Recorder.open(options)).rejects.toMatchObject({
      problem: { kind: 'locked', message: expect.stringContaining(`process ${process.pid}`) },
    });
    await first.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
    await (await Recorder.open(options)).close();
  });

  it('takes over the lock of a recorder that was killed', async () => {
    directory = tempDirectory();
    const file = directory.file('killed.kubetide');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: Number(gone.stdout.toString()), host: hostname() }));
    const recorder = await Recorder.open({
      file,
      context: 'test-context',
      clock: new FakeClock(),
      recordingProcess: inlineRecordingProcess,
    });
    await recorder.close();
  });

  it("opens the context's recording read-only in a second instance, and says so", async () => {
    directory = tempDirectory();
    const logged: string[] = [];
    const options = {
      context: 'shared',
      clock: new FakeClock(),
      log: (line: string) => logged.push(line),
      dataDirectory: directory.path,
    };
    const first = await openSessionRecording(options);
    expect(logged).toEqual([expect.stringContaining('recording context shared')]);
    expect(first?.recorder).toBeDefined();
    const second = await openSessionRecording(options);
    expect(second).toMatchObject({ recorder: undefined, file: first!.file });
    expect(second?.readOnly).toContain('another recorder');
    expect(logged.at(-1)).toContain('read-only');
    expect(first!.file).toBe(recordingFile(directory.path, 'shared'));
    await first!.recorder!.close();
  });
});
