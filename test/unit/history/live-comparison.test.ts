// The keys a travel from live compares, kept between travels (LiveComparison, with the live rows'
// journal in LiveListings): while the recording grows and the live rows change batch by batch (with
// versions the recording lacks and keys it never knew), each travel ends exactly at its moment, a
// moment asked against one sent from live too, and a travel after the first reads no unchanged live
// row's identity (the worker walked every live row at every travel), nor any travel every member at
// its moment (only the objects changed since).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeRows, joinedRows } from '../../../main/bridge/encoded-rows';
import { RowProjector } from '../../../main/bridge/row-projection';
import { MomentMembers } from '../../../main/history/keyframe-members';
import { LiveListings } from '../../../main/history/live-identities';
import type { AppliedListing } from '../../../main/history/live-identities';
import { MomentRows } from '../../../main/history/moment-rows';
import { openRecording } from '../../../main/history/recording-reader';
import type { RecordingReader } from '../../../main/history/recording-reader';
import { RecordingWriter } from '../../../main/history/recording-writer';
import { openForWriting } from '../../../main/history/schema';
import { stateAt } from '../../../main/history/state-at';
import type { StateQuery } from '../../../main/history/state-at';
import { deletedUid } from '../../../main/history/query-protocol';
import { printerFor } from '../../../shared/kinds/columns';
import type { KubeObject } from '../../../shared/kube/object';
import type { Row } from '../../../shared/protocol/row';
import type { TempDirectory } from './fixtures';
import { realisticPod, seededRandom, tempDirectory } from './fixtures';
import { changeOnePod } from './pod-churn';

let directory: TempDirectory | undefined;
afterEach(() => {
  directory?.remove();
  vi.restoreAllMocks();
});

const start = Date.UTC(2026, 10, 30, 8);
const now = start + 86_400_000;
const projector = new RowProjector(printerFor({ group: '', resource: 'pods' }));
const pods = 300;

function rebuilt(reader: RecordingReader, query: StateQuery): Row[] {
  return stateAt(reader, query).objects.map((object) => projector.project(object, now));
}

const byKey = (rows: Iterable<Row>) => [...rows].sort((a, b) => (a.key < b.key ? -1 : 1));

/** A journal batch that makes `identities` `rows` (the triples of what changed, deletes first). */
function batchOf(before: ReadonlyMap<string, Row>, rows: ReadonlyMap<string, Row>): string[] {
  const batch: string[] = [];
  for (const key of before.keys()) if (!rows.has(key)) batch.push(key, deletedUid, '');
  for (const [key, row] of rows) {
    const was = before.get(key);
    if (was?.uid !== row.uid || was.resourceVersion !== row.resourceVersion)
      batch.push(key, row.uid, row.resourceVersion);
  }
  return batch;
}

