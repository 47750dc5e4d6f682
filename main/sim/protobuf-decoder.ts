// Request bodies in `application/vnd.kubernetes.protobuf`, decoded to the JSON object the apiserver
// would have stored. kubectl's typed clients (every `kubectl create <kind>` generator) send nothing
// else, and client-go has no way back to JSON: it falls back from a 415 only for CBOR
// (rest.requestClientContentConfigProvider.UnsupportedMediaType), so a server must read protobuf.
//
// A body is the 4-byte magic "k8s\0" and a runtime.Unknown {typeMeta, raw, contentEncoding,
// contentType}; raw is the typed message, whose fields protobuf-schema.ts names.
import type { KubeObject } from '../../shared/kube/object';
import { StatusError, newStatus } from '../../shared/kube/status';
import { badRequest } from './api-errors';
import type { FieldSchema, MessageSchema, ScalarType } from './protobuf-schema';
import { deleteOptionsMessages, topLevelMessages } from './protobuf-kinds';
import type { WireField } from './protobuf-wire';
import { readFields, signed } from './protobuf-wire';

export const protobufMediaType = 'application/vnd.kubernetes.protobuf';

const magic = [0x6b, 0x38, 0x73, 0x00];
const utf8 = new TextDecoder('utf-8', { fatal: true });

function text(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw badRequest('the protobuf body has a string that is not UTF-8');
  }
}

function expectBytes(wire: WireField, owner: MessageSchema): Uint8Array {
  if (wire.wireType !== 'bytes')
    throw badRequest(`field ${wire.number} of ${owner.name} must be length-delimited`);
  return wire.value;
}

function expectVarint(wire: WireField, owner: MessageSchema): bigint {
  if (wire.wireType !== 'varint') throw badRequest(`field ${wire.number} of ${owner.name} must be a varint`);
  return wire.value;
}

/** The fields of a small wrapper message (Time, IntOrString, Quantity, map entries) by number. */
function fieldsOf(bytes: Uint8Array): Map<number, WireField> {
  const fields = new Map<number, WireField>();
  for (const wire of readFields(bytes)) fields.set(wire.number, wire);
  return fields;
}

const wrapper: MessageSchema = { name: 'wrapper message', fields: {} };

/** metav1.Time is seconds since the epoch, serialised in JSON to the second; zero is JSON null. */
function time(bytes: Uint8Array): string | undefined {
  const seconds = fieldsOf(bytes).get(1);
  if (!seconds) return undefined;
  return new Date(signed(expectVarint(seconds, wrapper)) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** intstr.IntOrString: type 1 is the string form, anything else the integer. */
function intOrString(bytes: Uint8Array): number | string {
  const fields = fieldsOf(bytes);
  const kind = fields.get(1);
  if (kind && signed(expectVarint(kind, wrapper)) === 1) {
    const value = fields.get(3);
    return value ? text(expectBytes(value, wrapper)) : '';
  }
  const value = fields.get(2);
  return value ? signed(expectVarint(value, wrapper)) : 0;
}

function scalar(type: ScalarType, wire: WireField, owner: MessageSchema): unknown {
  switch (type) {
    case 'string':
      return text(expectBytes(wire, owner));
    case 'bytes':
      return Buffer.from(expectBytes(wire, owner)).toString('base64');
    case 'integer':
      return signed(expectVarint(wire, owner));
    case 'boolean':
      return expectVarint(wire, owner) !== 0n;
    case 'time':
      return time(expectBytes(wire, owner));
    case 'intOrString':
      return intOrString(expectBytes(wire, owner));
    case 'quantity': {
      const value = fieldsOf(expectBytes(wire, owner)).get(1);
      return value ? text(expectBytes(value, wrapper)) : '';
    }
  }
}

function value(field: FieldSchema, wire: WireField, owner: MessageSchema): unknown {
  return typeof field.type === 'string'
    ? scalar(field.type, wire, owner)
    : decodeMessage(field.type, expectBytes(wire, owner));
}

function isZero(wire: WireField): boolean {
  return wire.wireType === 'varint' ? wire.value === 0n : wire.value.every((byte) => byte === 0);
}

/**
 * One message as JSON. Zero scalars of non-pointer fields are left out, as Go's `omitempty` leaves
 * them out of JSON; nested messages stay even when empty (`resources: {}`), as Go structs do.
 */
function decodeMessage(schema: MessageSchema, bytes: Uint8Array): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const wire of readFields(bytes)) {
    const field = schema.fields[wire.number];
    if (!field) {
      if (isZero(wire)) continue;
      throw new StatusError(
        newStatus(
          415,
          'UnsupportedMediaType',
          `field ${wire.number} of ${schema.name} is set, and the embedded cluster does not decode it from protobuf; send the object as application/json`,
        ),
      );
    }
    if (field.map) {
      const entry = fieldsOf(expectBytes(wire, schema));
      const key = entry.get(1);
      const entryValue = entry.get(2);
      const map = (result[field.name] ??= {}) as Record<string, unknown>;
      map[key ? text(expectBytes(key, schema)) : ''] = entryValue
        ? value(field, entryValue, schema)
        : typeof field.type === 'string'
          ? ''
          : {};
      continue;
    }
    const decoded = value(field, wire, schema);
    if (field.inline) Object.assign(result, decoded);
    else if (field.repeated) ((result[field.name] ??= []) as unknown[]).push(decoded);
    else if (
      decoded === undefined ||
      (!field.pointer && (decoded === '' || decoded === 0 || decoded === false))
    )
      delete result[field.name];
    else result[field.name] = decoded;
  }
  return result;
}

