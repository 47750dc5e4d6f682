// Objects of one owner are near copies: the pods of a ReplicaSet carry the same labels, owner
// reference, containers, resources, tolerations and often conditions. Each object entering the cache is
// compared, part by part, with the last object of its owner (its template), and every part that is
// equal is replaced by the template's, so the cache holds one copy of what siblings share. A part
// that differs is still compacted by the StringInterner. The walk replaces the string interning walk,
// and costs about as much: an equal leaf needs no table lookup.
//
// Invariant: parts are shared between cached objects, so a cached object must never be mutated (the
// informer cache's contract in client-go too). Only the incoming object, fresh from JSON.parse, is
// written to.
import type { KubeObject } from '../../shared/kube/object';
import type { StringInterner } from './object-compactor';

/** Distinct owners remembered before the table starts over (a table per feed, of the cluster's owners). */
const defaultCapacity = 20_000;

type Json = Record<string, unknown> | unknown[];

export class SiblingSharing {
  private readonly templates = new Map<string, KubeObject>();

  constructor(
    private readonly interner: StringInterner,
    private readonly capacity = defaultCapacity,
  ) {}

  get size(): number {
    return this.templates.size;
  }

  /** Compacts `object` in place against its owner's template; returns it (or the equal template). */
  share(object: KubeObject): KubeObject {
    const key = templateKey(object);
    const template = this.templates.get(key);
    const shared = template ? (this.withTemplate(object, template, '') as KubeObject) : object;
    if (!template) this.interner.internAll(object);
    if (!template && this.templates.size >= this.capacity) this.templates.clear();
    this.templates.set(key, shared);
    return shared;
  }

  /** `value` with each part equal to the template's replaced by it; the template itself when all are. */
  private withTemplate(value: unknown, template: unknown, field: string): unknown {
    if (value === template) return template;
    if (typeof value === 'string') return this.interner.internAll(value, field);
    if (value === null || typeof value !== 'object') return value;
    if (template === null || typeof template !== 'object' || Array.isArray(value) !== Array.isArray(template))
      return this.interner.internAll(value, field);
    return Array.isArray(value)
      ? this.arrayWithTemplate(value, template as unknown[], field)
      : this.recordWithTemplate(value as Record<string, unknown>, template as Record<string, unknown>);
  }

  private arrayWithTemplate(value: unknown[], template: unknown[], field: string): Json {
    let equal = value.length === template.length;
    for (let index = 0; index < value.length; index++) {
      const part =
        index < template.length
          ? this.withTemplate(value[index], template[index], field)
          : this.interner.internAll(value[index], field);
      value[index] = part;
      if (part !== template[index]) equal = false;
    }
    return equal ? template : value;
  }

  private recordWithTemplate(value: Record<string, unknown>, template: Record<string, unknown>): Json {
    let equal = true;
    let keys = 0;
    for (const key in value) {
      keys++;
      // Assigning "__proto__" would replace the prototype rather than set a field.
      if (key === '__proto__') {
        equal = false;
        continue;
      }
      const counterpart = template[key];
      const part =
        counterpart === undefined
          ? this.interner.internAll(value[key], key)
          : this.withTemplate(value[key], counterpart, key);
      value[key] = part;
      if (part !== counterpart) equal = false;
    }
    if (equal) for (const _key in template) if (--keys < 0) return value;
    return equal && keys === 0 ? template : value;
  }
}

/**
 * Siblings are the objects of one controller (its uid); objects without an owner are compared with
 * the last object of their kind, which still shares what a kind's objects have in common.
 */
function templateKey(object: KubeObject): string {
  const owners = object.metadata.ownerReferences;
  if (owners && owners.length > 0) {
    const controller = owners.find((owner) => owner.controller === true) ?? owners[0];
    if (typeof controller.uid === 'string') return controller.uid;
  }
  return `${object.apiVersion ?? ''}/${object.kind ?? ''}`;
}
