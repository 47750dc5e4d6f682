// A version of an object as the recording writer takes it: the JSON text that is recorded, byte for
// byte, and the few metadata fields the writer files it by. The recording process reads those fields
// out of the captured text (readCapturedObject) instead of parsing the object: a parsed tree per
// change was most of what the process spent on JSON.parse and on garbage collection, and the writer
// stores each version as a text delta against the one before it, so it never needs the tree.
import type { KubeObject } from '../../shared/kube/object';

export interface CapturedObject {
  /** The object's JSON (UTF-8), managedFields left out: what its version decodes to. Never mutated. */
  readonly text: Buffer;
  readonly uid: string;
  readonly namespace: string;
  readonly name: string;
  readonly resourceVersion: string;
  /** What objects made from the same template share: their controller's uid, else their generateName. */
  readonly template: string;
}

/** A captured object's text and fields from the object itself (an export's, a test's). */
export function captureObject(object: KubeObject): CapturedObject {
  const { metadata } = object;
  const { managedFields, ...withoutManagedFields } = metadata;
  const text = Buffer.from(
    JSON.stringify(managedFields === undefined ? object : { ...object, metadata: withoutManagedFields }),
  );
  const controller = metadata.ownerReferences?.find((owner) => owner.controller);
  return {
    text,
    uid: metadata.uid ?? '',
    namespace: metadata.namespace ?? '',
    name: metadata.name ?? '',
    resourceVersion: metadata.resourceVersion ?? '',
    template: controller?.uid ?? metadata.generateName ?? '',
  };
}

const quote = 0x22;
const backslash = 0x5c;
const colon = 0x3a;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;

const keys = {
  metadata: Buffer.from('metadata'),
  uid: Buffer.from('uid'),
  namespace: Buffer.from('namespace'),
  name: Buffer.from('name'),
  resourceVersion: Buffer.from('resourceVersion'),
  generateName: Buffer.from('generateName'),
  ownerReferences: Buffer.from('ownerReferences'),
  managedFields: Buffer.from('managedFields'),
  controller: Buffer.from('controller'),
  true: Buffer.from('true'),
};

/** Whether bytes[start, end) are `key`'s. */
function isKey(bytes: Uint8Array, start: number, end: number, key: Uint8Array): boolean {
  if (end - start !== key.length) return false;
  for (let index = 0; index < key.length; index++) if (bytes[start + index] !== key[index]) return false;
  return true;
}

/** The index just past the string whose opening quote is at `start`. */
export function stringEnd(bytes: Uint8Array, start: number): number {
  let index = start + 1;
  for (;;) {
    if (index >= bytes.length) throw new Error('a captured JSON text ends inside a string');
    const byte = bytes[index];
    if (byte === quote) return index + 1;
    index += byte === backslash ? 2 : 1;
  }
}

/** The value of the JSON string bytes[start, end) (its quotes included). */
export function stringValue(bytes: Buffer, start: number, end: number): string {
  for (let index = start + 1; index < end - 1; index++)
    if (bytes[index] === backslash) return JSON.parse(bytes.toString('utf8', start, end)) as string;
  return bytes.toString('utf8', start + 1, end - 1);
}

/** The first index from `index` on that is not JSON whitespace. */
export function skipWhitespace(bytes: Uint8Array, index: number): number {
  while (index < bytes.length) {
    const byte = bytes[index];
    if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return index;
    index++;
  }
  return index;
}

/** The fields read so far, and where the scan is within metadata and its ownerReferences. */
interface Facts {
  uid: string;
  namespace: string;
  name: string;
  resourceVersion: string;
  generateName: string;
  controllerUid: string | undefined;
  managedFields: boolean;
}

/**
 * The object whose JSON text is bytes[start, end) (an opening brace to its closing one). Its text is
 * scanned only as far as its metadata: strings are skipped quote to quote, and only the keys of
 * metadata (depth 2) and of its ownerReferences' items (depth 4) are compared; past metadata (most
 * of a pod: its spec and status) nothing is read but the copy. Its text is copied out of `bytes` (a
 * batch of many objects, which would otherwise live as long as the object's text is kept). Throws on
 * text that does not open and close as a JSON object, or ends inside its metadata.
 */
