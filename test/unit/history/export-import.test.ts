// Export a range of a recording (optionally some namespaces or kinds) to one portable file; opened
// again it answers like the source over that range.
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { exportRecording } from '../../../main/history/export-recording';
import { objectVersions } from '../../../main/history/object-history';
import { openRecording } from '../../../main/history/recording-reader';
import { recordingMarks, stateAt, timeRange } from '../../../main/history/replay';
import { membersAt } from '../../../main/history/stream-state';
import { recordingFormatVersion } from '../../../main/history/schema';
import type { ChurnRun, TempDirectory } from './fixtures';
import { recordChurn, tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

async function churnRun(): Promise<ChurnRun> {
  directory = tempDirectory();
  return recordChurn(directory.file('source.kubetide'), 120, { seed: 9, keyframeEveryChanges: 40 });
}

describe('exportRecording', () => {
  it('gives a file that rebuilds every moment of the range and every version in it like the source', async () => {
    const run = await churnRun();
    const from = run.moments[30].time;
    const to = run.moments[90].time;
    const source = openRecording(run.file);
    const summary = exportRecording(source, directory!.file('export.kubetide'), { from, to });
    expect(summary.problems).toEqual([]);
    expect(existsSync(directory!.file('export.kubetide-wal'))).toBe(false);
    const exported = openRecording(directory!.file('export.kubetide'));
    expect(timeRange(exported)).toEqual({ start: from, end: to });
    for (const moment of run.moments.filter((moment) => moment.time >= from && moment.time <= to)) {
      expect(stateAt(exported, { gvr: 'pods.v1', time: moment.time }).objects).toEqual(moment.objects);
    }
    const uids = new Set(run.moments[60].objects.map((pod) => pod.metadata.uid!));
    const inRange = (change: { time: number }) => change.time > from && change.time <= to;
    for (const uid of uids) {
      const expected = objectVersions(source, { uid }).filter(inRange);
      expect(objectVersions(exported, { uid }).filter(inRange)).toEqual(
        expected.map((change) => ({ ...change, id: expect.any(Number) })),
      );
    }
    expect(recordingMarks(exported, from, to)).toEqual(recordingMarks(source, from, to));
    source.close();
    exported.close();
  });

  it('keeps only the chosen namespaces, and says what it holds in its metadata', async () => {
    const run = await churnRun();
    const from = run.moments[10].time;
    const to = run.moments[100].time;
    const source = openRecording(run.file);
    exportRecording(source, directory!.file('payments.kubetide'), {
      from,
      to,
      namespaces: ['payments'],
      gvrs: ['pods.v1'],
    });
    const exported = openRecording(directory!.file('payments.kubetide'));
    for (const moment of run.moments.filter((moment) => moment.time >= from && moment.time <= to)) {
      const expected = moment.objects.filter((pod) => pod.metadata.namespace === 'payments');
      expect(stateAt(exported, { gvr: 'pods.v1', time: moment.time }).objects).toEqual(expected);
    }
    expect(exported.metadata).toMatchObject({
      formatVersion: recordingFormatVersion,
      context: 'test-context',
      start: from,
      exportFilter: { from, to, namespaces: ['payments'], gvrs: ['pods.v1'] },
    });
    source.close();
    exported.close();
  });

  it('leaves out kinds not chosen', async () => {
    const run = await churnRun();
    const source = openRecording(run.file);
    const summary = exportRecording(source, directory!.file('none.kubetide'), {
      from: run.moments[0].time,
      to: run.moments[50].time,
      gvrs: ['deployments.v1.apps'],
    });
    expect(summary.changes).toBe(0);
    const exported = openRecording(directory!.file('none.kubetide'));
    expect(stateAt(exported, { gvr: 'pods.v1', time: run.moments[20].time }).objects).toEqual([]);
    source.close();
    exported.close();
  });

  it('leaves out a version it cannot decode and those that needed it, and says so; the rest reads whole', async () => {
    const run = await churnRun();
    const from = run.moments[60].time;
    const to = run.moments[100].time;
    // Damage the version below one that holds an object's state at the export start: that one must be
    // rewritten whole by the export, which cannot decode it.
    const damage = new Database(run.file);
    const stream = damage.prepare('SELECT id FROM streams').pluck().get() as number;
    const held = [...membersAt(damage, stream, from).members.values()];
    const victim = damage
      .prepare(
        `SELECT id, base, object FROM changes WHERE base IS NOT NULL AND id IN (${held.join(',')}) LIMIT 1`,
      )
      .get() as { id: number; base: number; object: number };
    damage.prepare("UPDATE changes SET payload = x'00ff00ff' WHERE id = ?").run(victim.base);
    damage.close();

    const source = openRecording(run.file);
    const summary = exportRecording(source, directory!.file('damaged.kubetide'), { from, to });
    expect(summary.problems.map((problem) => problem.where)).toContain(`version of change ${victim.id}`);
    const exported = openRecording(directory!.file('damaged.kubetide'));
    const rows = exported.database.prepare('SELECT id, object FROM changes ORDER BY id').all() as {
      id: number;
      object: number;
    }[];
    expect(rows.map((row) => row.id)).not.toContain(victim.id);
    const decoder = exported.decoder();
    for (const row of rows) exported.guard(`change ${row.id}`, undefined, () => decoder.json(row.id));
    expect(exported.problems).toEqual([]);
    const victimUid = source.database
      .prepare('SELECT uid FROM objects WHERE id = ?')
      .pluck()
      .get(victim.object);
    const inRange = (change: { time: number }) => change.time > from && change.time <= to;
    for (const uid of new Set(run.moments[80].objects.map((pod) => pod.metadata.uid!))) {
      if (uid === victimUid) continue;
      expect(objectVersions(exported, { uid }).filter(inRange)).toEqual(
        objectVersions(source, { uid }).filter(inRange),
      );
    }
    source.close();
    exported.close();
  });
});
