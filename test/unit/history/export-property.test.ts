// Property: an export of any range, namespaces and kinds answers like its source over that range. The
// export copies stored versions as they are and rewrites only those encoded against a change it leaves
// out (the version before the range, a sibling in another namespace or outside the range); reading
// every moment and every version back from the export alone proves each such version stands alone.
// The export's row frames (copied, re-encoded under a namespace filter) give each moment's table rows
// exactly as its versions projected do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinedRows } from '../../../main/bridge/encoded-rows';
import { RowProjector } from '../../../main/bridge/row-projection';
import { replayLayout } from '../../../main/history/replay-layout';
import { rowTuple } from '../../../shared/protocol/row-tuples';
import { MomentRows } from '../../../main/history/moment-rows';
import { exportRecording } from '../../../main/history/export-recording';
import { objectVersions } from '../../../main/history/object-history';
import type { RecordedChange } from '../../../main/history/recorded-change';
import type { RecordingReader } from '../../../main/history/recording-reader';
import { openRecording } from '../../../main/history/recording-reader';
import { stateAt } from '../../../main/history/replay';
import { printerFor } from '../../../shared/kinds/columns';
import type { ChurnRun, TempDirectory } from './fixtures';
import { recordChurn, seededRandom, tempDirectory, versionsWithoutIds, withoutIds } from './fixtures';

let directory: TempDirectory;
let run: ChurnRun;
let source: RecordingReader;

beforeAll(async () => {
  directory = tempDirectory();
  // Short chains and frequent keyframes: ranges start and end inside chains and between keyframes.
  run = await recordChurn(directory.file('source.kubetide'), 160, {
    seed: 21,
    keyframeEveryChanges: 30,
    fullVersionEvery: 12,
  });
  source = openRecording(run.file);
});

afterAll(() => {
  source.close();
  directory.remove();
});

/** `count` of `items` chosen at random, in their order (all of them when there are no more). */
function sample<T>(items: readonly T[], count: number, random: () => number): T[] {
  const chosen = new Set<number>();
  while (chosen.size < Math.min(count, items.length)) chosen.add(Math.floor(random() * items.length));
  return [...chosen].sort((a, b) => a - b).map((index) => items[index]);
}

const namespaceChoices: (readonly string[] | undefined)[] = [
  undefined,
  ['default'],
  ['payments'],
  ['payments', 'kube-system'],
];

const projector = new RowProjector(printerFor({ group: '', resource: 'pods' }));

describe('exportRecording, for random ranges and filters', () => {
  it('rebuilds every sampled moment and every object history in range as the source does', () => {
    const random = seededRandom(12);
    const uids = (
      source.database.prepare('SELECT DISTINCT uid FROM objects').pluck().all() as string[]
    ).sort();
    let framed = 0;
    for (let trial = 0; trial < 10; trial++) {
      const first = random.integer(run.moments.length - 1);
      const last = random.between(first, run.moments.length - 1);
      // Half the ranges start between two moments, inside a step's changes.
      const from = run.moments[first].time - (random.chance(0.5) ? 250 : 0);
      const to = run.moments[last].time;
      const namespaces = random.pick(namespaceChoices);
      const gvrs = random.chance(0.2) ? ['deployments.v1.apps'] : random.pick([undefined, ['pods.v1']]);
      const file = directory.file(`export-${trial}.kubetide`);
      const summary = exportRecording(source, file, { from, to, namespaces, gvrs });
      const context = JSON.stringify({ trial, from, to, namespaces, gvrs });
      expect(summary.problems, context).toEqual([]);
      const exported = openRecording(file);
      const rows = new MomentRows();
      framed += exported.database.prepare('SELECT count(*) FROM row_frames').pluck().get() as number;
      const namespaced = (namespace: string) =>
        gvrs?.includes('pods.v1') !== false && (!namespaces || namespaces.includes(namespace));
      const moments = run.moments.filter((moment) => moment.time >= from && moment.time <= to);
      for (const moment of sample(moments, 8, random)) {
        for (const time of [moment.time, moment.time - 250].filter((time) => time >= from)) {
          const actual = stateAt(exported, { gvr: 'pods.v1', time });
          if (gvrs && !gvrs.includes('pods.v1')) {
            expect(actual.objects, `${context} at ${time}`).toEqual([]);
            continue;
          }
          const expected = stateAt(source, { gvr: 'pods.v1', time });
          const kept = expected.changes.filter((change) => namespaced(change.namespace));
          expect(withoutIds(actual), `${context} at ${time}`).toEqual(
            withoutIds({ ...expected, objects: kept.map((change) => change.object!), changes: kept }),
          );
          const now = to + 60_000;
          const moment = rows.moment(exported, { gvr: 'pods.v1', time }, now);
          expect(joinedRows([...moment.chunks]).json, `${context} rows at ${time}`).toBe(
            JSON.stringify(
              actual.objects.map((object) =>
                rowTuple(projector.project(object, now), replayLayout(projector.printer)),
              ),
            ),
          );
        }
      }
      const inRange = (change: RecordedChange) => change.time > from && change.time <= to;
      for (const uid of sample(uids, 24, random)) {
        const expected = objectVersions(source, { uid }).filter(inRange);
        const kept = expected.filter((change) => namespaced(change.namespace));
        expect(
          versionsWithoutIds(objectVersions(exported, { uid }).filter(inRange)),
          `${context} ${uid}`,
        ).toEqual(versionsWithoutIds(kept));
      }
      expect(exported.intact).toBe(true);
      exported.close();
    }
    expect(framed).toBeGreaterThan(0);
  });
});
