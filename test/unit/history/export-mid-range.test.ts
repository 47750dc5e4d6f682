// An export whose range starts in the middle of a busy recording: hundreds of objects live at its
// start whose versions were stored against changes it leaves out (their previous version, a sibling
// listed earlier), more than one chunk of makeExportStandAlone. Rewritten a chunk at a time, with the
// versions chained on them re-encoded, every moment and every object history still reads as in the
// source.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRecording } from '../../../main/history/export-recording';
import { objectVersions } from '../../../main/history/object-history';
import { VersionEncoding } from '../../../main/history/object-codec';
import type { RecordedChange } from '../../../main/history/recorded-change';
import type { RecordingReader } from '../../../main/history/recording-reader';
import { openRecording } from '../../../main/history/recording-reader';
import { RecordingWriter } from '../../../main/history/recording-writer';
import type { ReplayState } from '../../../main/history/replay';
import { stateAt } from '../../../main/history/replay';
import { openForWriting } from '../../../main/history/schema';
import { versionsPerQuery } from '../../../main/history/standalone-versions';
import type { KubeObject } from '../../../shared/kube/object';
import type { TempDirectory } from './fixtures';
import { realisticPod, seededRandom, tempDirectory, versionsWithoutIds, withoutIds } from './fixtures';

const pods = 900;
const updates = 2_400;
const start = Date.UTC(2026, 11, 1, 8);
/** Recorded time between two changes (ms). */
const spacing = 10;

let directory: TempDirectory;
let source: RecordingReader;

/** A pod's next version: a restart, readiness flipped every other time, a label every fifth. */
function nextVersion(pod: KubeObject, index: number): KubeObject {
  const status = pod.status as { containerStatuses?: { restartCount?: number }[]; phase?: string };
  const restarts = (status.containerStatuses?.[0]?.restartCount ?? 0) + 1;
  return {
    ...pod,
    metadata: {
      ...pod.metadata,
      resourceVersion: String(pods + index + 1),
      labels: index % 5 === 0 ? { ...pod.metadata.labels, revision: String(index) } : pod.metadata.labels,
    },
    status: {
      ...status,
      phase: index % 2 ? 'Running' : 'Pending',
      containerStatuses: [{ ...status.containerStatuses?.[0], restartCount: restarts }],
    },
  };
}

/** Lists `pods` pods in three namespaces, then updates (and now and then deletes) them at random. */
function writeRecording(file: string): void {
  const database = openForWriting(file, 'test-context', start);
  const writer = new RecordingWriter(database, { fullVersionEvery: 12 });
  const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
  writer.resetStream(stream);
  writer.writeKeyframe(stream, start);
  const random = seededRandom(5);
  const current: (KubeObject | undefined)[] = [];
  let written = 0;
  const write = (object: KubeObject, type: 'Added' | 'Updated' | 'Deleted') => {
    const time = start + written++ * spacing;
    const key = `${object.metadata.namespace}/${object.metadata.name}`;
    writer.writeChange({ time, stream, type, finalStateUnknown: false, object, key });
    if (written % 500 === 0) writer.writeKeyframe(stream, time);
  };
  writer.transaction(() => {
    for (let index = 0; index < pods; index++) {
      const pod = realisticPod(`app${index % 20}-7d9f8c6b5-${index}`, `ns-${index % 3}`);
      pod.metadata.resourceVersion = String(index + 1);
      current.push(pod);
      write(pod, 'Added');
    }
    for (let index = 0; index < updates; index++) {
      const which = random.integer(pods - 1);
      const pod = current[which];
      if (!pod) continue;
      if (random.chance(0.02)) {
        write(pod, 'Deleted');
        current[which] = undefined;
      } else write((current[which] = nextVersion(pod, index)), 'Updated');
    }
  });
  database.close();
}

beforeAll(() => {
  directory = tempDirectory();
  writeRecording(directory.file('source.kubetide'));
  source = openRecording(directory.file('source.kubetide'));
});

afterAll(() => {
  source.close();
  directory.remove();
});

describe('exportRecording of a range starting mid-recording', () => {
  for (const namespaces of [undefined, ['ns-1']]) {
    it(`rewrites more orphans than a chunk and reads like its source (namespaces ${namespaces ?? 'all'})`, () => {
      const from = start + (pods + 1_500) * spacing + spacing / 2;
      const to = start + (pods + 2_100) * spacing;
      const file = directory.file(`export-${namespaces ?? 'all'}.kubetide`);
      const summary = exportRecording(source, file, { from, to, namespaces });
      expect(summary.problems).toEqual([]);
      const exported = openRecording(file);
      try {
        // Whole in the export, not in the source: rewritten, a chunk of them at a time.
        const sourceEncoding = source.database.prepare('SELECT encoding FROM changes WHERE id = ?').pluck();
        const rewritten = (
          exported.database
            .prepare(`SELECT id FROM changes WHERE encoding = ${VersionEncoding.full}`)
            .pluck()
            .all() as number[]
        ).filter((id) => sourceEncoding.get(id) !== VersionEncoding.full);
        expect(rewritten.length).toBeGreaterThan(versionsPerQuery);
        const kept = (state: ReplayState) =>
          state.changes.filter((change) => !namespaces || namespaces.includes(change.namespace));
        for (let time = from; time <= to; time += 97 * spacing) {
          const expected = stateAt(source, { gvr: 'pods.v1', time });
          const changes = kept(expected);
          expect(withoutIds(stateAt(exported, { gvr: 'pods.v1', time })), `at ${time}`).toEqual(
            withoutIds({ ...expected, objects: changes.map((change) => change.object!), changes }),
          );
        }
        const inRange = (change: RecordedChange) => change.time > from && change.time <= to;
        // The objects changed in the range: their histories start at a rewritten version.
        const uids = exported.database
          .prepare(
            `SELECT DISTINCT o.uid FROM objects o JOIN changes c ON c.object = o.id
             WHERE c.time > ? ORDER BY o.id`,
          )
          .pluck()
          .all(from) as string[];
        for (const uid of uids) {
          expect(versionsWithoutIds(objectVersions(exported, { uid }).filter(inRange)), uid).toEqual(
            versionsWithoutIds(objectVersions(source, { uid }).filter(inRange)),
          );
        }
        expect(exported.intact).toBe(true);
      } finally {
        exported.close();
      }
    });
  }
});
