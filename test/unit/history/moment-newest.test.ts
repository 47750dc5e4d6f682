// The recording's newest state a travel from live compares the live rows with (NewestState), kept up
// to date while the recording grows: after every refresh its objects are exactly the members a whole
// read of the newest change gives, through keyframes, a reset and relist (a new session), deletions
// and names re-created; and a refresh with the same newest keyframe decodes no keyframe again, nor
// walks every object held.
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as objectCodec from '../../../main/history/object-codec';
import { NewestState } from '../../../main/history/moment-newest';
import { openRecording } from '../../../main/history/recording-reader';
import { RecordingWriter } from '../../../main/history/recording-writer';
import { openForWriting } from '../../../main/history/schema';
import { membersAt } from '../../../main/history/stream-state';
import type { KubeObject } from '../../../shared/kube/object';
import type { TempDirectory } from './fixtures';
import { realisticPod, seededRandom, tempDirectory } from './fixtures';
import { changeOnePod } from './pod-churn';

vi.mock('../../../main/history/object-codec', { spy: true });

let directory: TempDirectory | undefined;
afterEach(() => {
  directory?.remove();
  vi.clearAllMocks();
});

const start = Date.UTC(2026, 10, 30, 8);

describe('the newest state', () => {
  it('is the members at the newest change after every refresh, decoding a keyframe only when a new one is written', () => {
    directory = tempDirectory();
    const file = directory.file('newest.kubetide');
    const random = seededRandom(3);
    const database = openForWriting(file, 'test-context', start);
    const writer = new RecordingWriter(database);
    const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
    let time = start;
    const live: (KubeObject | undefined)[] = Array.from({ length: 30 }, (_, index) =>
      realisticPod(`app-${index}`, `ns-${index % 3}`),
    );
    const write = (object: KubeObject, type: 'Added' | 'Updated' | 'Deleted') => {
      const key = `${object.metadata.namespace}/${object.metadata.name}`;
      writer.writeChange({ time: ++time, stream, type, finalStateUnknown: false, object, key });
    };
    const relist = () => {
      writer.resetStream(stream);
      writer.writeKeyframe(stream, time);
      writer.beginList(stream);
      for (const pod of live) if (pod) write(pod, 'Added');
      writer.retireUnlisted(stream, time);
    };
    writer.transaction(relist);
    const reader = openRecording(file);
    const newest = new NewestState(reader.streams()[0]);
    let version = 0;
    for (let round = 0; round < 30; round++) {
      const keyframed = round % 7 === 6;
      writer.transaction(() => {
        if (round === 15) relist();
        for (let change = 0; change < 5; change++) {
          changeOnePod(live, random, write, String(++version));
        }
        if (keyframed) writer.writeKeyframe(stream, time);
      });
      vi.mocked(objectCodec.decodeMembers).mockClear();
      // Without a new keyframe, only the objects changed since are read again, not every object held.
      const objects = newest.newest as Map<number, unknown>;
      const walks = [vi.spyOn(objects, 'keys'), vi.spyOn(objects, Symbol.iterator as unknown as 'keys')];
      newest.refresh(reader);
      const walked = walks.some((walk) => walk.mock.calls.length > 0);
      for (const walk of walks) walk.mockRestore();
      // Only a new keyframe (or the reset's) is decoded; the first refresh reads the members whole.
      if (round > 0 && !keyframed && round !== 15) {
        expect(objectCodec.decodeMembers).not.toHaveBeenCalled();
        expect(walked, `round ${round}`).toBe(false);
      }
      const expected = membersAt(reader.database, newest.stream.id, Number.MAX_SAFE_INTEGER).members;
      const held = new Map([...newest.newest].map(([object, entry]) => [object, entry.change]));
      expect(held, `round ${round}`).toEqual(expected);
    }
    reader.close();
    database.close();
  });
});