export function readCapturedObject(bytes: Buffer, start: number, end: number): CapturedObject {
  if (bytes[start] !== openBrace || bytes[end - 1] !== closeBrace || end - start < 2)
    throw new Error('a captured object is not a JSON object');
  const facts: Facts = {
    uid: '',
    namespace: '',
    name: '',
    resourceVersion: '',
    generateName: '',
    controllerUid: undefined,
    managedFields: false,
  };
  // Where metadata's and its ownerReferences' values open, once their keys are seen; -1 until then.
  let metadataOpens = -1;
  let ownersOpen = -1;
  let inMetadata = false;
  let inOwners = false;
  let ownerUid = '';
  let ownerIsController = false;
  let depth = 0;
  let index = start;
  while (index < end) {
    const byte = bytes[index];
    if (byte === quote) {
      const stringClosed = stringEnd(bytes, index);
      const afterKey = skipWhitespace(bytes, stringClosed);
      // Only keys at depth 1 (metadata), 2 within metadata, and 4 within an owner reference matter.
      if (
        bytes[afterKey] !== colon ||
        !(depth === 1 || (inMetadata && depth === 2) || (inOwners && depth === 4))
      ) {
        index = stringClosed;
        continue;
      }
      const value = skipWhitespace(bytes, afterKey + 1);
      const keyStart = index + 1;
      const keyEnd = stringClosed - 1;
      index = stringClosed;
      if (depth === 1) {
        if (isKey(bytes, keyStart, keyEnd, keys.metadata)) metadataOpens = value;
      } else if (depth === 2) {
        if (isKey(bytes, keyStart, keyEnd, keys.ownerReferences)) ownersOpen = value;
        else if (isKey(bytes, keyStart, keyEnd, keys.managedFields)) facts.managedFields = true;
        else if (bytes[value] === quote) {
          const valueEnd = stringEnd(bytes, value);
          const field = metadataField(bytes, keyStart, keyEnd);
          if (field !== undefined) facts[field] = stringValue(bytes, value, valueEnd);
          index = valueEnd;
        }
      } else if (isKey(bytes, keyStart, keyEnd, keys.uid) && bytes[value] === quote) {
        const valueEnd = stringEnd(bytes, value);
        ownerUid = stringValue(bytes, value, valueEnd);
        index = valueEnd;
      } else if (isKey(bytes, keyStart, keyEnd, keys.controller)) {
        ownerIsController = isKey(bytes, value, Math.min(value + 4, bytes.length), keys.true);
      }
      continue;
    }
    if (byte === openBrace || byte === openBracket) {
      depth++;
      if (index === metadataOpens && byte === openBrace) inMetadata = true;
      else if (index === ownersOpen && byte === openBracket) inOwners = true;
      else if (inOwners && depth === 4) {
        ownerUid = '';
        ownerIsController = false;
      }
    } else if (byte === closeBrace || byte === closeBracket) {
      if (inOwners && depth === 4 && ownerIsController) facts.controllerUid ??= ownerUid;
      if (inOwners && depth === 3) inOwners = false;
      // Past metadata nothing more is read: what the writer files an object by is all in it.
      if (inMetadata && depth === 2) return objectOf(bytes, start, end, facts);
      depth--;
      if (depth === 0) {
        if (index !== end - 1) throw new Error('a captured object ends before its text does');
        return objectOf(bytes, start, end, facts);
      }
    }
    index++;
  }
  throw new Error('a captured object ends early');
}

type StringField = 'uid' | 'namespace' | 'name' | 'resourceVersion' | 'generateName';

function metadataField(bytes: Uint8Array, start: number, end: number): StringField | undefined {
  if (isKey(bytes, start, end, keys.uid)) return 'uid';
  if (isKey(bytes, start, end, keys.name)) return 'name';
  if (isKey(bytes, start, end, keys.namespace)) return 'namespace';
  if (isKey(bytes, start, end, keys.resourceVersion)) return 'resourceVersion';
  if (isKey(bytes, start, end, keys.generateName)) return 'generateName';
  return undefined;
}

function objectOf(bytes: Buffer, start: number, end: number, facts: Facts): CapturedObject {
  // Informers record objects with managedFields stripped; one that kept them is stripped here, the
  // slow way, so that no recording holds them (they are about half of an object's text).
  if (facts.managedFields) return captureObject(JSON.parse(bytes.toString('utf8', start, end)) as KubeObject);
  // Its own ArrayBuffer, not a slice of Node's shared pool, which one kept text would hold whole.
  const text = Buffer.allocUnsafeSlow(end - start);
  bytes.copy(text, 0, start, end);
  return {
    text,
    uid: facts.uid,
    namespace: facts.namespace,
    name: facts.name,
    resourceVersion: facts.resourceVersion,
    template: facts.controllerUid ?? facts.generateName,
  };
}
