// What main sends a renderer: a ServerMessage, a DeltaBatch whose upserts are still text (a travel's
// rows, see EncodedRows), or a reply whose value is still JSON bytes (see EncodedValue). A transport
// that carries text (the WebSocket) writes the rows or the value into the message as they are, a
// TupleBatch as the live stream's batches are (batch-bytes.ts); Electron's MessagePort sends such a
// message as its text (see carriesText), other messages as values; the in-memory pair decodes them.
// Either way the renderer ends with an ordinary DeltaBatch or reply.
import type { DeltaBatch, ServerMessage } from '../../shared/protocol/server-messages';
import type { EncodedRows } from './encoded-rows';
import type { Row } from '../../shared/protocol/row';
import { decodeRows } from './encoded-rows';
import { EncodedValue } from './encoded-value';

export interface EncodedDeltaBatch extends Omit<DeltaBatch, 'upserts'> {
  readonly upserts: EncodedRows;
}

/** A successful reply whose value is JSON bytes made elsewhere (see EncodedValue). */
export interface EncodedReply {
  readonly type: 'reply';
  readonly requestId: number;
  readonly ok: true;
  readonly value: EncodedValue;
}

/** A part of a reply's value (see ReplyPartMessage), as JSON bytes made elsewhere. */
export interface EncodedReplyPart {
  readonly type: 'replyPart';
  readonly requestId: number;
  readonly index: number;
  readonly value: EncodedValue;
}

export type OutgoingBatch = DeltaBatch | EncodedDeltaBatch;
// A ServerMessage's reply value is `unknown`, so an EncodedReply is one already; it is named for
// the transports, which must never serialize an EncodedValue as an object.
export type OutgoingMessage = ServerMessage | EncodedDeltaBatch | EncodedReply | EncodedReplyPart;

function isEncoded(message: OutgoingMessage): message is EncodedDeltaBatch {
  return message.type === 'batch' && !Array.isArray(message.upserts);
}

/** A reply, or a part of one, whose value is JSON bytes made elsewhere. */
export function isEncodedReply(message: OutgoingMessage): message is EncodedReply | EncodedReplyPart {
  return (
    (message.type === 'replyPart' || (message.type === 'reply' && message.ok)) &&
    message.value instanceof EncodedValue
  );
}

/** The reply's (or part's) envelope as JSON around the value's bytes, written into one buffer. */
export function encodedReplyBytes(message: EncodedReply | EncodedReplyPart): Buffer {
  const { value, ...envelope } = message;
  // The envelope always has members (type, requestId, ok): the value joins them, last.
  const head = Buffer.from(`${JSON.stringify(envelope).slice(0, -1)},"value":`);
  return Buffer.concat([head, value.json, closingBrace]);
}

const closingBrace = Buffer.from('}');

/** The rows a batch carries, however they are held. */
export function upsertCount(batch: OutgoingBatch): number {
  return upsertCountOf(batch.upserts);
}

/** How many rows `upserts` holds, however they are held. */
export function upsertCountOf(upserts: readonly Row[] | EncodedRows): number {
  return 'json' in upserts ? upserts.keys.length : upserts.length;
}

/**
 * Whether `message` holds text serialized elsewhere (encoded rows, an encoded reply value): a
 * transport of values sends such a message as its text (see messageText) rather than parse it here.
 */
export function carriesText(message: OutgoingMessage): boolean {
  return isEncoded(message) || isEncodedReply(message);
}

/** `message` as the JSON text of the ServerMessage it stands for. */
export function messageText(message: OutgoingMessage): string {
  if (isEncodedReply(message)) return encodedReplyBytes(message).toString();
  if (!isEncoded(message)) return JSON.stringify(message);
  const { upserts, ...envelope } = message;
  // The envelope's JSON always has members (type, subscriptionId, seq...): the rows join them, their
  // tuples last (see TupleBatch).
  const text = JSON.stringify(envelope);
  return `${text.slice(0, -1)},"rowLayout":${JSON.stringify(upserts.layout)},"tuples":${upserts.json}}`;
}

/** `message` as the ServerMessage it stands for. */
export function messageValue(message: OutgoingMessage): ServerMessage {
  if (isEncodedReply(message)) return { ...message, value: message.value.decode() };
  if (!isEncoded(message)) return message;
  return { ...message, upserts: decodeRows(message.upserts) };
}
