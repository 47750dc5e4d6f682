// Sends a reply's parts (see reply-parts.ts) ahead of the reply, one per task of main's event loop and
// at the pace of the connection (see part-pacing.ts): the messages sent meanwhile (a playback's rows
// and cursor, the live batches) go out between the parts rather than behind them all.
import type { Clock } from '../cache/clock';
import type { EncodedValue } from './encoded-value';
import type { OutgoingMessage } from './outgoing-message';
import { partRoomBytes, roomForPart } from './part-pacing';

export interface ReplyPartSending {
  readonly send: (message: OutgoingMessage) => void;
  /** What the connection holds unsent (absent: a transport that cannot tell, never waited on). */
  readonly bufferedBytes?: (() => number) | undefined;
  readonly clock: Clock;
  /** The question was withdrawn or its connection closed: the parts left are not sent. */
  readonly stopped: () => boolean;
}

/** Sends `parts` of request `requestId`'s reply in order; resolves once the last is sent (or stopped). */
export async function sendReplyParts(
  requestId: number,
  parts: readonly EncodedValue[],
  sending: ReplyPartSending,
): Promise<void> {
  const room = () => (sending.bufferedBytes?.() ?? 0) <= partRoomBytes;
  for (const [index, value] of parts.entries()) {
    await sending.clock.sleep(0);
    await roomForPart(sending.clock, room, sending.stopped);
    if (sending.stopped()) return;
    sending.send({ type: 'replyPart', requestId, index, value });
  }
}
