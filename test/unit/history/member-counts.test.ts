// The sidebar's counts of streams at a moment (MemberCounts): at every moment, forwards, backwards
// and at random, through keyframes, deletions, names re-created and a relist, exactly the size of
// what membersAt reads, and nothing before a stream was recorded; moving forwards, each stream's
// changes read once, and each keyframe decoded once.
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as memberColumns from '../../../main/history/member-columns';
import { MemberCounts } from '../../../main/history/member-counts';
import { openRecording } from '../../../main/history/recording-reader';
import type { RecordingReader } from '../../../main/history/recording-reader';
import { RecordingWriter } from '../../../main/history/recording-writer';
import { openForWriting } from '../../../main/history/schema';
import { membersAt } from '../../../main/history/stream-state';
import type { KubeObject } from '../../../shared/kube/object';
import type { TempDirectory } from './fixtures';
import { realisticPod, seededRandom, tempDirectory } from './fixtures';
import { changeOnePod } from './pod-churn';

vi.mock('../../../main/history/member-columns', { spy: true });

let directory: TempDirectory | undefined;
afterEach(() => {
  directory?.remove();
  vi.clearAllMocks();
});

const start = Date.UTC(2026, 11, 5, 8);

/**
 * A recording of two streams (pods, and pods again as another kind), 40 objects each listed, relisted
 * once (one gone), changed 300 times in turn, a keyframe of each every 40 steps.
 */
function churnedRecording(file: string): { times: number[]; end: number } {
  const random = seededRandom(13);
  const database = openForWriting(file, 'test-context', start);
  const writer = new RecordingWriter(database);
  const streams = [
    writer.stream({ gvr: 'pods.v1', scope: '' }),
    writer.stream({ gvr: 'configmaps.v1', scope: '' }),
  ];
  let time = start;
  const times: number[] = [];
  const lives: (KubeObject | undefined)[][] = streams.map(() =>
    Array.from({ length: 40 }, (_, index) => realisticPod(`app-${index}`, `ns-${index % 3}`)),
  );
  const writeTo = (stream: number) => (object: KubeObject, type: 'Added' | 'Updated' | 'Deleted') => {
    times.push(++time);
    const key = `${object.metadata.namespace}/${object.metadata.name}`;
    writer.writeChange({ time, stream, type, finalStateUnknown: false, object, key });
  };
  const relist = (which: number) => {
    const stream = streams[which];
    writer.resetStream(stream);
    writer.writeKeyframe(stream, time);
    writer.beginList(stream);
    for (const pod of lives[which]) if (pod) writeTo(stream)(pod, 'Added');
    writer.retireUnlisted(stream, time);
  };
  // Nothing recorded before a second's changes: a moment then has no count.
  time += 1_000;
  writer.transaction(() => relist(0));
  for (let step = 0; step < 300; step++)
    writer.transaction(() => {
      // The second kind is recorded from step 20 on.
      if (step === 20) relist(1);
      if (step === 150) {
        lives[0][3] = undefined;
        relist(0);
      }
      const which = step >= 20 ? step % 2 : 0;
      changeOnePod(lives[which], random, writeTo(streams[which]), String(step));
      if (step % 40 === 39) for (const stream of streams) writer.writeKeyframe(stream, time);
    });
  database.close();
  return { times, end: time };
}

/** Each stream's count at `moment`, as the sidebar asks them: all at once. */
function countsOf(counts: MemberCounts, reader: RecordingReader, moment: number): (number | undefined)[] {
  const streams = reader.streams();
  const read = counts.countsAt(reader, streams, moment);
  return streams.map((stream) => read.get(stream.id));
}

describe("the streams' counts at a moment", () => {
  it('are the sizes of what membersAt reads, in any order of moments', () => {
    directory = tempDirectory();
    const file = directory.file('counts.kubetide');
    const { times, end } = churnedRecording(file);
    const reader = openRecording(file);
    const expected = (moment: number) =>
      reader.streams().map((stream) => {
        const read = membersAt(reader.database, stream.id, moment);
        return read.keyframeTime === undefined && read.members.size === 0 ? undefined : read.members.size;
      });
    const forwards = [start, ...times.filter((_, index) => index % 5 === 0), end + 5];
    const random = seededRandom(21);
    const shuffled = [...forwards].sort(() => random() - 0.5);
    for (const moments of [forwards, [...forwards].reverse(), shuffled]) {
      const counts = new MemberCounts();
      for (const moment of moments)
        expect(countsOf(counts, reader, moment), `moment ${moment}`).toEqual(expected(moment));
    }
    // Before anything was recorded, and before the second kind was: no count, not a zero.
    expect(countsOf(new MemberCounts(), reader, start)).toEqual([undefined, undefined]);
    expect(countsOf(new MemberCounts(), reader, times[45])[1]).toBeUndefined();
    expect(reader.problems).toEqual([]);
    reader.close();
  });

  it("read each stream's changes once, from the moment counted last, moving forwards", () => {
    directory = tempDirectory();
    const file = directory.file('forwards.kubetide');
    const { times } = churnedRecording(file);
    const reader = openRecording(file);
    const keyframes = reader.database.prepare('SELECT count(*) FROM keyframes').pluck().get() as number;
    const walks: [number, number, number][] = [];
    const prepare = reader.database.prepare.bind(reader.database);
    vi.spyOn(reader.database, 'prepare').mockImplementation((sql: string) => {
      const statement = prepare(sql);
      if (!sql.includes('FROM changes WHERE id > ?')) return statement;
      const iterate = statement.iterate.bind(statement);
      return Object.assign(statement, {
        iterate: (...range: unknown[]) => {
          walks.push(range as [number, number, number]);
          return iterate(...range);
        },
      });
    });
    const counts = new MemberCounts();
    const moments = times.slice(80);
    vi.mocked(memberColumns.decodeMemberColumns).mockClear();
    for (const moment of moments) countsOf(counts, reader, moment);
    expect(vi.mocked(memberColumns.decodeMemberColumns).mock.calls.length).toBeLessThanOrEqual(keyframes);
    // Each stream's walks start where its last one stopped (or at a later keyframe): no change of a
    // stream is read twice, where counting each moment afresh read the changes since the keyframe.
    const streams = reader.streams().map((stream) => stream.id);
    const last = prepare('SELECT max(id) FROM changes').pluck().get() as number;
    for (const stream of streams) {
      const own = walks.filter((walk) => walk[2] === stream);
      for (let index = 1; index < own.length; index++)
        expect(own[index][0]).toBeGreaterThanOrEqual(own[index - 1][1]);
      expect(own.reduce((read, [from, through]) => read + through - from, 0)).toBeLessThanOrEqual(last);
    }
    reader.close();
  });
});
