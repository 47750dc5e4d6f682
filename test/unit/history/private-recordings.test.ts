// A recording holds every recorded object of a cluster: it and the folders made for it are readable by
// the user alone, whatever the umask (SQLite made it 0644, readable by every local user), and a
// recording an earlier version left 0644 is narrowed when it is next written.
import { chmodSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import { Recorder } from '../../../main/history/recorder';
import { inlineRecordingProcess } from '../../../main/history/recording-process';
import { openForWriting } from '../../../main/history/schema';
import type { TempDirectory } from './fixtures';
import { tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

const permissions = (path: string) => statSync(path).mode & 0o777;

describe('recordings are private', () => {
  it('creates the data folders 0700 and the recording, its lock, WAL and shared memory 0600', async () => {
    directory = tempDirectory();
    const data = directory.file('data');
    const file = join(data, 'recordings', 'kind-kind.kubetide');
    const recorder = await Recorder.open({
      file,
      context: 'kind-kind',
      clock: new FakeClock(),
      recordingProcess: inlineRecordingProcess,
    });
    try {
      expect(permissions(data)).toBe(0o700);
      expect(permissions(join(data, 'recordings'))).toBe(0o700);
      for (const suffix of ['', '.lock', '-wal', '-shm']) {
        expect(existsSync(`${file}${suffix}`)).toBe(true);
        expect([suffix, permissions(`${file}${suffix}`)]).toEqual([suffix, 0o600]);
      }
    } finally {
      await recorder.close();
    }
  });

  it('narrows a recording left readable by others when it is written again', () => {
    directory = tempDirectory();
    const file = directory.file('old.kubetide');
    openForWriting(file, 'old-context').close();
    chmodSync(file, 0o644);
    const database = openForWriting(file, 'old-context');
    try {
      expect(permissions(file)).toBe(0o600);
      expect(permissions(`${file}-wal`)).toBe(0o600);
    } finally {
      database.close();
    }
  });

  it('leaves a database that is not a recording as it was, refused', () => {
    directory = tempDirectory();
    const file = directory.file('other.kubetide');
    const other = new Database(file);
    other.exec('CREATE TABLE notes (text TEXT)');
    other.close();
    chmodSync(file, 0o644);
    expect(() => openForWriting(file, 'context')).toThrow(/not a Kubetide recording/);
    expect(permissions(file)).toBe(0o644);
  });
});
