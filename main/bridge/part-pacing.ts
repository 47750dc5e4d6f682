// The pace of a big message sent in parts (a poll's metrics, a past moment's metrics): a part goes only
// while the connection holds less than about a part's worth unsent. Sent all at once, the parts (8-9
// MB at 150,000 pods) queued ahead of every message sent after them, a playback's rows and cursor
// among them, which then waited up to a second to be deflated and written (ui bench, session 39).
import type { Clock } from '../cache/clock';

/** Unsent bytes on a connection above which the next part waits. */
export const partRoomBytes = 1024 * 1024;
/** How long a waiting part waits before looking at the connection again. */
export const partWaitMs = 5;

/**
 * The longest a part waits: a connection that does not drain (a renderer that stopped reading) holds
 * its own parts and, for a poll's parts sent to every renderer, the others' no longer than this.
 */
export const partWaitMaxMs = 2_000;

/** Resolves once `room()` says the next part may go, `stopped()` that none will, or after partWaitMaxMs. */
export async function roomForPart(clock: Clock, room: () => boolean, stopped: () => boolean): Promise<void> {
  const until = clock.now() + partWaitMaxMs;
  while (!stopped() && !room() && clock.now() < until) await clock.sleep(partWaitMs);
}
