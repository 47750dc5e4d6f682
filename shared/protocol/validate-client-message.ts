// The gate main puts in front of every renderer message. Hand-written and small: each check names the
// field and the rule it broke, so a refusal in the log says exactly why (the VS Code ValidatedIpcMain
// habit). It checks shape, types, sizes and formats, never whether the named object exists.
import type { GroupVersionResource } from '../kube/object';
import type { ClientMessage, InvolvedObject, ResumedSubscription } from './client-messages';
import type { HistoryClientMessage, HistoryObjectReference } from './history-messages';

export type ValidationResult = { ok: true; message: ClientMessage } | { ok: false; reason: string };

/** Limits on what a renderer may send; generous for real use, tight enough to refuse floods. */
export const messageLimits = {
  subscriptionIdLength: 128,
  /** DNS subdomain: object names, groups, resources. */
  nameLength: 253,
  /** DNS label: namespaces, versions. */
  labelLength: 63,
  contextLength: 1024,
  kindLength: 128,
  resumedSubscriptions: 1000,
  timelineBuckets: 2000,
  pathLength: 4096,
  historyFilterEntries: 1000,
  maxPlaybackSpeed: 100,
} as const;

const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** API versions are DNS-1035 labels (v1, v1beta2, v2alpha1, or a CRD's own name). */
const versionFormat = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
/**
 * Object names are loose (DNS subdomains for most kinds, path segments for some): refuse only "/" and
 * control characters. Printable ASCII and anything above it pass.
 */
const objectNameFormat = /^[^/\p{Cc}]+$/u;
const kindFormat = /^[A-Za-z][A-Za-z0-9]*$/;
const subscriptionIdFormat = /^[\x21-\x7e]+$/;

class Rejection extends Error {}

function reject(reason: string): never {
  throw new Rejection(reason);
}

type Fields = Record<string, unknown>;

function record(value: unknown, where: string): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    reject(`${where} must be an object`);
  return value as Fields;
}

function onlyFields(fields: Fields, allowed: readonly string[], where: string): void {
  for (const name of Object.keys(fields)) {
    if (!allowed.includes(name)) reject(`${where} has unknown field "${name.slice(0, 64)}"`);
  }
}

function string(value: unknown, where: string, maxLength: number, format?: RegExp): string {
  if (typeof value !== 'string') reject(`${where} must be a string`);
  if (value.length === 0) reject(`${where} must not be empty`);
  if (value.length > maxLength) reject(`${where} is longer than ${maxLength} characters`);
  if (format && !format.test(value)) reject(`${where} "${value.slice(0, 64)}" is malformed`);
  return value;
}

function optional<T>(value: unknown, check: (value: unknown) => T): T | undefined {
  return value === undefined ? undefined : check(value);
}

function counter(value: unknown, where: string, minimum: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
    reject(`${where} must be an integer of at least ${minimum}`);
  }
  return value;
}

function boolean(value: unknown, where: string): boolean {
  if (typeof value !== 'boolean') reject(`${where} must be a boolean`);
  return value;
}

function requestId(fields: Fields): number {
  return counter(fields.requestId, 'requestId', 0);
}

function namespace(value: unknown): string | undefined {
  return optional(value, (present) => string(present, 'namespace', messageLimits.labelLength, dnsLabel));
}

function subscriptionId(value: unknown): string {
  return string(value, 'subscriptionId', messageLimits.subscriptionIdLength, subscriptionIdFormat);
}

/** A GroupVersionResource in the shape discovery reports: core group "", DNS-formatted names. */
export function validateGroupVersionResource(value: unknown, where = 'gvr'): GroupVersionResource {
  const fields = record(value, where);
  onlyFields(fields, ['group', 'version', 'resource'], where);
  if (fields.group !== '') string(fields.group, `${where}.group`, messageLimits.nameLength, dnsSubdomain);
  return {
    group: fields.group as string,
    version: string(fields.version, `${where}.version`, messageLimits.labelLength, versionFormat),
    resource: string(fields.resource, `${where}.resource`, messageLimits.nameLength, dnsSubdomain),
  };
}

