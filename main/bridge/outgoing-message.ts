// What main sends a renderer: a ServerMessage, or a DeltaBatch whose rows are still encoded (a travel's
// rows, see EncodedRows). A transport that carries text (the WebSocket) writes them into the message as
// they are, as the batch's `packed` rows; one that carries values (Electron's MessagePort, the
// in-memory pair) parses them first. Either way the renderer receives a DeltaBatch with packed rows,
// which it checks and unpacks (see BridgeClient).
import type { DeltaBatch, ServerMessage } from '../../shared/protocol/server-messages';
import type { EncodedRows } from './encoded-rows';
import { parsedRows } from './encoded-rows';

export interface EncodedDeltaBatch extends Omit<DeltaBatch, 'upserts' | 'packed'> {
  /** Chunks of rows, in order, each as the worker encoded it. */
  readonly encoded: readonly EncodedRows[];
}

export type OutgoingBatch = DeltaBatch | EncodedDeltaBatch;
export type OutgoingMessage = ServerMessage | EncodedDeltaBatch;

function isEncoded(message: OutgoingMessage): message is EncodedDeltaBatch {
  return message.type === 'batch' && 'encoded' in message;
}

/** The rows a batch upserts, however they are held. */
export function upsertCount(batch: OutgoingBatch): number {
  if (!isEncoded(batch))
    return batch.upserts.length + (batch.packed?.reduce((rows, part) => rows + part.key.length, 0) ?? 0);
  return batch.encoded.reduce((rows, part) => rows + part.keys.length, 0);
}

/** `message` as the JSON text of the ServerMessage it stands for. */
export function messageText(message: OutgoingMessage): string {
  if (!isEncoded(message)) return JSON.stringify(message);
  const { encoded, ...envelope } = message;
  // The envelope's JSON always has members (type, subscriptionId, seq...): the rows join them.
  const text = JSON.stringify({ ...envelope, upserts: [] });
  return `${text.slice(0, -1)},"packed":[${encoded.map((part) => part.json).join(',')}]}`;
}

/** `message` as the ServerMessage it stands for. */
export function messageValue(message: OutgoingMessage): ServerMessage {
  if (!isEncoded(message)) return message;
  const { encoded, ...envelope } = message;
  return { ...envelope, upserts: [], packed: encoded.map(parsedRows) };
}
