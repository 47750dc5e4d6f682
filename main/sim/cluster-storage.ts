// The generic registry (apiserver's genericregistry.Store) over the ObjectStore: create with
// generateName, uid, creationTimestamp and defaults; update with optimistic concurrency and status
// kept apart from spec; delete with preconditions and owner cascade left to the GarbageCollector.
// The HTTP handlers and the simulated controllers both write through here, so every change is a
// proper event with a fresh resourceVersion.
import type { KubeObject } from '../../shared/kube/object';
import { alreadyExists, badRequest, conflict, invalid, notFound } from './api-errors';
import type { SimClock } from './clock';
import { formatTime } from './clock';
import { applyDefaults, hasGeneration } from './defaults';
import type { ObjectStore } from './object-store';
import { StoredObject } from './object-store';
import type { SeededRandom } from './random';
import type { ResourceCatalog } from './resource-catalog';
import type { ResourceType } from './resource-type';
import { apiVersionOf, isCustomResource, objectKey, resourceKey } from './resource-type';
import { unstructuredJson } from './unstructured-json';

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

export interface DeleteOptions {
  propagationPolicy?: PropagationPolicy;
  preconditions?: { uid?: string; resourceVersion?: string };
  /** Check only: nothing is deleted. */
  dryRun?: boolean;
}

/** Called before an object is removed with the Orphan policy, so its dependents lose the owner reference. */
export type OrphanHandler = (owner: StoredObject) => void;

const namespaceType = { group: '', resource: 'namespaces' };
const namePattern = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

export class ClusterStorage {
  onOrphan: OrphanHandler = () => {};

  constructor(
    readonly store: ObjectStore,
    readonly catalog: ResourceCatalog,
    private readonly clock: SimClock,
    private readonly random: SeededRandom,
  ) {}

  get(type: ResourceType, namespace: string | undefined, name: string): StoredObject {
    const stored = this.store.get(resourceKey(type), objectKey(scope(type, namespace), name));
    if (!stored) throw notFound(type, name);
    return stored;
  }

  find(type: ResourceType, namespace: string | undefined, name: string): StoredObject | undefined {
    return this.store.get(resourceKey(type), objectKey(scope(type, namespace), name));
  }

  /** With `dryRun` everything is checked and defaulted, and the result returned without being stored. */
  create(type: ResourceType, namespace: string | undefined, input: KubeObject, dryRun = false): StoredObject {
    const object = structuredClone(input);
    object.metadata ??= {};
    const metadata = object.metadata;
    const targetNamespace = scope(type, namespace ?? metadata.namespace);
    if (type.namespaced && !targetNamespace)
      throw badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    if (namespace && metadata.namespace && metadata.namespace !== namespace)
      throw badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    if (!metadata.name && metadata.generateName)
      metadata.name = `${metadata.generateName}${this.random.suffix(5)}`;
    const name = metadata.name ?? '';
    if (!name)
      throw invalid(type, '', [
        {
          type: 'FieldValueRequired',
          field: 'metadata.name',
          message: 'Required value: name or generateName is required',
        },
      ]);
    // RBAC's kinds take any path segment ("system:basic-user"), as kube-apiserver validates them.
    if (type.group === 'rbac.authorization.k8s.io') {
      if (name === '.' || name === '..' || /[/%]/.test(name))
        throw invalid(type, name, [
          {
            type: 'FieldValueInvalid',
            field: 'metadata.name',
            message: `Invalid value: "${name}": may not be '.' or '..' and may not contain '/' or '%'`,
          },
        ]);
    } else if (!namePattern.test(name) && type.kind !== 'Event')
      throw invalid(type, name, [
        {
          type: 'FieldValueInvalid',
          field: 'metadata.name',
          message: `Invalid value: "${name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.'`,
        },
      ]);
    if (targetNamespace && !this.store.get(resourceKey(namespaceType), targetNamespace))
      throw notFound(namespaceType, targetNamespace);
    const key = objectKey(targetNamespace, name);
    if (this.store.get(resourceKey(type), key)) throw alreadyExists(type, name);
    object.apiVersion = apiVersionOf(type);
    object.kind = type.kind;
    if (targetNamespace) metadata.namespace = targetNamespace;
    else delete metadata.namespace;
    metadata.uid = this.random.uid();
    metadata.creationTimestamp = formatTime(this.clock.now());
    delete metadata.resourceVersion;
    delete metadata.deletionTimestamp;
    if (hasGeneration(object)) metadata.generation = 1;
    applyDefaults(type.kind, object, this.random);
    if (isDefinition(type)) markEstablished(object);
    if (dryRun) return new StoredObject(object, this.store.resourceVersion, isCustomResource(type));
    const stored = this.store.put(resourceKey(type), key, object);
    if (isDefinition(type)) this.catalog.define(stored.object);
    return stored;
  }

  /**
   * Replaces an object. A stale metadata.resourceVersion gives 409 Conflict; an absent one is an
   * unconditional update. Writes to the main resource keep the stored status when the kind has a
   * status subresource, and writes to /status change only the status. Controllers write with
   * 'all' (spec and status at once, as no API client can). A no-op writes nothing.
   */
  update(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    input: KubeObject,
    subresource?: 'status' | 'all',
    dryRun = false,
  ): StoredObject {
    return this.replace(type, namespace, name, structuredClone(input), subresource, dryRun);
  }

