// A live subscription's snapshot goes out one batch per turn of the event loop (SessionConnection
// streams with BatchStream's oneBatchPerTurn): a page opened while 150,000 pods list is sent the rows
// listed so far without main holding eight batches' encoding in one task. Nothing is lost or
// reordered, and "synced" follows the last of them.
import { afterEach, describe, expect, it } from 'vitest';
import { ClusterSession } from '../../../main/bridge/cluster-session';
import { messageValue } from '../../../main/bridge/outgoing-message';
import type { OutgoingMessage } from '../../../main/bridge/outgoing-message';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { ServerMessage } from '../../../shared/protocol/server-messages';
import { FakeApi, pod } from './fake-api';

const pods = { group: '', version: 'v1', resource: 'pods' };
const sessions: ClusterSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
});

describe('a live subscription, one batch per turn', () => {
  it("sends the feed's rows one batch per turn, each next one in a timer due at once", async () => {
    const clock = new FakeClock();
    const api = new FakeApi();
    const names = ['a', 'b', 'c', 'd', 'e'];
    for (const name of names) api.apply(pod('default', name));
    const session = new ClusterSession({
      context: 'sim',
      clock,
      newListerWatcher: () => api.listerWatcher(),
      batch: { maxBatchRows: 2 },
    });
    sessions.push(session);
    // Another subscriber keeps the feed listed and synced before the renderer subscribes.
    const early = session.attach({ send: () => {} });
    early.subscribe('early', pods);
    for (let step = 0; step < 20 && session.feeds.find(pods, '')?.syncState().phase !== 'synced'; step++)
      await clock.stepAsync(100);
    expect(session.feeds.find(pods, '')?.syncState().phase).toBe('synced');

    const messages: ServerMessage[] = [];
    const connection = session.attach({
      send: (message: OutgoingMessage) => messages.push(messageValue(message) as ServerMessage),
    });
    connection.subscribe('s1', pods);
    const batches = () => messages.filter((message) => message.type === 'batch');
    expect(batches()).toHaveLength(1);
    expect(clock.pendingDelays()).toContain(0);
    clock.step(0);
    expect(batches().map((batch) => [batch.seq, batch.replace, batch.snapshotEnd])).toEqual([
      [1, true, undefined],
      [2, undefined, undefined],
      [3, undefined, true],
    ]);
    expect(batches().flatMap((batch) => batch.upserts.map((row) => row.name))).toEqual(names);
  });
});
