// History questions answered off the main thread: HistoryQueries answers exactly what stateAt,
// objectVersions and adjacentChange answer on the calling thread, from a worker.
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/kube/object';
import { adjacentChange, objectVersions } from '../../../main/history/object-history';
import { openRecording } from '../../../main/history/recording-reader';
import { stateAt } from '../../../main/history/replay';
import { HistoryQueries } from '../../../main/history/history-queries';
import type { TempDirectory } from './fixtures';
import { recordChurn, tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
const queries = new HistoryQueries();
afterEach(() => directory?.remove());

describe('HistoryQueries', () => {
  it('answers in a worker thread what stateAt, objectVersions and adjacentChange answer here', async () => {
    directory = tempDirectory();
    const run = await recordChurn(directory.file('churn.kubetide'), 40);
    const reader = openRecording(run.file);
    const start = reader.metadata.start ?? run.moments[0].time;
    for (const time of [start - 1, run.moments[0].time, run.moments[20].time, run.moments[39].time]) {
      const expected = stateAt(reader, { gvr: 'pods.v1', time });
      const objects: KubeObject[] = [];
      const rebuilt = await queries.stateAt(run.file, { gvr: 'pods.v1', time }, (chunk) =>
        objects.push(...chunk),
      );
      expect(objects).toEqual(expected.objects);
      expect(rebuilt).toEqual({ complete: expected.complete, gap: expected.gap });
    }
    const uid = run.moments[20].objects[0].metadata.uid!;
    expect(await queries.versions(run.file, { uid })).toEqual(objectVersions(reader, { uid }));
    const middle = run.moments[20].time;
    for (const direction of ['previous', 'next'] as const)
      expect(await queries.adjacent(run.file, { uid }, middle, direction)).toBe(
        adjacentChange(reader, { uid }, middle, direction)?.time,
      );
    reader.close();
    queries.close();
  });
});
