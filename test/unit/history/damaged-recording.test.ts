// A truncated or corrupted recording: a clear error naming the file and what is wrong, and everything
// still readable is shown.
import { openSync, readFileSync, statSync, truncateSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { RecordingError } from '../../../main/history/recording-error';
import { openRecording } from '../../../main/history/recording-reader';
import { playback, stateAt } from '../../../main/history/replay';
import type { TempDirectory } from './fixtures';
import { recordChurn, tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

/**
 * A finished recording converted to a rollback journal, so the file alone holds every page. Every
 * version is stored whole, so the changes span many pages and damage hits some of them, not all.
 */
async function finishedRecording(name: string) {
  directory = tempDirectory();
  const run = await recordChurn(directory.file(name), 150, { seed: 13, fullVersionEvery: 0 });
  const database = new Database(run.file);
  database.pragma('journal_mode = DELETE');
  const pageSize = database.pragma('page_size', { simple: true }) as number;
  const leaves = (
    database
      .prepare("SELECT pageno FROM dbstat WHERE name = 'changes' AND pagetype = 'leaf' ORDER BY pageno")
      .all() as { pageno: number }[]
  ).map((row) => row.pageno);
  const total = (database.prepare('SELECT count(*) AS count FROM changes').get() as { count: number }).count;
  database.close();
  return { run, pageSize, leaves, total };
}

function changeCount(batches: Iterable<{ changes: unknown[] }>): number {
  let count = 0;
  for (const batch of batches) count += batch.changes.length;
  return count;
}

describe('a damaged recording', () => {
  it('that is not SQLite at all is refused with an error naming the file', () => {
    directory = tempDirectory();
    const file = directory.file('noise.kubetide');
    writeFileSync(file, Buffer.alloc(8192, 0x5a));
    expect(() => openRecording(file)).toThrow(RecordingError);
    expect(() => openRecording(file)).toThrow(
      new RegExp(`recording ${file}: open: not a readable SQLite file`),
    );
  });

  it('that is SQLite but not a recording is refused as such', () => {
    directory = tempDirectory();
    const file = directory.file('other.db');
    const database = new Database(file);
    database.exec('CREATE TABLE notes (text TEXT)');
    database.close();
    let caught: unknown;
    try {
      openRecording(file);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RecordingError);
    expect((caught as RecordingError).problem).toMatchObject({ kind: 'not-a-recording', where: 'schema' });
  });

  it('with a corrupted page reports the lost changes and still plays back and rebuilds the rest', async () => {
    const { run, pageSize, leaves, total } = await finishedRecording('corrupt.kubetide');
    expect(leaves.length).toBeGreaterThan(4);
    const victim = leaves[Math.floor(leaves.length / 2)];
    const descriptor = openSync(run.file, 'r+');
    writeSync(descriptor, Buffer.alloc(pageSize, 0xff), 0, pageSize, (victim - 1) * pageSize);
    closeSync(descriptor);

    const reader = openRecording(run.file);
    expect(reader.intact).toBe(false);
    expect(reader.problems[0]).toMatchObject({ kind: 'corrupt', where: 'integrity check' });
    const replayed = changeCount(playback(reader, { from: 0, to: run.clock.now() }));
    expect(replayed).toBeGreaterThan(total / 2);
    expect(replayed).toBeLessThan(total);
    expect(
      reader
        .report()
        .some(
          (line) =>
            line.startsWith(`recording ${run.file}: playback, changes `) && line.includes('unreadable'),
        ),
    ).toBe(true);
    const early = stateAt(reader, { gvr: 'pods.v1', time: run.moments[5].time });
    expect(early.objects.length).toBeGreaterThan(0);
    reader.close();
  });

  it('that was truncated opens, reports the damage, and shows what precedes the cut', async () => {
    const { run, total } = await finishedRecording('truncated.kubetide');
    const size = statSync(run.file).size;
    truncateSync(run.file, Math.floor((size * 0.7) / 4096) * 4096);
    expect(readFileSync(run.file).length).toBeLessThan(size);

    const reader = openRecording(run.file);
    expect(reader.intact).toBe(false);
    expect(reader.problems.every((problem) => problem.kind === 'corrupt')).toBe(true);
    expect(reader.report()[0]).toMatch(
      new RegExp(`^recording ${run.file}: file size: the file is truncated`),
    );
    const replayed = changeCount(playback(reader, { from: 0, to: run.clock.now() }));
    expect(replayed).toBeGreaterThan(0);
    expect(replayed).toBeLessThan(total);
    reader.close();
  });
});
