// The checks of the history messages (shared/protocol/history-messages.ts): moments, object
// references, playback speeds, export filters and transfer tokens. No message carries a file path:
// main alone decides where recordings are read and written.
import type { HistoryClientMessage, HistoryObjectReference, UsageSubject } from './history-messages';
import type { Fields } from './validation-rules';
import {
  counter,
  dnsLabel,
  involvedObject,
  messageLimits,
  metricsDigestFormat,
  metricsDigestLength,
  namespace,
  objectNameFormat,
  onlyFields,
  optional,
  record,
  reject,
  requestId,
  string,
  subscriptionId,
  subscriptionIdFormat,
  validateGroupVersionResource,
  withOptional,
} from './validation-rules';

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

const usageKinds: readonly string[] = ['Pod', 'Node', 'Deployment', 'StatefulSet', 'DaemonSet'];
/** More points than a chart has pixels would only cost the query worker time: asks are capped. */
const maxUsagePoints = 2000;

function usageSubject(value: unknown): UsageSubject {
  const fields = record(value, 'subject');
  onlyFields(fields, ['kind', 'namespace', 'name'], 'subject');
  if (typeof fields.kind !== 'string' || !usageKinds.includes(fields.kind))
    reject(`subject.kind must be one of ${usageKinds.join(', ')}`);
  const node = fields.kind === 'Node';
  if (node && fields.namespace !== '') reject('subject.namespace must be "" for a node');
  return {
    kind: fields.kind as UsageSubject['kind'],
    namespace: node ? '' : string(fields.namespace, 'subject.namespace', messageLimits.labelLength, dnsLabel),
    name: string(fields.name, 'subject.name', messageLimits.nameLength, objectNameFormat),
  };
}

/** A moment in ms since the epoch. */
function moment(value: unknown, where: string): number {
  return counter(value, where, 0);
}

/** A file path on main's machine: any printable text; main decides what it may open or write. */
/** An upload token as main issues them (base64url). */
const transferTokenFormat = /^[A-Za-z0-9_-]{16,64}$/;

function list<T>(value: unknown, where: string, check: (item: unknown, where: string) => T): T[] {
  if (!Array.isArray(value)) reject(`${where} must be an array`);
  if (value.length > messageLimits.historyFilterEntries) {
    reject(`${where} lists more than ${messageLimits.historyFilterEntries} entries`);
  }
  return value.map((item, index) => check(item, `${where}[${index}]`));
}