function resumed(value: unknown, index: number): ResumedSubscription {
  const where = `resume[${index}]`;
  const fields = record(value, where);
  onlyFields(fields, ['subscriptionId', 'gvr', 'namespace', 'lastSeq'], where);
  const entry: ResumedSubscription = {
    subscriptionId: subscriptionId(fields.subscriptionId),
    gvr: validateGroupVersionResource(fields.gvr, `${where}.gvr`),
    lastSeq: counter(fields.lastSeq, `${where}.lastSeq`, 0),
  };
  const ns = namespace(fields.namespace);
  return ns === undefined ? entry : { ...entry, namespace: ns };
}

function involvedObject(value: unknown): InvolvedObject {
  const fields = record(value, 'involvedObject');
  onlyFields(fields, ['kind', 'namespace', 'name', 'uid'], 'involvedObject');
  const result: InvolvedObject = {
    kind: string(fields.kind, 'involvedObject.kind', messageLimits.kindLength, kindFormat),
    name: string(fields.name, 'involvedObject.name', messageLimits.nameLength, objectNameFormat),
  };
  const ns = namespace(fields.namespace);
  if (ns !== undefined) result.namespace = ns;
  const uid = optional(fields.uid, (present) =>
    string(present, 'involvedObject.uid', messageLimits.labelLength, subscriptionIdFormat),
  );
  if (uid !== undefined) result.uid = uid;
  return result;
}

function historyObject(value: unknown): HistoryObjectReference {
  const fields = record(value, 'object');
  if ('uid' in fields) {
    onlyFields(fields, ['uid'], 'object');
    return { uid: string(fields.uid, 'object.uid', messageLimits.labelLength, subscriptionIdFormat) };
  }
  onlyFields(fields, ['gvr', 'namespace', 'name'], 'object');
  return withOptional(
    {
      gvr: validateGroupVersionResource(fields.gvr, 'object.gvr'),
      name: string(fields.name, 'object.name', messageLimits.nameLength, objectNameFormat),
    },
    { namespace: namespace(fields.namespace) },
  );
}

/** A moment in ms since the epoch. */
function moment(value: unknown, where: string): number {
  return counter(value, where, 0);
}

/** A file path on main's machine: any printable text; main decides what it may open or write. */
function path(value: unknown): string {
  return string(value, 'path', messageLimits.pathLength, /^[^\p{Cc}]+$/u);
}

function list<T>(value: unknown, where: string, check: (item: unknown, where: string) => T): T[] {
  if (!Array.isArray(value)) reject(`${where} must be an array`);
  if (value.length > messageLimits.historyFilterEntries) {
    reject(`${where} lists more than ${messageLimits.historyFilterEntries} entries`);
  }
  return value.map((item, index) => check(item, `${where}[${index}]`));
}

