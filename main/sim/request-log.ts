// What the API server was asked, counted by verb and resource, as an apiserver's request metrics
// (apiserver_request_total) count them: how many full LISTs a client made is the figure that tells a
// relist storm from a quiet client. A LIST's continuation pages are counted apart from first pages.
import type { Verb } from './faults';

export interface RequestCounts {
  /** "list pods", "watch deployments.apps", "list-continue events", ... → count. */
  readonly [verbAndResource: string]: number;
}

export class RequestLog {
  private readonly counts = new Map<string, number>();

  /** `resource` is the storage name (pods, deployments.apps); `continued` for a LIST's later pages. */
  record(verb: Verb, resource: string, continued = false): void {
    const key = `${verb === 'list' && continued ? 'list-continue' : verb} ${resource}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** First LIST pages of `resource`: one per full list or relist. */
  fullLists(resource: string): number {
    return this.counts.get(`list ${resource}`) ?? 0;
  }

  snapshot(): RequestCounts {
    return Object.fromEntries([...this.counts].sort(([left], [right]) => left.localeCompare(right)));
  }
}
