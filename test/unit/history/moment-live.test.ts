// A travel from live (liveMoment, through MomentRows): the live rows plus what the worker sends and
// deletes equal the full rebuild of the moment, exactly, while the recording grows between travels
// (the newest state kept in the worker is read again: changes, a new session's reset and relist, names
// re-created with a new uid), and whatever the live rows hold that the recording does not: versions it
// has not committed yet, a key it never knew, a version it missed, a row missing.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeRows, joinedRows } from '../../../main/bridge/encoded-rows';
import { RowProjector } from '../../../main/bridge/row-projection';
import { NewestState } from '../../../main/history/moment-newest';
import { MomentRows } from '../../../main/history/moment-rows';
import type { RecordingReader } from '../../../main/history/recording-reader';
import { openRecording } from '../../../main/history/recording-reader';
import { RecordingWriter } from '../../../main/history/recording-writer';
import { TupleRowFrame } from '../../../main/history/tuple-row-frame';
import { VersionDecoder } from '../../../main/history/version-decoder';
import { openForWriting } from '../../../main/history/schema';
import { stateAt } from '../../../main/history/state-at';
import type { StateQuery } from '../../../main/history/state-at';
import { printerFor } from '../../../shared/kinds/columns';
import type { KubeObject } from '../../../shared/kube/object';
import type { Row } from '../../../shared/protocol/row';
import type { TempDirectory } from './fixtures';
import { realisticPod, seededRandom, tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => {
  directory?.remove();
  vi.restoreAllMocks();
});

const start = Date.UTC(2026, 10, 30, 8);
const now = start + 86_400_000;
const projector = new RowProjector(printerFor({ group: '', resource: 'pods' }));
const pods = 40;

function changed(pod: KubeObject, step: number): KubeObject {
  return {
    ...pod,
    metadata: { ...pod.metadata, resourceVersion: String(1_000_000 + step) },
    status: { ...(pod.status as object), phase: step % 3 ? 'Running' : 'Pending' },
  };
}

/** A recorder's session over the pods `live` holds (undefined: gone): a relist, then churn. */
function writeSession(
  file: string,
  live: (KubeObject | undefined)[],
  clock: { time: number; step: number },
  steps: number,
  random: ReturnType<typeof seededRandom>,
  everyObjects = 6,
): number[] {
  const database = openForWriting(file, 'test-context', start);
  const writer = new RecordingWriter(database, { rowFrames: { everyObjects, intervalMs: 600_000 } });
  const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
  const times: number[] = [];
  const write = (object: KubeObject, type: 'Added' | 'Updated' | 'Deleted') => {
    clock.time += 1 + random.integer(40);
    times.push(clock.time);
    const key = `${object.metadata.namespace}/${object.metadata.name}`;
    writer.writeChange({ time: clock.time, stream, type, finalStateUnknown: false, object, key });
  };
  writer.resetStream(stream);
  writer.writeKeyframe(stream, clock.time);
  writer.beginList(stream);
  for (const pod of live) if (pod) write(pod, 'Added');
  writer.retireUnlisted(stream, clock.time);
  for (let step = 0; step < steps; step++, clock.step++) {
    writer.transaction(() => {
      const which = random.integer(live.length);
      const pod = live[which];
      const roll = random.integer(100);
      if (pod === undefined) {
        write((live[which] = realisticPod(`app-${which}`, `ns-${which % 3}`)), 'Added');
      } else if (roll < 5) {
        write(pod, 'Deleted');
        live[which] = undefined;
      } else if (roll < 10) {
        // The name comes back with a new uid; the old object stays until the next relist retires it.
        write((live[which] = realisticPod(pod.metadata.name!, pod.metadata.namespace)), 'Added');
      } else write((live[which] = changed(pod, clock.step)), 'Updated');
      if (step % 60 === 59) writer.writeKeyframe(stream, clock.time);
      writer.writeRowFramesDue(clock.time);
    });
  }
  database.close();
  return times;
}

