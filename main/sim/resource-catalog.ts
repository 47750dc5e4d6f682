// The set of served ResourceTypes: the built-ins plus whatever the stored CustomResourceDefinitions
// define. A CRD's kind is served (and discoverable) as soon as the CRD is stored, and stops being
// served the moment it is deleted, as apiextensions-apiserver does once a CRD is Established.
import type { KubeObject } from '../../shared/kube/object';
import type { ResourceType } from './resource-type';
import { builtinResourceTypes, resourceKey, resourceTypesOfDefinition } from './resource-type';

export interface GroupVersions {
  group: string;
  versions: string[];
}

export class ResourceCatalog {
  private readonly builtins = builtinResourceTypes();
  /** CRD name -> the types it serves. */
  private readonly definitions = new Map<string, ResourceType[]>();

  /** Every served type, built-ins first, then CRD types in definition order. */
  all(): ResourceType[] {
    return [...this.builtins, ...[...this.definitions.values()].flat()];
  }

  find(group: string, version: string, resource: string): ResourceType | undefined {
    return this.all().find(
      (type) => type.group === group && type.version === version && type.resource === resource,
    );
  }

  /** The preferred (first) served version of a group/resource, whatever the version. */
  findAnyVersion(group: string, resource: string): ResourceType | undefined {
    return this.all().find((type) => type.group === group && type.resource === resource);
  }

  findKind(apiVersion: string, kind: string): ResourceType | undefined {
    return this.all().find(
      (type) =>
        (type.group === '' ? type.version : `${type.group}/${type.version}`) === apiVersion &&
        type.kind === kind,
    );
  }

  /** Types served at one group/version, for an APIResourceList. */
  resourcesOf(group: string, version: string): ResourceType[] {
    return this.all().filter((type) => type.group === group && type.version === version);
  }

  /** Named groups (not the core group) in first-seen order with their versions. */
  groups(): GroupVersions[] {
    const groups = new Map<string, string[]>();
    for (const type of this.all()) {
      if (type.group === '') continue;
      const versions = groups.get(type.group) ?? [];
      if (!versions.includes(type.version)) versions.push(type.version);
      groups.set(type.group, versions);
    }
    return [...groups].map(([group, versions]) => ({ group, versions }));
  }

  /** Whether the resource stored under `key` (resourceKey) is a custom resource a CRD serves. */
  isCustomResource(key: string): boolean {
    for (const types of this.definitions.values())
      if (types.some((type) => resourceKey(type) === key)) return true;
    return false;
  }

  /** Serves (or re-serves, after an update) the types of a stored CRD. */
  define(definition: KubeObject): void {
    const types = resourceTypesOfDefinition(definition);
    const taken = types.some((type) =>
      this.builtins.some((builtin) => builtin.group === type.group && builtin.resource === type.resource),
    );
    if (!taken) this.definitions.set(definition.metadata.name ?? '', types);
  }

  /** Stops serving a CRD's types; returns what it served so its objects can be dropped. */
  undefine(name: string): ResourceType[] {
    const types = this.definitions.get(name) ?? [];
    this.definitions.delete(name);
    return types;
  }
}
