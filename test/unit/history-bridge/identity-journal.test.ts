// The live rows' identities as a journal of the batches sent (SentRows, IdentityJournal) read by the
// query worker between travels (LiveListings): at every base taken, the worker's identities are
// exactly the base's rows, whichever batches it had read already; what it read is not sent again; a
// journal the worker cannot follow on from, or one grown past twice its rows, is never misread.
import { describe, expect, it } from 'vitest';
import { IdentityJournal, listJournal } from '../../../main/bridge/identity-journal';
import { SentRows } from '../../../main/bridge/sent-rows';
import type { BaseRows } from '../../../main/bridge/sent-rows';
import { LiveListings, identitiesOf } from '../../../main/history/live-identities';
import type { LiveJournal } from '../../../main/history/query-protocol';
import type { Row } from '../../../shared/protocol/row';
import { seededRandom } from '../history/fixtures';

function row(key: string, uid: string, resourceVersion: string): Row {
  return {
    key,
    uid,
    name: key,
    namespace: '',
    resourceVersion,
    labels: {},
    owners: [],
    createdAt: 0,
    cells: [],
  };
}

/** The base's rows as the worker should hold them: key -> uid and resourceVersion. */
function identitiesOfBase(base: BaseRows): Map<string, { uid: string; resourceVersion: string }> {
  const identities = new Map<string, { uid: string; resourceVersion: string }>();
  for (const key of base.keys()) {
    const { uid, resourceVersion } = base.get(key)!;
    identities.set(key, { uid, resourceVersion });
  }
  return identities;
}

/** What a travel asks the worker against (as MomentSending.openLive does). */
async function asked(base: BaseRows): Promise<LiveJournal> {
  if (base.journal) return base.journal;
  const epoch = base.restartJournal!();
  const listing = await listJournal(
    base,
    () => Promise.resolve(),
    () => true,
  );
  return { epoch, from: 0, batches: [listing!.batch] };
}

describe('the live rows as a journal', () => {
  it('gives the worker exactly the rows of each base, sending only the batches it has not read', async () => {
    const random = seededRandom(11);
    const sent = new SentRows();
    let version = 0;
    const next = (key: string) => row(key, `uid-${key}`, String(++version));
    const keys = Array.from({ length: 300 }, (_, index) => `ns/pod-${index}`);
    // The snapshot in three batches: the first replaces, the last ends it.
    for (let batch = 0; batch < 3; batch++)
      sent.sent({
        upserts: keys.slice(batch * 100, batch * 100 + 100).map(next),
        deletes: [],
        ...(batch === 0 ? { replace: true } : {}),
        ...(batch === 2 ? { snapshotEnd: true } : {}),
      });
    const worker = new LiveListings();
    const live = new Set(keys);
    let lastRead: { epoch: number; at: number } | undefined;
    let created = keys.length;
    for (let travel = 0; travel < 12; travel++) {
      // Churn: versions, deletes, creations, a name re-created with a new uid.
      for (let batch = 0; batch < 1 + random.integer(4); batch++) {
        const upserts: Row[] = [];
        const deletes: string[] = [];
        for (let change = 0; change < 1 + random.integer(30); change++) {
          const pick = [...live][random.integer(live.size)];
          const roll = random.integer(10);
          if (roll === 0 && !upserts.some((upsert) => upsert.key === pick)) {
            if (!deletes.includes(pick)) deletes.push(pick);
            live.delete(pick);
          } else if (roll === 1) {
            const key = `ns/new-${++created}`;
            live.add(key);
            upserts.push(next(key));
          } else if (!deletes.includes(pick)) {
            upserts.push(roll === 2 ? { ...next(pick), uid: `uid-again-${version}` } : next(pick));
          }
        }
        sent.sent({ upserts, deletes });
      }
      const base = sent.base(travel)!;
      const journal = await asked(base);
      // Texts the worker read are not sent again.
      if (lastRead && lastRead.epoch === journal.epoch) expect(journal.from).toBe(lastRead.at);
      const read = worker.apply(journal)!;
      expect(read).toBeDefined();
      expect(new Map(read.identities)).toEqual(identitiesOfBase(base));
      base.release();
      // Most travels' answers come back (the worker read up to there); some are lost (superseded).
      if (random.integer(4) !== 0) {
        base.acknowledgeJournal!(journal.epoch, read.at);
        lastRead = { epoch: journal.epoch, at: read.at };
      }
    }
  });

  it('starts again from a listing when the worker cannot follow on, and when the journal outgrows its rows', async () => {
    const sent = new SentRows();
    const keys = Array.from({ length: 10 }, (_, index) => `ns/pod-${index}`);
    let version = 0;
    sent.sent({
      upserts: keys.map((key) => row(key, `uid-${key}`, String(++version))),
      deletes: [],
      replace: true,
      snapshotEnd: true,
    });
    const first = sent.base(1)!;
    const journal = await asked(first);
    expect(journal.from).toBe(0);
    first.acknowledgeJournal!(journal.epoch, new LiveListings().apply(journal)!.at);
    first.release();
    // Another worker (restarted) never read the start of this epoch: it says so, never guesses.
    sent.sent({ upserts: [row('ns/pod-1', 'uid-ns/pod-1', String(++version))], deletes: [] });
    const second = sent.base(2)!;
    const unread = await asked(second);
    expect(unread.from).toBeGreaterThan(0);
    const restarted = new LiveListings();
    expect(restarted.apply(unread)).toBeUndefined();
    second.dropJournal!(unread.epoch);
    second.release();
    // The next travel lists the rows whole, in a new epoch, and follows on from there.
    const third = sent.base(3)!;
    expect(third.journal).toBeUndefined();
    const listing = await asked(third);
    expect(listing.from).toBe(0);
    expect(listing.epoch).not.toBe(unread.epoch);
    expect(new Map(restarted.apply(listing)!.identities)).toEqual(identitiesOfBase(third));
    third.release();
    // 20,000 lines beyond twice its rows: the journal is dropped, not kept growing.
    for (let batch = 0; batch < 21; batch++)
      sent.sent({
        upserts: keys.flatMap((key) =>
          Array.from({ length: 100 }, () => row(key, `uid-${key}`, String(++version))),
        ),
        deletes: [],
      });
    const fourth = sent.base(4)!;
    expect(fourth.journal).toBeUndefined();
    fourth.release();
  });

  it('drops an epoch at a batch not of triples and reads a deleted key as gone', () => {
    const worker = new LiveListings();
    const journal = new IdentityJournal();
    journal.begin();
    journal.record([row('ns/a', 'u1', '1'), row('ns/b', 'u2', '2')], [], 2);
    journal.record([], ['ns/a'], 1);
    const read = worker.apply(journal.unread()!)!;
    expect([...read.identities]).toEqual([['ns/b', { uid: 'u2', resourceVersion: '2' }]]);
    const unread = journal.unread()!;
    expect(worker.apply({ ...unread, batches: [...unread.batches, ['ns/c', 'u3']] })).toBeUndefined();
    // The epoch is gone: what follows on from it is not read either.
    expect(worker.apply({ ...unread, from: 2, batches: [] })).toBeUndefined();
    expect(identitiesOf('ns/a\tu1\t1\n')).toEqual(new Map([['ns/a', { uid: 'u1', resourceVersion: '1' }]]));
    expect(identitiesOf('ns/a\tu1\t1\t\n')).toBeUndefined();
  });
});
