// Which live keys a travel from live must read at the moment besides those that moved since it: the
// keys whose live identity (see LiveListings) differs from the recording's newest state (NewestState),
// in the travel's scope. Kept up to date between travels from the keys either side changed (the
// journal's batches, the newest state's change log), so a travel reads only those, not every live
// row: one pass over 150,000 live rows was 0.26-0.29 s of the worker quiet, 0.45-0.55 s under load.
//
// Invariant (after update): a key is in `differing` exactly when the live rows hold it otherwise than
// the newest state's latest object for it in scope (uid and resourceVersion), or only one side holds
// it in scope. Keys of one side only out of scope never count (a scoped subscription's rows).
import type { LiveIdentities, LiveIdentity } from './live-identities';
import type { NewestState } from './moment-newest';

/** Comparisons kept per live listing: a window's subscriptions of a kind in a few scopes. */
const keptComparisons = 4;

export class LiveComparison {
  private readonly differing = new Set<string>();
  /** Live keys changed since the last update (see liveChanged). */
  private readonly pending = new Set<string>();
  /** Per state, the position of its change log read up to (see NewestState.changedSince). */
  private readonly seen: number[];

  constructor(
    private readonly identities: LiveIdentities,
    readonly states: readonly NewestState[],
    readonly namespace: string | undefined,
  ) {
    this.seen = states.map((state) => state.logEnd);
    this.rebuild();
  }

  /** Whether it compares the live rows with these very states, in this scope. */
  compares(states: readonly NewestState[], namespace: string | undefined): boolean {
    return (
      namespace === this.namespace &&
      states.length === this.states.length &&
      states.every((state, index) => state === this.states[index])
    );
  }

  /** The live rows changed `key` (a journal batch applied): it is compared again at the next update. */
  liveChanged(key: string): void {
    this.pending.add(key);
  }

  /** The keys that differ (see the invariant above), once the changes of both sides are read. */
  update(): ReadonlySet<string> {
    for (const [index, state] of this.states.entries()) {
      const changed = state.changedSince(this.seen[index]);
      if (changed === undefined) {
        // Its log was let go meanwhile (long churn between travels): compared whole once more.
        this.seen.forEach((_, at) => (this.seen[at] = this.states[at].logEnd));
        this.pending.clear();
        this.rebuild();
        return this.differing;
      }
      for (const key of changed) this.pending.add(key);
      this.seen[index] = state.logEnd;
    }
    for (const key of this.pending) this.compare(key);
    this.pending.clear();
    return this.differing;
  }

  private rebuild(): void {
    this.differing.clear();
    const identities = this.identities;
    identities.forEach((live, key) => {
      if (this.differs(key, live)) this.differing.add(key);
    });
    // The newest state's keys the live rows lack (those they hold were compared above).
    for (const state of this.states)
      for (const key of state.heldKeys()) if (!identities.has(key)) this.compare(key);
  }

  private compare(key: string): void {
    if (this.differs(key, this.identities.get(key))) this.differing.add(key);
    else this.differing.delete(key);
  }

  private differs(key: string, live: LiveIdentity | undefined): boolean {
    let now:
      | { readonly change: number; readonly namespace: string; uid: string; resourceVersion: string }
      | undefined;
    for (const state of this.states) {
      const latest = state.latest(key);
      if (latest !== undefined && (now === undefined || latest.change > now.change)) now = latest;
    }
    const namespace = this.namespace;
    const inScope = now !== undefined && (namespace === undefined || now.namespace === namespace);
    if (live === undefined) return inScope;
    return !inScope || live.uid !== now!.uid || live.resourceVersion !== now!.resourceVersion;
  }
}

/** The comparisons of one live listing with the newest states (a few scopes), kept between travels. */
export class LiveComparisons {
  private readonly kept: LiveComparison[] = [];

  /** Whether a journal batch must be told of (see liveChanged). */
  get size(): number {
    return this.kept.length;
  }

  /** The live rows changed `key`: every comparison reads it again. */
  liveChanged(key: string): void {
    for (const comparison of this.kept) comparison.liveChanged(key);
  }

  /** The comparison of `identities` with `states` in `namespace`, kept or made (one pass). */
  of(
    identities: LiveIdentities,
    states: readonly NewestState[],
    namespace: string | undefined,
  ): LiveComparison {
    let comparison = this.kept.find((kept) => kept.compares(states, namespace));
    if (comparison === undefined) {
      comparison = new LiveComparison(identities, states, namespace);
      this.kept.push(comparison);
      if (this.kept.length > keptComparisons) this.kept.shift();
    }
    return comparison;
  }
}
