// The rules every renderer message is checked by: field shapes, sizes and formats, each refusal naming
// the field and the rule it broke. Shared by the validators of the protocol's message families.
import type { GroupVersionResource } from '../kube/object';
import type { InvolvedObject } from './client-messages';

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
  historyFilterEntries: 1000,
  maxPlaybackSpeed: 100,
  /** Namespaces a user may add per context (setNamespaces): each costs an informer per refused kind. */
  addedNamespaces: 100,
} as const;

export const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
export const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** API versions are DNS-1035 labels (v1, v1beta2, v2alpha1, or a CRD's own name). */
export const versionFormat = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
/**
 * Object names are loose (DNS subdomains for most kinds, path segments for some): refuse only "/" and
 * control characters. Printable ASCII and anything above it pass.
 */
export const objectNameFormat = /^[^/\p{Cc}]+$/u;
export const kindFormat = /^[A-Za-z][A-Za-z0-9]*$/;
/** A Secret or ConfigMap data key, as the API server validates it. */
export const dataKeyFormat = /^[-._a-zA-Z0-9]+$/;
export const subscriptionIdFormat = /^[\x21-\x7e]+$/;
/** A RecordedMetrics' digests as main makes them (SHA-1, in hex): what a historyMetrics' held ones may be. */
export const metricsDigestLength = 40;
export const metricsDigestFormat = /^[0-9a-f]{40}$/;

/** Thrown by the checks; validateClientMessage turns it into a refusal with its message. */
export class Rejection extends Error {}

export function reject(reason: string): never {
  throw new Rejection(reason);
}

export type Fields = Record<string, unknown>;

export function record(value: unknown, where: string): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    reject(`${where} must be an object`);
  return value as Fields;
}

export function onlyFields(fields: Fields, allowed: readonly string[], where: string): void {
  for (const name of Object.keys(fields)) {
    if (!allowed.includes(name)) reject(`${where} has unknown field "${name.slice(0, 64)}"`);
  }
}

export function string(value: unknown, where: string, maxLength: number, format?: RegExp): string {
  if (typeof value !== 'string') reject(`${where} must be a string`);
  if (value.length === 0) reject(`${where} must not be empty`);
  if (value.length > maxLength) reject(`${where} is longer than ${maxLength} characters`);
  if (format && !format.test(value)) reject(`${where} "${value.slice(0, 64)}" is malformed`);
  return value;
}

export function optional<T>(value: unknown, check: (value: unknown) => T): T | undefined {
  return value === undefined ? undefined : check(value);
}

export function counter(value: unknown, where: string, minimum: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
    reject(`${where} must be an integer of at least ${minimum}`);
  }
  return value;
}

export function boolean(value: unknown, where: string): boolean {
  if (typeof value !== 'boolean') reject(`${where} must be a boolean`);
  return value;
}

export function requestId(fields: Fields): number {
  return counter(fields.requestId, 'requestId', 0);
}

export function namespace(value: unknown): string | undefined {
  return optional(value, (present) => string(present, 'namespace', messageLimits.labelLength, dnsLabel));
}

export function subscriptionId(value: unknown): string {
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

/** Builds a message from already-validated fields, leaving out the optional ones that were absent. */
export function withOptional<T extends object>(message: T, optionals: Record<string, unknown>): T {
  for (const [name, value] of Object.entries(optionals)) {
    if (value !== undefined) (message as Record<string, unknown>)[name] = value;
  }
  return message;
}

/** The object an Events question is about (listEvents, historyEvents). */
export function involvedObject(value: unknown): InvolvedObject {
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
