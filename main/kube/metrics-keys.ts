// The keys of the objects metrics.k8s.io lists, one string per object for as long as it is listed.
// A poll of 150,000 pods made 150,000 new "namespace/name" strings, which the poll's message then
// held until the next poll (15 s): each was promoted to the old generation and died there. Here a
// key made again is looked up and the string kept from the poll before is used, so the fresh one
// dies young; a key no complete poll has listed since is forgotten.

interface KeptKey {
  readonly key: string;
  /** The poll that last made it. */
  seen: number;
}

export class MetricsKeys {
  private readonly kept = new Map<string, KeptKey>();
  private poll = 0;

  /** How many objects the last complete poll listed: what the next one's columns are sized for. */
  lastCount = 0;

  /** A poll begins: the keys it makes are kept past its sweep. */
  begin(): void {
    this.poll++;
  }

  /** The key of `namespace`/`name` ("name" when cluster-scoped), the same string as the last poll's. */
  key(namespace: string, name: string): string {
    const fresh = namespace ? `${namespace}/${name}` : name;
    let kept = this.kept.get(fresh);
    if (kept === undefined) this.kept.set(fresh, (kept = { key: fresh, seen: this.poll }));
    kept.seen = this.poll;
    return kept.key;
  }

  /** The poll begun last is complete: keys it did not make are forgotten. */
  sweep(): void {
    for (const [key, kept] of this.kept) if (kept.seen !== this.poll) this.kept.delete(key);
    this.lastCount = this.kept.size;
  }
}
