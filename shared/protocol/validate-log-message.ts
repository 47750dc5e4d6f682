// The checks of the log messages (shared/protocol/log-messages.ts): targets, options and stream ids.
import { parseLabelSelector } from '../selectors/label-selector';
import type { LogClientMessage, LogOptions, LogTarget } from './log-messages';
import type { Fields } from './validation-rules';
import {
  boolean,
  counter,
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

/** A label selector is at most this long (the filter bar's are far shorter). */
const selectorLength = 4096;
/** kube-apiserver caps nothing here; a view asking for more than this many lines is a mistake. */
const maximumTailLines = 10_000_000;

function requiredNamespace(value: unknown, where: string): string {
  const checked = namespace(value);
  if (checked === undefined) reject(`${where}.namespace must be given`);
  return checked;
}

function container(value: unknown, where: string): string | undefined {
  return optional(value, (present) =>
    string(present, `${where}.container`, messageLimits.nameLength, objectNameFormat),
  );
}

function target(value: unknown): LogTarget {
  const fields = record(value, 'target');
  const name = (field: unknown) => string(field, 'target.name', messageLimits.nameLength, objectNameFormat);
  switch (fields.kind) {
    case 'pod': {
      onlyFields(fields, ['kind', 'namespace', 'name', 'container'], 'target');
      const chosen = container(fields.container, 'target');
      if (chosen === undefined) reject('target.container must be given for a pod');
      return {
        kind: 'pod',
        namespace: requiredNamespace(fields.namespace, 'target'),
        name: name(fields.name),
        container: chosen,
      };
    }
    case 'workload':
      onlyFields(fields, ['kind', 'gvr', 'namespace', 'name', 'container'], 'target');
      return withOptional(
        {
          kind: 'workload' as const,
          gvr: validateGroupVersionResource(fields.gvr, 'target.gvr'),
          namespace: requiredNamespace(fields.namespace, 'target'),
          name: name(fields.name),
        },
        { container: container(fields.container, 'target') },
      );
    case 'selector': {
      onlyFields(fields, ['kind', 'namespace', 'labelSelector', 'container'], 'target');
      const labelSelector = string(fields.labelSelector, 'target.labelSelector', selectorLength);
      try {
        parseLabelSelector(labelSelector);
      } catch (error) {
        reject(`target.labelSelector is invalid: ${(error as Error).message}`);
      }
      return withOptional(
        { kind: 'selector' as const, labelSelector },
        { namespace: namespace(fields.namespace), container: container(fields.container, 'target') },
      );
    }
    default:
      return reject('target.kind must be "pod", "workload" or "selector"');
  }
}

function options(value: unknown): LogOptions {
  const fields = record(value, 'options');
  onlyFields(fields, ['follow', 'previous', 'tailLines', 'sinceSeconds', 'limitBytes'], 'options');
  return withOptional(
    {
      follow: boolean(fields.follow, 'options.follow'),
      previous: boolean(fields.previous, 'options.previous'),
    },
    {
      tailLines: optional(fields.tailLines, (present) => {
        const lines = counter(present, 'options.tailLines', 0);
        if (lines > maximumTailLines) reject(`options.tailLines must be at most ${maximumTailLines}`);
        return lines;
      }),
      sinceSeconds: optional(fields.sinceSeconds, (present) => counter(present, 'options.sinceSeconds', 1)),
      limitBytes: optional(fields.limitBytes, (present) => counter(present, 'options.limitBytes', 1)),
    },
  );
}

/** The log message `fields` describes, or undefined when its type is not a log type. */
export function parseLogMessage(fields: Fields): LogClientMessage | undefined {
  switch (fields.type) {
    case 'openLogs':
      onlyFields(fields, ['type', 'requestId', 'streamId', 'target', 'options'], 'openLogs');
      return {
        type: 'openLogs',
        requestId: requestId(fields),
        streamId: subscriptionId(fields.streamId),
        target: target(fields.target),
        options: options(fields.options),
      };
    case 'closeLogs':
      onlyFields(fields, ['type', 'streamId'], 'closeLogs');
      return { type: 'closeLogs', streamId: subscriptionId(fields.streamId) };
    default:
      return undefined;
  }
}
