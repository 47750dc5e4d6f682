// The page's side of a replay test on a fake clock: what main's streams sent reaches the renderer's
// store in order, and a reply is waited out while the clock steps (the worker's reads and the
// streams' sends run on that clock's timers).
import type { FakeClock } from '../../../main/cache/fake-clock';
import { messageValue } from '../../../main/bridge/outgoing-message';
import type { OutgoingMessage } from '../../../main/bridge/outgoing-message';
import type { MirrorStore } from '../../../renderer/store/mirror-store';
import type { DeltaBatch } from '../../../shared/protocol/server-messages';

export function pageLink(clock: FakeClock, store: MirrorStore, link: OutgoingMessage[]) {
  /** Applies every message sent so far (the store acknowledges each batch as it applies it). */
  const deliver = () => {
    for (const message of link.splice(0)) store.receive(messageValue(message) as DeltaBatch);
    store.applyQueued();
  };
  /** Steps the clock until `reply` settles, then lets the streams send (and the page apply) the rest. */
  const settle = async (reply: Promise<unknown>) => {
    let settled = false;
    void reply.finally(() => (settled = true));
    while (!settled) {
      clock.step(1);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await reply;
    for (let round = 0; round < 50; round++) {
      deliver();
      clock.step(100);
    }
    deliver();
  };
  return { deliver, settle };
}
