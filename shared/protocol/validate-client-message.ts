// The gate main puts in front of every renderer message. Hand-written and small: each check names the
// field and the rule it broke, so a refusal in the log says exactly why (the VS Code ValidatedIpcMain
// habit). It checks shape, types, sizes and formats, never whether the named object exists.
import type { ClientMessage, ResumedSubscription } from './client-messages';
import { parseHistory } from './validate-history-message';
import { parseLogMessage } from './validate-log-message';
import {
  Rejection,
  counter,
  dataKeyFormat,
  dnsLabel,
  involvedObject,
  messageLimits,
  namespace,
  objectNameFormat,
  onlyFields,
  optional,
  record,
  reject,
  requestId,
  string,
  subscriptionId,
  validateGroupVersionResource,
  withOptional,
} from './validation-rules';

export { messageLimits, validateGroupVersionResource } from './validation-rules';

export type ValidationResult = { ok: true; message: ClientMessage } | { ok: false; reason: string };

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
    case 'reconnect':
      onlyFields(fields, ['type', 'offlineSince'], 'reconnect');
      return withOptional(
        { type: 'reconnect' },
        {
          offlineSince: optional(fields.offlineSince, () => counter(fields.offlineSince, 'offlineSince', 0)),
        },
      );
    case 'resync':
      onlyFields(fields, ['type', 'requestId', 'subscriptionId'], 'resync');
      return {
        type: 'resync',
        requestId: requestId(fields),
        subscriptionId: subscriptionId(fields.subscriptionId),
      };
    case 'getObject':
      onlyFields(fields, ['type', 'requestId', 'gvr', 'namespace', 'name'], 'getObject');
      return withOptional(
        {
          type: 'getObject',
          requestId: requestId(fields),
          gvr: validateGroupVersionResource(fields.gvr),
          name: string(fields.name, 'name', messageLimits.nameLength, objectNameFormat),
        },
        { namespace: namespace(fields.namespace) },
      );
    case 'revealSecretValue': {
      onlyFields(fields, ['type', 'requestId', 'namespace', 'name', 'key'], 'revealSecretValue');
      const secretNamespace = namespace(fields.namespace);
      if (secretNamespace === undefined) reject('namespace is required: a Secret is namespaced');
      return {
        type: 'revealSecretValue',
        requestId: requestId(fields),
        namespace: secretNamespace,
        name: string(fields.name, 'name', messageLimits.nameLength, objectNameFormat),
        key: string(fields.key, 'key', messageLimits.nameLength, dataKeyFormat),
      };
    }
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
    case 'setNamespaces': {
      onlyFields(fields, ['type', 'requestId', 'namespaces'], 'setNamespaces');
      const names = fields.namespaces;
      if (!Array.isArray(names)) reject('namespaces must be an array');
      if (names.length > messageLimits.addedNamespaces)
        reject(`namespaces lists more than ${messageLimits.addedNamespaces} names`);
      return {
        type: 'setNamespaces',
        requestId: requestId(fields),
        namespaces: names.map((name, index) =>
          string(name, `namespaces[${index}]`, messageLimits.labelLength, dnsLabel),
        ),
      };
    }
    default:
      return (
        parseHistory(fields) ??
        parseLogMessage(fields) ??
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
