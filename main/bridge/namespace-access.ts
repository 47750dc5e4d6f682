// Which namespaces a user can read when the cluster scope is closed to them, as Lens ("accessible
// namespaces"), Headlamp ("allowed namespaces") and k9s (the context's namespace) find them: the
// kubeconfig context's namespace, the names the user typed for this context (accepted even when
// Namespaces cannot be listed, and persisted), narrowed by SelfSubjectRulesReview where the server
// answers it, and by SelfSubjectAccessReview where those rules are incomplete. One instance per
// ClusterSession; the per-namespace informers follow its changes.
import type { GroupVersionResource } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import type { ResourceRule, SubjectRules } from '../kube/self-subject-rules';

/** The caller's rules in a namespace ("" for cluster-wide ones); rejects when the server will not say. */
export type RulesSource = (namespace: string) => Promise<SubjectRules>;

/** Whether the caller may `verb` `gvr` in `namespace` ("" for all); rejects when the server will not say. */
export type AccessReviewSource = (
  namespace: string,
  verb: string,
  gvr: GroupVersionResource,
) => Promise<boolean>;

/** Where the user's own namespace list for a context lives between runs (main/app keeps a file). */
export interface NamespaceListStore {
  load(): readonly string[];
  save(namespaces: readonly string[]): void;
}

export interface NamespaceAccessOptions {
  /** The kubeconfig context's `namespace:` ("default" when it sets none, as kubectl does). */
  contextNamespace: string;
  rules?: RulesSource;
  /** Asked where the rules cannot tell (the server marked them incomplete, or did not answer). */
  review?: AccessReviewSource;
  list?: NamespaceListStore;
}

/** What a kind's informers may do, as far as the rules tell. */
export type KindAccess = 'allowed' | 'denied' | 'unknown';

/** A DNS-1123 label, what a namespace name must be. */
const namespaceName = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export function isNamespaceName(name: string): boolean {
  return namespaceName.test(name);
}

function matches(values: readonly string[] | undefined, wanted: string): boolean {
  return values !== undefined && (values.includes('*') || values.includes(wanted));
}

/**
 * True when some rule lets its holder list and watch every object of `gvr` (a rule limited to
 * resourceNames does not: an informer's LIST names no object). Verbs may come from different rules.
 */
export function allowsListAndWatch(rules: readonly ResourceRule[], gvr: GroupVersionResource): boolean {
  const verbs = new Set<string>();
  for (const rule of rules) {
    if (rule.resourceNames && rule.resourceNames.length > 0) continue;
    if (!matches(rule.apiGroups, gvr.group) || !matches(rule.resources, gvr.resource)) continue;
    for (const verb of rule.verbs) verbs.add(verb);
  }
  return verbs.has('*') || (verbs.has('list') && verbs.has('watch'));
}

/** What `rules` say of `gvr`: a denial counts only when the server says its list is complete. */
export function kindAccessIn(rules: SubjectRules | undefined, gvr: GroupVersionResource): KindAccess {
  if (!rules) return 'unknown';
  if (allowsListAndWatch(rules.resourceRules, gvr)) return 'allowed';
  return rules.incomplete ? 'unknown' : 'denied';
}

export class NamespaceAccess {
  readonly contextNamespace: string;
  private added: string[];
  private readonly rules = new Map<string, Promise<SubjectRules | undefined>>();
  /** SelfSubjectAccessReview answers by namespace and kind. */
  private readonly reviews = new Map<string, Promise<KindAccess>>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: NamespaceAccessOptions) {
    this.contextNamespace = options.contextNamespace;
    this.added = normalized(options.list?.load() ?? []);
  }

  /** The names the user added for this context, sorted. */
  addedNamespaces(): string[] {
    return [...this.added];
  }

  /** Every namespace worth trying: the context's and the user's, sorted, each once. */
  candidates(): string[] {
    return normalized([this.contextNamespace, ...this.added]);
  }

  /** Replaces the user's list (invalid names dropped), persists it and tells every listener. */
  setAddedNamespaces(names: readonly string[]): void {
    const next = normalized(names);
    if (next.join(',') === this.added.join(',')) return;
    this.added = next;
    this.options.list?.save(next);
    for (const listener of [...this.listeners]) listener();
  }

  /** Forgets the rules asked so far, so the next question asks the API server again (a resync). */
  forgetRules(): void {
    this.rules.clear();
    this.reviews.clear();
  }

  /** Calls `listener` after every change of the candidates; returns the unsubscriber. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The candidates whose rules do not rule out listing and watching `gvr`. */
  async readableNamespaces(gvr: GroupVersionResource): Promise<string[]> {
    const candidates = this.candidates();
    const verdicts = await Promise.all(candidates.map((namespace) => this.accessIn(namespace, gvr)));
    return candidates.filter((_, index) => verdicts[index] !== 'denied');
  }

  /** What the cluster-wide rules say of listing and watching `gvr` across all namespaces. */
  async clusterAccess(gvr: GroupVersionResource): Promise<KindAccess> {
    return this.accessIn('', gvr);
  }

  /**
   * Whether `gvr` can be read at all: at the cluster scope, or (for a namespaced kind) in some
   * candidate namespace. For the sidebar, before any informer of the kind has run.
   */
  async kindAccess(gvr: GroupVersionResource, namespaced: boolean): Promise<KindAccess> {
    const cluster = await this.clusterAccess(gvr);
    if (cluster === 'allowed' || !namespaced) return cluster;
    const verdicts = await Promise.all(this.candidates().map((namespace) => this.accessIn(namespace, gvr)));
    if (verdicts.includes('allowed')) return 'allowed';
    return cluster === 'denied' && verdicts.every((verdict) => verdict === 'denied') ? 'denied' : 'unknown';
  }

  /** The rules' verdict, or where they cannot tell, SelfSubjectAccessReview's for list and watch. */
  private async accessIn(namespace: string, gvr: GroupVersionResource): Promise<KindAccess> {
    const verdict = kindAccessIn(await this.rulesIn(namespace), gvr);
    const review = this.options.review;
    if (verdict !== 'unknown' || !review) return verdict;
    const key = `${namespace}|${gvrKey(gvr)}`;
    let reviewed = this.reviews.get(key);
    if (!reviewed) {
      reviewed = Promise.all([review(namespace, 'list', gvr), review(namespace, 'watch', gvr)]).then(
        ([list, watch]): KindAccess => (list && watch ? 'allowed' : 'denied'),
        (): KindAccess => 'unknown',
      );
      this.reviews.set(key, reviewed);
    }
    return reviewed;
  }

  /** The rules in `namespace`, asked once per session; undefined when the server would not say. */
  private rulesIn(namespace: string): Promise<SubjectRules | undefined> {
    let rules = this.rules.get(namespace);
    if (!rules) {
      const source = this.options.rules;
      rules = source ? source(namespace).catch(() => undefined) : Promise.resolve(undefined);
      this.rules.set(namespace, rules);
    }
    return rules;
  }
}

function normalized(names: readonly string[]): string[] {
  return [...new Set(names.map((name) => name.trim()).filter(isNamespaceName))].sort();
}
