// The writer's WAL is checkpointed every 16,384 pages, not SQLite's 1,000: under broad churn each
// commit writes a few hundred index pages, and the default copied them into the file (and synced it)
// every two or three commits (see openForWriting).
import { afterEach, describe, expect, it } from 'vitest';
import { openForWriting } from '../../../main/history/schema';
import type { TempDirectory } from './fixtures';
import { tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

describe('a recording opened for writing', () => {
  it('checkpoints its WAL every 16,384 pages, in WAL mode', () => {
    directory = tempDirectory();
    const database = openForWriting(directory.file('checkpoints.kubetide'), 'test-context');
    try {
      expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(database.pragma('wal_autocheckpoint', { simple: true })).toBe(16_384);
    } finally {
      database.close();
    }
  });
});
