// What main sends a renderer: a ServerMessage, or a DeltaBatch whose upserts are still text (a travel's
// rows, see EncodedRows). A transport that carries text (the WebSocket) writes the rows into the
// message as they are, a TupleBatch as the live stream's batches are (batch-bytes.ts); one that
// carries values (Electron's MessagePort, the in-memory pair) decodes them first. Either way the
// renderer ends with an ordinary DeltaBatch.
import type { DeltaBatch, ServerMessage } from '../../shared/protocol/server-messages';
import type { EncodedRows } from './encoded-rows';
import type { Row } from '../../shared/protocol/row';
import { decodeRows } from './encoded-rows';

export interface EncodedDeltaBatch extends Omit<DeltaBatch, 'upserts'> {
  readonly upserts: EncodedRows;
}

export type OutgoingBatch = DeltaBatch | EncodedDeltaBatch;
export type OutgoingMessage = ServerMessage | EncodedDeltaBatch;

function isEncoded(message: OutgoingMessage): message is EncodedDeltaBatch {
  return message.type === 'batch' && !Array.isArray(message.upserts);
}

/** The rows a batch carries, however they are held. */
export function upsertCount(batch: OutgoingBatch): number {
  return upsertCountOf(batch.upserts);
}

/** How many rows `upserts` holds, however they are held. */
export function upsertCountOf(upserts: readonly Row[] | EncodedRows): number {
  return 'json' in upserts ? upserts.keys.length : upserts.length;
}

/** `message` as the JSON text of the ServerMessage it stands for. */
export function messageText(message: OutgoingMessage): string {
  if (!isEncoded(message)) return JSON.stringify(message);
  const { upserts, ...envelope } = message;
  // The envelope's JSON always has members (type, subscriptionId, seq...): the rows join them, their
  // tuples last (see TupleBatch).
  const text = JSON.stringify(envelope);
  return `${text.slice(0, -1)},"rowLayout":${JSON.stringify(upserts.layout)},"tuples":${upserts.json}}`;
}

/** `message` as the ServerMessage it stands for. */
export function messageValue(message: OutgoingMessage): ServerMessage {
  if (!isEncoded(message)) return message;
  return { ...message, upserts: decodeRows(message.upserts) };
}