function rebuilt(reader: RecordingReader, query: StateQuery): Row[] {
  return stateAt(reader, query).objects.map((object) => projector.project(object, now));
}

/**
 * Travels from `liveRows` to `query`'s moment and checks that the live rows, with the rows sent and
 * the keys deleted, are exactly the moment; returns the rows sent and the moment's size.
 */
function travel(
  moments: MomentRows,
  reader: RecordingReader,
  query: StateQuery,
  liveRows: ReadonlyMap<string, Row>,
): { sent: number; rows: number } {
  const listing = [...liveRows.values()]
    .map((row) => `${row.key}\t${row.uid}\t${row.resourceVersion}\n`)
    .join('');
  // What a travel from live reads of the moment is what differs: a frame's row is read only to be
  // sent (the moment's whole frame chain was walked once, every row's identity made to compare it).
  const textsRead = vi.spyOn(TupleRowFrame.prototype, 'text');
  const moment = moments.moment(reader, query, now, undefined, listing);
  const sent = decodeRows(joinedRows([...moment.chunks]));
  const ended = moment.ended();
  const expected = rebuilt(reader, query);
  const rows = new Map(liveRows);
  if (moment.againstLive) {
    expect(textsRead.mock.calls.length).toBeLessThanOrEqual(sent.length);
    for (const key of ended.deletes) expect(rows.delete(key), key).toBe(true);
    expect(moment.unchanged + sent.length).toBe(ended.rows);
  } else rows.clear();
  for (const row of sent) rows.set(row.key, row);
  vi.restoreAllMocks();
  expect(ended.rows).toBe(expected.length);
  expect(moment.total).toBe(expected.length);
  expect(
    [...rows.values()].sort((a, b) => (a.key < b.key ? -1 : 1)),
    `moment ${query.time}`,
  ).toEqual(expected);
  return moment.againstLive ? { sent: sent.length, rows: expected.length } : { sent: 0, rows: 0 };
}