function parseHistory(fields: Fields): HistoryClientMessage | undefined {
  switch (fields.type) {
    case 'historyTimeline': {
      onlyFields(fields, ['type', 'requestId', 'buckets', 'from', 'to'], 'historyTimeline');
      const buckets = counter(fields.buckets, 'buckets', 1);
      if (buckets > messageLimits.timelineBuckets)
        reject(`buckets must be at most ${messageLimits.timelineBuckets}`);
      return withOptional(
        { type: 'historyTimeline' as const, requestId: requestId(fields), buckets },
        {
          from: optional(fields.from, (present) => moment(present, 'from')),
          to: optional(fields.to, (present) => moment(present, 'to')),
        },
      );
    }
    case 'historyState':
      onlyFields(fields, ['type', 'requestId', 'subscriptionId', 'gvr', 'namespace', 'time'], 'historyState');
      return withOptional(
        {
          type: 'historyState' as const,
          requestId: requestId(fields),
          subscriptionId: subscriptionId(fields.subscriptionId),
          gvr: validateGroupVersionResource(fields.gvr),
          time: moment(fields.time, 'time'),
        },
        { namespace: namespace(fields.namespace) },
      );
    case 'historyPlay': {
      onlyFields(fields, ['type', 'requestId', 'subscriptionId', 'speed'], 'historyPlay');
      const speed = counter(fields.speed, 'speed', 1);
      if (speed > messageLimits.maxPlaybackSpeed)
        reject(`speed must be at most ${messageLimits.maxPlaybackSpeed}`);
      return {
        type: 'historyPlay',
        requestId: requestId(fields),
        subscriptionId: subscriptionId(fields.subscriptionId),
        speed,
      };
    }
    case 'historyStop':
      onlyFields(fields, ['type', 'requestId', 'subscriptionId'], 'historyStop');
      return {
        type: 'historyStop',
        requestId: requestId(fields),
        subscriptionId: subscriptionId(fields.subscriptionId),
      };
    case 'historyVersions':
      onlyFields(fields, ['type', 'requestId', 'object'], 'historyVersions');
      return { type: 'historyVersions', requestId: requestId(fields), object: historyObject(fields.object) };
    case 'historyDiff':
      onlyFields(fields, ['type', 'requestId', 'object', 'olderId', 'newerId'], 'historyDiff');
      return {
        type: 'historyDiff',
        requestId: requestId(fields),
        object: historyObject(fields.object),
        olderId: counter(fields.olderId, 'olderId', 0),
        newerId: counter(fields.newerId, 'newerId', 0),
      };
    case 'historyObject':
      onlyFields(fields, ['type', 'requestId', 'object', 'time'], 'historyObject');
      return {
        type: 'historyObject',
        requestId: requestId(fields),
        object: historyObject(fields.object),
        time: moment(fields.time, 'time'),
      };
    case 'historyAdjacent':
      onlyFields(fields, ['type', 'requestId', 'object', 'time', 'direction'], 'historyAdjacent');
      if (fields.direction !== 'previous' && fields.direction !== 'next')
        reject('direction must be "previous" or "next"');
      return {
        type: 'historyAdjacent',
        requestId: requestId(fields),
        object: historyObject(fields.object),
        time: moment(fields.time, 'time'),
        direction: fields.direction,
      };
    case 'historyExport': {
      onlyFields(
        fields,
        ['type', 'requestId', 'from', 'to', 'namespaces', 'gvrs', 'path', 'download'],
        'historyExport',
      );
      const from = moment(fields.from, 'from');
      const to = moment(fields.to, 'to');
      if (to < from) reject('to must not be before from');
      return withOptional(
        { type: 'historyExport' as const, requestId: requestId(fields), from, to },
        {
          namespaces: optional(fields.namespaces, (present) =>
            list(present, 'namespaces', (item, where) =>
              string(item, where, messageLimits.labelLength, dnsLabel),
            ),
          ),
          gvrs: optional(fields.gvrs, (present) => list(present, 'gvrs', validateGroupVersionResource)),
          path: optional(fields.path, path),
          download: optional(fields.download, (present) => boolean(present, 'download')),
        },
      );
    }
    case 'historyImport':
      onlyFields(fields, ['type', 'requestId', 'path'], 'historyImport');
      return { type: 'historyImport', requestId: requestId(fields), path: path(fields.path) };
    case 'historyLive':
      onlyFields(fields, ['type', 'requestId'], 'historyLive');
      return { type: 'historyLive', requestId: requestId(fields) };
    default:
      return undefined;
  }
}

/** Builds a message from already-validated fields, leaving out the optional ones that were absent. */
function withOptional<T extends object>(message: T, optionals: Record<string, unknown>): T {
  for (const [name, value] of Object.entries(optionals)) {
    if (value !== undefined) (message as Record<string, unknown>)[name] = value;
  }
  return message;
}