/** The history message `fields` describes, or undefined when its type is not a history type. */
export function parseHistory(fields: Fields): HistoryClientMessage | undefined {
  switch (fields.type) {
    case 'historyTimeline': {
      onlyFields(fields, ['type', 'requestId', 'buckets', 'from', 'to', 'base'], 'historyTimeline');
      const buckets = counter(fields.buckets, 'buckets', 1);
      if (buckets > messageLimits.timelineBuckets)
        reject(`buckets must be at most ${messageLimits.timelineBuckets}`);
      return withOptional(
        { type: 'historyTimeline' as const, requestId: requestId(fields), buckets },
        {
          from: optional(fields.from, (present) => moment(present, 'from')),
          to: optional(fields.to, (present) => moment(present, 'to')),
          base: optional(fields.base, (present) => subscriptionId(present)),
        },
      );
    }
    case 'historyState':
      onlyFields(
        fields,
        ['type', 'requestId', 'subscriptionId', 'gvr', 'namespace', 'time', 'base'],
        'historyState',
      );
      return withOptional(
        {
          type: 'historyState' as const,
          requestId: requestId(fields),
          subscriptionId: subscriptionId(fields.subscriptionId),
          gvr: validateGroupVersionResource(fields.gvr),
          time: moment(fields.time, 'time'),
        },
        {
          namespace: namespace(fields.namespace),
          base: optional(fields.base, (present) => subscriptionId(present)),
        },
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
    case 'historyCrashLogs':
      onlyFields(fields, ['type', 'requestId', 'uid', 'time'], 'historyCrashLogs');
      return {
        type: 'historyCrashLogs',
        requestId: requestId(fields),
        uid: string(fields.uid, 'uid', messageLimits.labelLength, subscriptionIdFormat),
        time: moment(fields.time, 'time'),
      };
    case 'historyMetrics': {
      onlyFields(
        fields,
        ['type', 'requestId', 'resource', 'time', 'heldKeys', 'heldAnswer'],
        'historyMetrics',
      );
      if (fields.resource !== 'pods' && fields.resource !== 'nodes')
        reject('resource must be "pods" or "nodes"');
      const resource: 'pods' | 'nodes' = fields.resource;
      return withOptional(
        {
          type: 'historyMetrics' as const,
          requestId: requestId(fields),
          resource,
          time: moment(fields.time, 'time'),
        },
        {
          heldKeys: optional(fields.heldKeys, (held) =>
            string(held, 'heldKeys', metricsDigestLength, metricsDigestFormat),
          ),
          heldAnswer: optional(fields.heldAnswer, (held) =>
            string(held, 'heldAnswer', metricsDigestLength, metricsDigestFormat),
          ),
        },
      );
    }
    case 'historyUsage':
      onlyFields(fields, ['type', 'requestId', 'subject', 'points', 'from', 'to'], 'historyUsage');
      return withOptional(
        {
          type: 'historyUsage' as const,
          requestId: requestId(fields),
          subject: usageSubject(fields.subject),
          points: Math.min(counter(fields.points, 'points', 1), maxUsagePoints),
        },
        {
          from: optional(fields.from, (value) => moment(value, 'from')),
          to: optional(fields.to, (value) => moment(value, 'to')),
        },
      );
    case 'historyEvents':
      onlyFields(fields, ['type', 'requestId', 'involvedObject', 'time'], 'historyEvents');
      return {
        type: 'historyEvents',
        requestId: requestId(fields),
        involvedObject: involvedObject(fields.involvedObject),
        time: moment(fields.time, 'time'),
      };
    case 'historyCounts':
      onlyFields(fields, ['type', 'requestId', 'time'], 'historyCounts');
      return { type: 'historyCounts', requestId: requestId(fields), time: moment(fields.time, 'time') };
    case 'historyExport': {
      onlyFields(
        fields,
        ['type', 'requestId', 'from', 'to', 'namespaces', 'gvrs', 'destination'],
        'historyExport',
      );
      const from = moment(fields.from, 'from');
      const to = moment(fields.to, 'to');
      if (to < from) reject('to must not be before from');
      const destination =
        fields.destination === 'dialog'
          ? ('dialog' as const)
          : fields.destination === 'download'
            ? ('download' as const)
            : reject('destination must be "dialog" or "download"');
      return withOptional(
        {
          type: 'historyExport' as const,
          requestId: requestId(fields),
          from,
          to,
          destination,
        },
        {
          namespaces: optional(fields.namespaces, (present) =>
            list(present, 'namespaces', (item, where) =>
              string(item, where, messageLimits.labelLength, dnsLabel),
            ),
          ),
          gvrs: optional(fields.gvrs, (present) => list(present, 'gvrs', validateGroupVersionResource)),
        },
      );
    }
    case 'historyWithdraw':
      onlyFields(fields, ['type', 'requestId', 'withdrawnRequestId'], 'historyWithdraw');
      return {
        type: 'historyWithdraw',
        requestId: requestId(fields),
        withdrawnRequestId: counter(fields.withdrawnRequestId, 'withdrawnRequestId', 0),
      };
    case 'historyImport': {
      onlyFields(fields, ['type', 'requestId', 'source'], 'historyImport');
      if (fields.source === 'dialog') {
        return { type: 'historyImport', requestId: requestId(fields), source: 'dialog' };
      }
      const source = record(fields.source, 'source');
      onlyFields(source, ['upload'], 'source');
      return {
        type: 'historyImport',
        requestId: requestId(fields),
        source: { upload: string(source.upload, 'source.upload', 64, transferTokenFormat) },
      };
    }
    case 'historyLive':
      onlyFields(fields, ['type', 'requestId'], 'historyLive');
      return { type: 'historyLive', requestId: requestId(fields) };
    default:
      return undefined;
  }
}