  /** update() with `input` owned by the store from here on (a private copy nobody else holds). */
  private replace(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    input: KubeObject,
    subresource: 'status' | 'all' | undefined,
    dryRun: boolean,
  ): StoredObject {
    const current = this.get(type, namespace, name);
    const requestedVersion = input.metadata?.resourceVersion;
    if (requestedVersion && requestedVersion !== String(current.resourceVersion)) throw conflict(type, name);
    if (input.metadata?.name && input.metadata.name !== name)
      throw badRequest(
        `the name of the object (${input.metadata.name}) does not match the name on the URL (${name})`,
      );
    const previous = current.object;
    let next: KubeObject;
    if (subresource === 'status') {
      next = { ...structuredClone(previous), status: input.status };
    } else {
      next = input;
      next.metadata = {
        ...next.metadata,
        name,
        uid: previous.metadata.uid,
        creationTimestamp: previous.metadata.creationTimestamp,
        generation: previous.metadata.generation,
      };
      if (previous.metadata.namespace) next.metadata.namespace = previous.metadata.namespace;
      if (type.status && subresource !== 'all') {
        if (previous.status === undefined) delete next.status;
        else next.status = structuredClone(previous.status);
      }
      if (hasGeneration(next) && specChanged(next, previous))
        next.metadata.generation = (previous.metadata.generation ?? 0) + 1;
    }
    next.apiVersion = apiVersionOf(type);
    next.kind = type.kind;
    next.metadata.resourceVersion = previous.metadata.resourceVersion;
    if (isDefinition(type)) markEstablished(next);
    if (current.writesAs(next)) return current;
    if (dryRun) return new StoredObject(next, current.resourceVersion, current.unstructured);
    const stored = this.store.put(resourceKey(type), objectKey(scope(type, namespace), name), next);
    if (isDefinition(type)) this.catalog.define(stored.object);
    return stored;
  }

  /** Reads, lets `change` edit a private copy, and writes it back unless it returns false. */
  mutate(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    change: (object: KubeObject) => boolean | void,
    subresource: 'status' | 'all' = 'all',
  ): StoredObject | undefined {
    const current = this.find(type, namespace, name);
    if (!current) return undefined;
    const copy = structuredClone(current.object);
    if (change(copy) === false) return current;
    return this.replace(type, namespace, name, copy, subresource, false);
  }

  /**
   * Deletes at once (finalizers are not honoured). Dependents are deleted in the background by the
   * GarbageCollector unless the policy is Orphan. Deleting a CRD deletes its objects and stops
   * serving its kind.
   */
  delete(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    options: DeleteOptions = {},
  ): StoredObject {
    const current = this.get(type, namespace, name);
    const { uid, resourceVersion } = options.preconditions ?? {};
    if (
      (uid && uid !== current.object.metadata.uid) ||
      (resourceVersion && resourceVersion !== String(current.resourceVersion))
    )
      throw conflict(type, name);
    if (options.dryRun) return current;
    if (options.propagationPolicy === 'Orphan') this.onOrphan(current);
    if (isDefinition(type)) {
      for (const served of this.catalog.undefine(name)) {
        const resource = resourceKey(served);
        for (const stored of [...this.store.values(resource)])
          this.store.remove(resource, keyOf(stored.object));
        this.store.dropResource(resource);
      }
    }
    const removed = this.store.remove(resourceKey(type), objectKey(scope(type, namespace), name));
    if (!removed) throw notFound(type, name);
    return removed;
  }
}

function scope(type: ResourceType, namespace: string | undefined): string | undefined {
  return type.namespaced ? namespace || undefined : undefined;
}

function keyOf(object: KubeObject): string {
  return objectKey(object.metadata.namespace, object.metadata.name ?? '');
}

/**
 * Whether the spec changed as a value, whatever its keys' order: a client writes a custom resource back
 * as it read it (keys sorted), not as it was first given. The texts in their own order first: the
 * controllers' and the churn's writes copy the stored object, and sorting is for when they differ.
 */
function specChanged(next: KubeObject, previous: KubeObject): boolean {
  return (
    JSON.stringify(next.spec) !== JSON.stringify(previous.spec) &&
    unstructuredJson(next.spec) !== unstructuredJson(previous.spec)
  );
}

function isDefinition(type: ResourceType): boolean {
  return type.group === 'apiextensions.k8s.io' && type.resource === 'customresourcedefinitions';
}

function markEstablished(definition: KubeObject): void {
  const spec = definition.spec as { names?: object } | undefined;
  definition.status = {
    conditions: [
      { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' },
      {
        type: 'Established',
        status: 'True',
        reason: 'InitialNamesAccepted',
        message: 'the initial names have been accepted',
      },
    ],
    acceptedNames: spec?.names ?? {},
    storedVersions: (
      (definition.spec as { versions?: { name: string; storage?: boolean }[] })?.versions ?? []
    )
      .filter((version) => version.storage)
      .map((version) => version.name),
  };
}
