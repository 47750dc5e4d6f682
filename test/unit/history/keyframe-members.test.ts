// The members at a moment read over a kept keyframe (KeyframeMembers): at every moment, through
// keyframes, deletions, names re-created and a reset, exactly what membersAt reads; and a keyframe
// read again is not decoded again.
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as objectCodec from '../../../main/history/object-codec';
import * as memberColumns from '../../../main/history/member-columns';
import { KeyframeMembers } from '../../../main/history/keyframe-members';
import { openRecording } from '../../../main/history/recording-reader';
import { RecordingWriter } from '../../../main/history/recording-writer';
import { openForWriting } from '../../../main/history/schema';
import { membersAt } from '../../../main/history/stream-state';
import type { KubeObject } from '../../../shared/kube/object';
import type { TempDirectory } from './fixtures';
import { realisticPod, seededRandom, tempDirectory } from './fixtures';
import { changeOnePod } from './pod-churn';

vi.mock('../../../main/history/object-codec', { spy: true });
vi.mock('../../../main/history/member-columns', { spy: true });

let directory: TempDirectory | undefined;
afterEach(() => {
  directory?.remove();
  vi.clearAllMocks();
});

const start = Date.UTC(2026, 10, 30, 8);

describe('the members at a moment over a kept keyframe', () => {
  it('are those membersAt reads, each keyframe decoded once', () => {
    directory = tempDirectory();
    const file = directory.file('members.kubetide');
    const random = seededRandom(9);
    const database = openForWriting(file, 'test-context', start);
    const writer = new RecordingWriter(database);
    const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
    let time = start;
    const times: number[] = [];
    const live: (KubeObject | undefined)[] = Array.from({ length: 40 }, (_, index) =>
      realisticPod(`app-${index}`, `ns-${index % 3}`),
    );
    const write = (object: KubeObject, type: 'Added' | 'Updated' | 'Deleted') => {
      times.push(++time);
      const key = `${object.metadata.namespace}/${object.metadata.name}`;
      writer.writeChange({ time, stream, type, finalStateUnknown: false, object, key });
    };
    const relist = () => {
      writer.resetStream(stream);
      writer.writeKeyframe(stream, time);
      writer.beginList(stream);
      for (const pod of live) if (pod) write(pod, 'Added');
      writer.retireUnlisted(stream, time);
    };
    writer.transaction(relist);
    for (let step = 0; step < 300; step++)
      writer.transaction(() => {
        if (step === 150) {
          live[3] = undefined;
          relist();
        }
        changeOnePod(live, random, write, String(step));
        if (step % 40 === 39) writer.writeKeyframe(stream, time);
      });
    const reader = openRecording(file);
    const readerStream = reader.streams()[0];
    const keyframes = new KeyframeMembers();
    const moments = [start - 1, ...times.filter((_, index) => index % 7 === 0), time + 5];
    const decodes = () => vi.mocked(memberColumns.decodeMemberColumns).mock.calls.length;
    const keyframeCount = reader.database.prepare('SELECT count(*) FROM keyframes').pluck().get() as number;
    for (const round of [0, 1]) {
      let decoded = 0;
      for (const moment of moments) {
        const before = decodes();
        const members = keyframes.membersAt(reader, readerStream, moment);
        decoded += decodes() - before;
        const expected = membersAt(reader.database, readerStream.id, moment).members;
        const visited = new Map<number, number>();
        members.forEach((change, object) => visited.set(object, change));
        expect(visited, `moment ${moment}`).toEqual(expected);
        expect(members.size).toBe(expected.size);
        for (let object = 0; object < 120; object++) expect(members.get(object)).toBe(expected.get(object));
      }
      // Moments in order: each keyframe decoded once a round (three kept: not the next round's first).
      expect(decoded, `round ${round}`).toBeLessThanOrEqual(keyframeCount);
      expect(decoded).toBeLessThan(moments.length / 3);
    }
    // Warmed, a fresh one decodes the newest two keyframes ahead, and the moments after them none.
    const warmed = new KeyframeMembers();
    warmed.warm(reader, readerStream);
    const beforeWarmed = decodes();
    for (const moment of times.slice(-50)) warmed.membersAt(reader, readerStream, moment);
    expect(decodes()).toBe(beforeWarmed);
    // The last three keyframes, read again, are not decoded again.
    vi.mocked(memberColumns.decodeMemberColumns).mockClear();
    keyframes.membersAt(reader, readerStream, time + 5);
    keyframes.membersAt(reader, readerStream, times[times.length - 45]);
    expect(memberColumns.decodeMemberColumns).not.toHaveBeenCalled();
    // A keyframe is read into sorted columns, never into a Map of its members.
    vi.mocked(objectCodec.decodeMembers).mockClear();
    new KeyframeMembers().membersAt(reader, readerStream, time + 5);
    expect(memberColumns.decodeMemberColumns).toHaveBeenCalledTimes(1);
    expect(objectCodec.decodeMembers).not.toHaveBeenCalled();
    expect(reader.problems).toEqual([]);
    reader.close();
    database.close();
  });
});
