// The kinds a user may not list and watch anywhere Kubetide would look, as SelfSubjectRulesReview
// tells before any informer of them runs, so the sidebar can say "no access" for kinds nobody has
// opened. Advisory: a running feed's own 403 (or its success) always wins over this prediction.
import type { GroupVersionResource } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import type { NamespaceAccess } from './namespace-access';

/** A served resource as far as the prediction needs it (discovery's or the built-in registry's). */
export interface ResourceScope extends GroupVersionResource {
  namespaced: boolean;
}

export class ForbiddenKinds {
  private reasons = new Map<string, string>();
  /** Bumped by every refresh, so an older one that resolves late changes nothing. */
  private generation = 0;

  constructor(
    private readonly access: NamespaceAccess,
    private readonly resources: () => readonly ResourceScope[],
    private readonly onChange: () => void,
  ) {}

  /** Why `gvr` is refused everywhere, or undefined when it may be readable (or nobody knows yet). */
  reason(gvr: GroupVersionResource): string | undefined {
    return this.reasons.get(gvrKey(gvr));
  }

  /** Asks the rules again for every served kind (after discovery or the namespaces changed). */
  async refresh(): Promise<void> {
    const generation = ++this.generation;
    const reasons = new Map<string, string>();
    await Promise.all(
      this.resources().map(async (resource) => {
        const gvr = { group: resource.group, version: resource.version, resource: resource.resource };
        if ((await this.access.kindAccess(gvr, resource.namespaced)) !== 'denied') return;
        const where = resource.namespaced
          ? `at the cluster scope or in ${this.access.candidates().join(', ')}`
          : 'at the cluster scope';
        reasons.set(gvrKey(gvr), `your user may not list and watch ${resource.resource} ${where}`);
      }),
    );
    if (generation !== this.generation) return;
    this.reasons = reasons;
    this.onChange();
  }

  /** Makes any refresh under way change nothing (the session closed). */
  stop(): void {
    this.generation += 1;
  }
}