function unsupportedKind(kind: string, messages: ReadonlyMap<string, MessageSchema>): StatusError {
  return new StatusError(
    newStatus(
      415,
      'UnsupportedMediaType',
      `the embedded cluster decodes ${protobufMediaType} only for ${[...messages.keys()].join(', ')} (got ${kind}); send the object as application/json`,
    ),
  );
}

/**
 * A protobuf body as the message it encodes, by the envelope's `apiVersion/kind` in `messages`:
 * apiVersion and kind as the envelope gives them, then the message's fields.
 */
function decodeEnvelope(
  body: Uint8Array,
  messages: ReadonlyMap<string, MessageSchema>,
): { apiVersion: string; kind: string; fields: Record<string, unknown> } {
  if (body.length < magic.length || magic.some((byte, index) => body[index] !== byte))
    throw badRequest('the protobuf body does not start with the "k8s\\x00" envelope prefix');
  const envelope = fieldsOf(body.subarray(magic.length));
  const typeMeta = envelope.get(1);
  const typeFields = typeMeta ? fieldsOf(expectBytes(typeMeta, wrapper)) : new Map<number, WireField>();
  const apiVersionField = typeFields.get(1);
  const kindField = typeFields.get(2);
  const apiVersion = apiVersionField ? text(expectBytes(apiVersionField, wrapper)) : '';
  const kind = kindField ? text(expectBytes(kindField, wrapper)) : '';
  const encoding = envelope.get(3);
  if (encoding && text(expectBytes(encoding, wrapper)) !== '')
    throw badRequest('the protobuf body has a content encoding, which the embedded cluster does not support');
  const schema = messages.get(`${apiVersion}/${kind}`);
  if (!schema) throw unsupportedKind(`${apiVersion}/${kind}`, messages);
  const raw = envelope.get(2);
  return {
    apiVersion,
    kind,
    fields: decodeMessage(schema, raw ? expectBytes(raw, wrapper) : new Uint8Array()),
  };
}

/** A protobuf request body as the object it encodes, apiVersion and kind taken from the envelope. */
export function decodeProtobufObject(body: Uint8Array): KubeObject {
  const { apiVersion, kind, fields } = decodeEnvelope(body, topLevelMessages);
  return { apiVersion, kind, ...fields, metadata: (fields.metadata as KubeObject['metadata']) ?? {} };
}

/** A DELETE's protobuf body (kubectl's typed clients: `drain`, `delete` by a typed client) as JSON. */
export function decodeProtobufDeleteOptions(body: Uint8Array): Record<string, unknown> {
  return decodeEnvelope(body, deleteOptionsMessages).fields;
}
