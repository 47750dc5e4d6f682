// The timeline's density kept in memory (ChangeDensity) answers exactly what eventDensity's query
// answers, as the recording grows, with captures stamped out of order, and after retention.
import { afterEach, describe, expect, it } from 'vitest';
import { ChangeDensity } from '../../../main/history/change-density';
import { openRecording } from '../../../main/history/recording-reader';
import { RecordingWriter } from '../../../main/history/recording-writer';
import { eventDensity } from '../../../main/history/replay';
import { enforceRetention } from '../../../main/history/retention';
import { openForWriting } from '../../../main/history/schema';
import type { TempDirectory } from './fixtures';
import { realisticPod, tempDirectory } from './fixtures';
import { seededRandom } from '../bridge/fixtures';

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

const start = Date.UTC(2026, 11, 1, 12);

describe('ChangeDensity', () => {
  it('answers as eventDensity does while the recording grows and after retention drops its start', () => {
    directory = tempDirectory();
    const file = directory.file('density.kubetide');
    const database = openForWriting(file, 'test', start);
    const writer = new RecordingWriter(database);
    const streams = ['pods.v1', 'configmaps.v1', 'apps.deployments.v1'].map((gvr) => {
      const stream = writer.stream({ gvr, scope: '' });
      writer.resetStream(stream);
      writer.writeKeyframe(stream, start);
      return stream;
    });
    const random = seededRandom(3);
    // Few objects changed often: retention then deletes their superseded versions.
    const pods = Array.from({ length: 20 }, (_, index) => realisticPod(`pod-${index}`, 'default'));
    let time = start;
    let written = 0;
    const write = (count: number) =>
      writer.transaction(() => {
        for (let index = 0; index < count; index++) {
          // Mostly forward, sometimes stamped before the change written just before it.
          time += Math.floor(random() * 40) - 5;
          const which = Math.floor(random() * pods.length);
          const pod = (pods[which] = structuredClone(pods[which]));
          pod.metadata.resourceVersion = String(++written);
          const stream = streams[which % streams.length];
          const key = `default/${pod.metadata.name}`;
          writer.writeChange({ time, stream, type: 'Updated', finalStateUnknown: false, object: pod, key });
        }
      });
    write(400);
    const reader = openRecording(file);
    const density = new ChangeDensity(reader);
    const compare = () => {
      const end = time + 50;
      const spans = [
        { from: start, to: end, buckets: 180 },
        { from: start + 1234, to: end - 777, buckets: 7 },
        { from: start + 50, to: start + 51, buckets: 3 },
        { from: end, to: start, buckets: 10 },
        { from: start - 10_000, to: end + 10_000, buckets: 1 },
      ];
      for (const span of spans) expect(density.density(span)).toEqual(eventDensity(reader, span));
    };
    compare();
    write(300);
    compare();
    const count = () =>
      (database.prepare('SELECT count(*) AS count FROM changes').get() as { count: number }).count;
    const before = count();
    expect(enforceRetention(writer, { maxAgeMs: time - start - 3_000 }, time)).toBeDefined();
    expect(count()).toBeLessThan(before);
    reader.refresh();
    compare();
    write(200);
    compare();
    reader.close();
    database.close();
  });
});