describe('the keys a travel from live compares', () => {
  it('are kept between travels: exact moments, and no unchanged live row read after the first', () => {
    directory = tempDirectory();
    const file = directory.file('compared.kubetide');
    const random = seededRandom(21);
    const database = openForWriting(file, 'test-context', start);
    const writer = new RecordingWriter(database, { rowFrames: { everyObjects: 40, intervalMs: 600_000 } });
    const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
    let time = start;
    let step = 0;
    const times: number[] = [];
    const live: (KubeObject | undefined)[] = [];
    const write = (object: KubeObject, type: 'Added' | 'Updated' | 'Deleted') => {
      times.push((time += 1 + random.integer(20)));
      const key = `${object.metadata.namespace}/${object.metadata.name}`;
      writer.writeChange({ time, stream, type, finalStateUnknown: false, object, key });
    };
    writer.transaction(() => {
      writer.resetStream(stream);
      writer.writeKeyframe(stream, time);
      for (let index = 0; index < pods; index++)
        write((live[index] = realisticPod(`app-${index}`, `ns-${index % 3}`)), 'Added');
    });
    const churn = (changes: number) => {
      for (let change = 0; change < changes; change++, step++)
        writer.transaction(() => {
          changeOnePod(live, random, write, String(1_000_000 + step), 20);
          if (step % 50 === 49) writer.writeKeyframe(stream, time);
          writer.writeRowFramesDue(time);
        });
    };
    churn(200);
    const reader = openRecording(file);
    const moments = new MomentRows();
    for (const _ of moments.warming(reader));
    const listings = new LiveListings();
    const epoch = 1;
    let at = 0;
    let liveRows = new Map<string, Row>();
    /** The live rows become `rows` (a batch of the journal), read by the worker at the next travel. */
    const pending: string[][] = [];
    const liveBecome = (rows: Map<string, Row>) => {
      pending.push(batchOf(liveRows, rows));
      liveRows = rows;
    };
    const applied = (): AppliedListing => {
      const listing = listings.apply({ epoch, from: at, batches: pending.splice(0) })!;
      at = listing.at;
      return listing;
    };
    /** The renderer's rows after a moment `sent` and `deleted` (its base: `base`). */
    const after = (base: ReadonlyMap<string, Row>, sent: Row[], deleted: string[]) => {
      const rows = new Map(base);
      for (const key of deleted) expect(rows.delete(key), key).toBe(true);
      for (const row of sent) rows.set(row.key, row);
      return rows;
    };
    let identitiesRead = 0;
    for (let travel = 0; travel < 6; travel++) {
      const newest = rebuilt(reader, { gvr: 'pods.v1', time: times[times.length - 1] });
      const rows = new Map(newest.map((row) => [row.key, row]));
      if (travel % 2 === 1) {
        // Versions the recording lacks (not committed yet, missed), a key it never knew, a row missing.
        const [first, second, third] = rows.values();
        rows.set('ns-0/never-recorded', { ...first, key: 'ns-0/never-recorded', uid: 'uid-ghost' });
        rows.set(first.key, { ...first, resourceVersion: `${first.resourceVersion}0` });
        rows.set(third.key, { ...third, uid: 'uid-reborn' });
        rows.delete(second.key);
      }
      liveBecome(rows);
      const listing = applied();
      // What the worker reads of the live identities: a key at a time, never all of them.
      const identities = listing.identities as Map<string, unknown>;
      const got = vi.spyOn(identities, 'get');
      const walks = (['keys', 'entries', 'values', 'forEach', Symbol.iterator] as const).map((name) =>
        vi.spyOn(identities, name as 'keys'),
      );
      // Nor every member at the moment: only the objects changed since (no reset came between).
      const membersWalked = vi.spyOn(MomentMembers.prototype, 'forEach');
      const query = { gvr: 'pods.v1', time: times[times.length - 1 - random.integer(30)] };
      const moment = moments.moment(reader, query, now, undefined, listing);
      expect(membersWalked).not.toHaveBeenCalled();
      const sent = decodeRows(joinedRows([...moment.chunks]));
      expect(moment.againstLive).toBe(true);
      const reached = after(liveRows, sent, moment.ended().deletes);
      expect(byKey(reached.values()), `travel ${travel}`).toEqual(rebuilt(reader, query));
      expect(moment.ended().rows).toBe(reached.size);
      if (travel > 0) {
        for (const walk of walks) expect(walk).not.toHaveBeenCalled();
        identitiesRead += got.mock.calls.length;
      }
      vi.restoreAllMocks();
      // A moment asked against this one (the renderer holds it now): only what differs crosses.
      const next = { gvr: 'pods.v1', time: times[times.length - 1 - random.integer(60)] };
      const againstIt = moments.moment(reader, next, now, moment.id);
      expect(againstIt.against).toBe(moment.id);
      const nextSent = decodeRows(joinedRows([...againstIt.chunks]));
      const nextRows = after(reached, nextSent, againstIt.ended().deletes);
      expect(byKey(nextRows.values()), `against travel ${travel}`).toEqual(rebuilt(reader, next));
      // The page goes back to live; the recording and the live rows go on changing.
      churn(20 + random.integer(40));
    }
    // Each travel after the first read the identities of what changed, not of the 300 live rows.
    expect(identitiesRead).toBeLessThan(5 * pods * 0.5);
    expect(reader.problems).toEqual([]);
    reader.close();
    database.close();
  });

  it('compares every member when a reset came after the moment (it drops objects without a change)', () => {
    directory = tempDirectory();
    const file = directory.file('reset.kubetide');
    const database = openForWriting(file, 'test-context', start);
    const writer = new RecordingWriter(database, { rowFrames: { everyObjects: 40, intervalMs: 600_000 } });
    const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
    let time = start;
    const live: (KubeObject | undefined)[] = [];
    const write = (object: KubeObject, type: 'Added' | 'Updated') => {
      const key = `${object.metadata.namespace}/${object.metadata.name}`;
      writer.writeChange({ time: ++time, stream, type, finalStateUnknown: false, object, key });
    };
    const session = () =>
      writer.transaction(() => {
        writer.resetStream(stream);
        writer.writeKeyframe(stream, time);
        writer.beginList(stream);
        for (const pod of live) if (pod) write(pod, 'Added');
        writer.retireUnlisted(stream, time);
        writer.writeRowFramesDue(time);
      });
    for (let index = 0; index < 100; index++) live.push(realisticPod(`app-${index}`, `ns-${index % 3}`));
    session();
    const moment = ++time;
    // A new session whose list misses a pod (deleted while nothing recorded): no change says so.
    live[7] = undefined;
    time += 10;
    session();
    const reader = openRecording(file);
    const moments = new MomentRows();
    for (const _ of moments.warming(reader));
    const liveRows = new Map(rebuilt(reader, { gvr: 'pods.v1', time }).map((row) => [row.key, row]));
    const listing = [...liveRows.values()].map((row) => `${row.key}\t${row.uid}\t${row.resourceVersion}\n`);
    const query = { gvr: 'pods.v1', time: moment };
    const travelled = moments.moment(reader, query, now, undefined, listing.join(''));
    const sent = decodeRows(joinedRows([...travelled.chunks]));
    expect(travelled.againstLive).toBe(true);
    const rows = new Map(liveRows);
    for (const key of travelled.ended().deletes) rows.delete(key);
    for (const row of sent) rows.set(row.key, row);
    expect(byKey(rows.values())).toEqual(rebuilt(reader, query));
    expect(rows.has('ns-1/app-7')).toBe(true);
    reader.close();
    database.close();
  });
});
