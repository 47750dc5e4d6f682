// Moments rebuilt off the main thread: HistoryQueries answers exactly what stateAt answers on the
// calling thread (objects in order, completeness, any gap), from a worker.
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/kube/object';
import { openRecording } from '../../../main/history/recording-reader';
import { stateAt } from '../../../main/history/replay';
import { HistoryQueries } from '../../../main/history/history-queries';
import type { TempDirectory } from './fixtures';
import { recordChurn, tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
const queries = new HistoryQueries();
afterEach(() => directory?.remove());

describe('HistoryQueries', () => {
  it('rebuilds moments in a worker thread, as stateAt does on the calling thread', async () => {
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
    reader.close();
    queries.close();
  });
});