function parse(value: unknown): ClientMessage {
  const fields = record(value, 'message');
  switch (fields.type) {
    case 'hello': {
      onlyFields(fields, ['type', 'requestId', 'protocolVersion', 'resume'], 'hello');
      const resume = optional(fields.resume, (present) => {
        if (!Array.isArray(present)) reject('resume must be an array');
        if (present.length > messageLimits.resumedSubscriptions) {
          reject(`resume lists more than ${messageLimits.resumedSubscriptions} subscriptions`);
        }
        return present.map(resumed);
      });
      return withOptional(
        {
          type: 'hello',
          requestId: requestId(fields),
          protocolVersion: counter(fields.protocolVersion, 'protocolVersion', 1),
        },
        { resume },
      );
    }
    case 'subscribe':
      onlyFields(fields, ['type', 'requestId', 'subscriptionId', 'gvr', 'namespace'], 'subscribe');
      return withOptional(
        {
          type: 'subscribe',
          requestId: requestId(fields),
          subscriptionId: subscriptionId(fields.subscriptionId),
          gvr: validateGroupVersionResource(fields.gvr),
        },
        { namespace: namespace(fields.namespace) },
      );
    case 'unsubscribe':
      onlyFields(fields, ['type', 'requestId', 'subscriptionId'], 'unsubscribe');
      return withOptional(
        { type: 'unsubscribe', subscriptionId: subscriptionId(fields.subscriptionId) },
        { requestId: optional(fields.requestId, () => requestId(fields)) },
      );
    case 'resnapshot':
      onlyFields(fields, ['type', 'subscriptionId'], 'resnapshot');
      return { type: 'resnapshot', subscriptionId: subscriptionId(fields.subscriptionId) };
    case 'ack':
      onlyFields(fields, ['type', 'subscriptionId', 'seq'], 'ack');
      return {
        type: 'ack',
        subscriptionId: subscriptionId(fields.subscriptionId),
        seq: counter(fields.seq, 'seq', 0),
      };
    case 'resync':
      onlyFields(fields, ['type', 'requestId', 'subscriptionId'], 'resync');
      return {
        type: 'resync',
        requestId: requestId(fields),
        subscriptionId: subscriptionId(fields.subscriptionId),
      };
    case 'getObject':
      onlyFields(fields, ['type', 'requestId', 'gvr', 'namespace', 'name', 'reveal'], 'getObject');
      return withOptional(
        {
          type: 'getObject',
          requestId: requestId(fields),
          gvr: validateGroupVersionResource(fields.gvr),
          name: string(fields.name, 'name', messageLimits.nameLength, objectNameFormat),
        },
        {
          namespace: namespace(fields.namespace),
          reveal: optional(fields.reveal, (present) => boolean(present, 'reveal')),
        },
      );
    case 'listContexts':
      onlyFields(fields, ['type', 'requestId'], 'listContexts');
      return { type: 'listContexts', requestId: requestId(fields) };
    case 'switchContext':
      onlyFields(fields, ['type', 'requestId', 'context'], 'switchContext');
      return {
        type: 'switchContext',
        requestId: requestId(fields),
        context: string(fields.context, 'context', messageLimits.contextLength),
      };
    case 'listEvents':
      onlyFields(fields, ['type', 'requestId', 'involvedObject'], 'listEvents');
      return {
        type: 'listEvents',
        requestId: requestId(fields),
        involvedObject: involvedObject(fields.involvedObject),
      };
    default:
      return (
        parseHistory(fields) ??
        reject(
          typeof fields.type === 'string'
            ? `unknown message type "${fields.type.slice(0, 64)}"`
            : 'message.type must be a string',
        )
      );
  }
}

/**
 * Checks a message from the renderer and returns a fresh copy holding only the known fields, or the
 * reason it was refused. Never throws, whatever it is given.
 */
export function validateClientMessage(value: unknown): ValidationResult {
  try {
    return { ok: true, message: parse(value) };
  } catch (error) {
    if (error instanceof Rejection) return { ok: false, reason: error.message };
    return { ok: false, reason: `unreadable message: ${String(error).slice(0, 200)}` };
  }
}

/** The requestId of a message that failed validation, when it has a usable one, so main can reply. */
export function requestIdOf(value: unknown): number | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const id = (value as { requestId?: unknown }).requestId;
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : undefined;
}
