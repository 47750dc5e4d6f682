// What a timeline and a player ask of a recording: its range, the density of changes per kind, and
// the changes between two moments in batches that carry the state from one moment to the other.
import { afterEach, describe, expect, it } from 'vitest';
import { openRecording } from '../../../main/history/recording-reader';
import { eventDensity, playback, stateAt, timeRange } from '../../../main/history/replay';
import type { KubeObject } from '../../../shared/kube/object';
import type { TempDirectory } from './fixtures';
import { recordChurn, tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

const keyOf = (pod: KubeObject) => `${pod.metadata.namespace}/${pod.metadata.name}`;

describe('timeline queries', () => {
  it('playback batches carry the state at T1 to the state at T2, in order, within their windows', async () => {
    directory = tempDirectory();
    const run = await recordChurn(directory.file('play.kubetide'), 80, { seed: 21 });
    const reader = openRecording(run.file);
    const from = run.moments[10].time;
    const to = run.moments[70].time;
    const state = new Map(
      stateAt(reader, { gvr: 'pods.v1', time: from }).objects.map((pod) => [keyOf(pod), pod]),
    );
    let previousEnd = from;
    for (const batch of playback(reader, { from, to, batchMs: 1500 })) {
      expect(batch.start).toBeGreaterThanOrEqual(previousEnd);
      expect(batch.end - batch.start).toBeLessThanOrEqual(1500);
      for (const change of batch.changes) {
        expect(change.time).toBeGreaterThan(batch.start);
        expect(change.time).toBeLessThanOrEqual(batch.end);
        const key = `${change.namespace}/${change.name}`;
        if (change.type === 'Deleted') state.delete(key);
        else state.set(key, change.object!);
      }
      previousEnd = batch.end;
    }
    const played = [...state.values()].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1));
    expect(played).toEqual(run.moments[70].objects);
    reader.close();
  });

  it('reports the range and the change density per kind', async () => {
    directory = tempDirectory();
    const run = await recordChurn(directory.file('density.kubetide'), 40, { seed: 2 });
    const reader = openRecording(run.file);
    const range = timeRange(reader)!;
    expect(range.start).toBeLessThanOrEqual(run.moments[0].time);
    expect(range.end).toBeGreaterThanOrEqual(run.moments[39].time);
    const density = eventDensity(reader, { from: range.start, to: range.end + 1, buckets: 10 });
    const total = (
      reader.database.prepare('SELECT count(*) AS count FROM changes').get() as { count: number }
    ).count;
    expect([...density.keys()]).toEqual(['pods.v1']);
    expect(density.get('pods.v1')!.length).toBe(10);
    expect(density.get('pods.v1')!.reduce((sum, count) => sum + count, 0)).toBe(total);
    reader.close();
  });
});
