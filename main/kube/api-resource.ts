// What discovery finds, apart from how it asks (discovery.ts) and how it reads the aggregated form
// (aggregated-discovery.ts): a served resource, a group version, and what one root document yields.

/** One served resource at one version. */
export interface ApiResource {
  group: string;
  version: string;
  /** Plural, as in URLs: "deployments". */
  resource: string;
  kind: string;
  singularName: string;
  namespaced: boolean;
  verbs: string[];
  shortNames: string[];
  categories: string[];
  /** This version is the group's preferred version (the one kubectl would use). */
  preferred: boolean;
}

export interface GroupVersion {
  group: string;
  version: string;
  preferred: boolean;
}

/** What one discovery root (/api or /apis) yields, in either form. */
export interface DiscoveryRoot {
  /** Resources by group version key, from an aggregated document. */
  readonly discovered: Map<string, ApiResource[]>;
  /** Group version keys an aggregated document marks Stale. */
  readonly stale: string[];
  /** Group versions a legacy document lists, each to be fetched. */
  readonly toFetch: GroupVersion[];
}

/** "group/version" ("/v1" for the core group): the key group versions are filed by. */
export function groupVersionKey(groupVersion: { group: string; version: string }): string {
  return `${groupVersion.group}/${groupVersion.version}`;
}