describe('a travel from live', () => {
  it('ends exactly at the moment while the recording grows, resets and misses versions', () => {
    directory = tempDirectory();
    const file = directory.file('live.kubetide');
    const random = seededRandom(5);
    const live: (KubeObject | undefined)[] = [];
    for (let index = 0; index < pods; index++) live.push(realisticPod(`app-${index}`, `ns-${index % 3}`));
    const clock = { time: start, step: 0 };
    const times = writeSession(file, live, clock, 150, random);
    const reader = openRecording(file);
    const moments = new MomentRows();
    // Decoded ahead as a worker does while nothing is asked: the newest state is read then.
    for (const _ of moments.warming(reader));
    let sent = 0;
    let rows = 0;
    for (let round = 0; round < 4; round++) {
      const newest = times[times.length - 1];
      const liveRows = new Map(
        rebuilt(reader, { gvr: 'pods.v1', time: newest }).map((row) => [row.key, row]),
      );
      if (round % 2 === 1) {
        // Versions the recording missed or has not committed, a key it never knew, a row missing.
        const [first, second, third] = liveRows.values();
        liveRows.set('ns-0/never-recorded', { ...first, key: 'ns-0/never-recorded', uid: 'uid-ghost' });
        liveRows.set(first.key, { ...first, resourceVersion: `${first.resourceVersion}0` });
        liveRows.set(third.key, { ...third, uid: 'uid-reborn' });
        liveRows.delete(second.key);
      }
      for (let travelled = 0; travelled < 12; travelled++) {
        const time = times[times.length - 1 - random.integer(Math.min(times.length, 25))];
        const namespace = travelled % 5 === 4 ? 'ns-1' : undefined;
        const scoped = namespace
          ? new Map([...liveRows].filter(([key]) => key.startsWith(`${namespace}/`)))
          : liveRows;
        const result = travel(
          moments,
          reader,
          { gvr: 'pods.v1', time, ...(namespace ? { namespace } : {}) },
          scoped,
        );
        sent += result.sent;
        rows += result.rows;
      }
      // The recorder goes on: a new session (a reset, and a relist that misses a few pods), then churn.
      if (round % 2 === 0) live[random.integer(pods)] = undefined;
      times.push(...writeSession(file, live, clock, 60, random));
    }
    // Moments were sent against the live rows, and mostly the rows that differ crossed.
    expect(rows).toBeGreaterThan(500);
    expect(sent).toBeLessThan(rows / 2);
    expect(reader.problems).toEqual([]);
    reader.close();
  });

  it("takes the rows changed after the moment's last frame from the frames after it, not their versions", () => {
    directory = tempDirectory();
    const file = directory.file('live.kubetide');
    const random = seededRandom(8);
    const live: (KubeObject | undefined)[] = [];
    for (let index = 0; index < 600; index++) live.push(realisticPod(`app-${index}`, `ns-${index % 3}`));
    const clock = { time: start, step: 0 };
    // A frame every 250 objects changed: up to 250 rows of a moment are newer than its last frame.
    const times = writeSession(file, live, clock, 1_200, random, 250);
    const reader = openRecording(file);
    const moments = new MomentRows();
    for (const _ of moments.warming(reader));
    const frameEnds = reader.database
      .prepare('SELECT time FROM changes WHERE id IN (SELECT last_change FROM row_frames) ORDER BY id')
      .pluck()
      .all() as number[];
    // Just before the second newest frame: its 200-odd rows are newer than the moment's last frame.
    const time = frameEnds[frameEnds.length - 2] - 1;
    const newest = times[times.length - 1];
    const liveRows = new Map(rebuilt(reader, { gvr: 'pods.v1', time: newest }).map((row) => [row.key, row]));
    const decoded = vi.spyOn(VersionDecoder.prototype, 'tree');
    const { sent } = travel(moments, reader, { gvr: 'pods.v1', time }, liveRows);
    // Rows changed since the moment and rows the frames after it hold were sent, none decoded.
    expect(sent).toBeGreaterThan(100);
    expect(decoded.mock.calls.length).toBeLessThan(20);
    expect(reader.problems).toEqual([]);
    reader.close();
  });

  it('reads nothing of the newest state for a moment much smaller than the live rows, and sends it whole', () => {
    directory = tempDirectory();
    const file = directory.file('live.kubetide');
    const random = seededRandom(11);
    const live: (KubeObject | undefined)[] = [];
    for (let index = 0; index < 300; index++) live.push(realisticPod(`app-${index}`, `ns-${index % 3}`));
    const clock = { time: start, step: 0 };
    const times = writeSession(file, live, clock, 100, random);
    const reader = openRecording(file);
    const moments = new MomentRows();
    for (const _ of moments.warming(reader));
    // The recorder goes on after the worker read the newest state: a travel from live would read it
    // again (every change since, the members whole at a new keyframe).
    times.push(...writeSession(file, live, clock, 100, random));
    const newest = times[times.length - 1];
    const liveRows = new Map(rebuilt(reader, { gvr: 'pods.v1', time: newest }).map((row) => [row.key, row]));
    // 30 pods into the first list: a tenth of the live rows.
    const refreshed = vi.spyOn(NewestState.prototype, 'refresh');
    const listing = [...liveRows.values()]
      .map((row) => `${row.key}\t${row.uid}\t${row.resourceVersion}\n`)
      .join('');
    const moment = moments.moment(reader, { gvr: 'pods.v1', time: times[29] }, now, undefined, listing);
    expect(moment.againstLive).toBe(false);
    expect(moment.total).toBe(30);
    expect(refreshed).not.toHaveBeenCalled();
    const sent = decodeRows(joinedRows([...moment.chunks]));
    expect(sent).toEqual(rebuilt(reader, { gvr: 'pods.v1', time: times[29] }));
    expect(reader.problems).toEqual([]);
    reader.close();
  });
});
