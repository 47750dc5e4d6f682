// What the History tab shows, kept apart from React so it can be tested without a browser: one object's
// recorded versions, the two picked for comparison, and their diff. Its questions to main are keyed by
// values, never by object identity: a window re-rendering under churn (a kinds push rebuilds every
// CatalogKind, so the same kind arrives as a new gvr object many times a second) asks nothing again,
// and a diff once shown stays shown until another pair is picked.
import { gvrKey } from '../../shared/kube/object';
import type { GroupVersionResource } from '../../shared/kube/object';
import type { HistoryDiffLine, HistoryObjectReference, ObjectVersion } from '../../shared/protocol';
import type { ViewBridge } from '../ui-state/view-bridge';

export interface ObjectHistoryState {
  readonly versions?: readonly ObjectVersion[];
  /** Ids of the (up to) two versions picked, in pick order. */
  readonly picked: readonly number[];
  /** The diff of the picked pair (older first); undefined until it has arrived. */
  readonly diff?: readonly HistoryDiffLine[];
  readonly error?: string;
}

export interface HistoryObject {
  readonly gvr: GroupVersionResource;
  readonly namespace: string;
  readonly name: string;
}

export class ObjectHistoryModel {
  private current: ObjectHistoryState = { picked: [] };
  private objectKey: string | undefined;
  private reference: HistoryObjectReference | undefined;
  private revision: string | undefined;
  private pairKey: string | undefined;
  /** Bumped whenever the object changes, so answers about the previous one are dropped. */
  private generation = 0;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly bridge: Pick<ViewBridge, 'history'>) {}

  get state(): ObjectHistoryState {
    return this.current;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Shows `object`'s history. Versions are asked for again only when the object is another one or its
   * `revision` (the live row's resourceVersion) moved; equal values ask nothing.
   */
  show(object: HistoryObject, revision: string | undefined): void {
    const key = `${gvrKey(object.gvr)}|${object.namespace}|${object.name}`;
    if (key === this.objectKey && revision === this.revision) return;
    const sameObject = key === this.objectKey;
    this.objectKey = key;
    this.revision = revision;
    if (!sameObject) {
      this.generation += 1;
      this.pairKey = undefined;
      this.reference = {
        gvr: object.gvr,
        name: object.name,
        ...(object.namespace ? { namespace: object.namespace } : {}),
      };
      this.update({ picked: [] });
    }
    const generation = this.generation;
    this.bridge.history<ObjectVersion[]>({ type: 'historyVersions', object: this.reference! }).then(
      (versions) => {
        if (generation !== this.generation) return;
        const kept =
          this.current.picked.length === 2 &&
          this.current.picked.every((id) => versions.some((version) => version.id === id));
        const { error: _error, ...rest } = this.current;
        this.update({
          ...rest,
          versions,
          picked: kept ? this.current.picked : versions.slice(-2).map((version) => version.id),
        });
        this.requestDiff();
      },
      (failure: unknown) => generation === this.generation && this.fail(failure),
    );
  }

  /** Picks a version to compare; the older of the two picks is the diff's left side. */
  pick(id: number): void {
    if (this.current.picked.includes(id)) return;
    this.update({ ...this.current, picked: [...this.current.picked.slice(-1), id] });
    this.requestDiff();
  }

  /** The picked pair as (older, newer) ids, or undefined while fewer than two are picked. */
  pair(): [number, number] | undefined {
    const [olderId, newerId] = [...this.current.picked].sort((left, right) => left - right);
    return olderId === undefined || newerId === undefined ? undefined : [olderId, newerId];
  }

  /** Asks for the picked pair's diff unless it is the pair already shown (or being fetched). */
  private requestDiff(): void {
    const pair = this.pair();
    const key = pair ? pair.join('-') : undefined;
    if (key === this.pairKey) return;
    this.pairKey = key;
    const { diff: _diff, ...rest } = this.current;
    this.update(rest);
    if (!pair || !this.reference) return;
    const generation = this.generation;
    const [olderId, newerId] = pair;
    this.bridge
      .history<HistoryDiffLine[]>({ type: 'historyDiff', object: this.reference, olderId, newerId })
      .then(
        (diff) => {
          if (generation === this.generation && this.pairKey === key) this.update({ ...this.current, diff });
        },
        (failure: unknown) => generation === this.generation && this.pairKey === key && this.fail(failure),
      );
  }

  private fail(failure: unknown): void {
    this.update({ ...this.current, error: failure instanceof Error ? failure.message : String(failure) });
  }

  private update(state: ObjectHistoryState): void {
    this.current = state;
    for (const listener of this.listeners) listener();
  }
}
