// The keys of the objects metrics.k8s.io lists, one string per object for as long as it is listed.
// A poll of 150,000 pods made 150,000 new "namespace/name" strings, which the poll's message then
// held until the next poll (15 s): each was promoted to the old generation and died there. Here a
// key made again is looked up and the string kept from the poll before is used, so the fresh one
// dies young; a key no complete poll has listed since is forgotten.
//
// Where a worker thread reads the polls (metrics-worker.ts), main holds the same strings by number
// (KeyTable): each key is numbered once, sent to main once, and its number freed when it is forgotten.

interface KeptKey {
  readonly key: string;
  /** The poll that last made it. */
  seen: number;
  /** Its number once numbered (see numbered), else -1. */
  id: number;
}

/** Keys numbered for the first time: main's table learns them before reading a message's numbers. */
export interface NewKeys {
  readonly ids: number[];
  readonly keys: string[];
}

export class MetricsKeys {
  private readonly kept = new Map<string, KeptKey>();
  private poll = 0;
  private nextId = 0;
  /** Numbers freed by forgotten keys, reused first so main's table stays dense. */
  private readonly freeIds: number[] = [];
  private forgotten: number[] = [];

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
    if (kept === undefined) this.kept.set(fresh, (kept = { key: fresh, seen: this.poll, id: -1 }));
    kept.seen = this.poll;
    return kept.key;
  }

  /** The poll begun last is complete: keys it did not make are forgotten. */
  sweep(): void {
    for (const [key, kept] of this.kept)
      if (kept.seen !== this.poll) {
        this.kept.delete(key);
        if (kept.id >= 0) {
          this.freeIds.push(kept.id);
          this.forgotten.push(kept.id);
        }
      }
    this.lastCount = this.kept.size;
  }

  /**
   * The numbers of `keys` (each kept), numbering those never numbered: `fresh` gets them. The
   * numbers forgotten since the last call must be taken (takeForgotten) and applied first, as a number
   * freed is given again.
   */
  numbered(keys: readonly string[], fresh: NewKeys): Int32Array {
    const ids = new Int32Array(keys.length);
    for (let index = 0; index < keys.length; index++) {
      const kept = this.kept.get(keys[index]!)!;
      if (kept.id < 0) {
        kept.id = this.freeIds.pop() ?? this.nextId++;
        fresh.ids.push(kept.id);
        fresh.keys.push(kept.key);
      }
      ids[index] = kept.id;
    }
    return ids;
  }

  /** The numbers of the keys forgotten since the last call. */
  takeForgotten(): number[] {
    const forgotten = this.forgotten;
    this.forgotten = [];
    return forgotten;
  }
}

/** Main's side of a worker's MetricsKeys: each number's key, the same string from poll to poll. */
export class KeyTable {
  private readonly keys: (string | undefined)[] = [];

  /** Forgets `forgotten`, then learns `fresh` (in that order: a number freed may be given again). */
  update(forgotten: readonly number[], fresh: NewKeys): void {
    for (const id of forgotten) this.keys[id] = undefined;
    for (let index = 0; index < fresh.ids.length; index++) this.keys[fresh.ids[index]!] = fresh.keys[index]!;
  }

  /** Appends the keys numbered `ids` to `keys`; every one must be known. */
  appendKeys(ids: ArrayLike<number>, keys: string[]): void {
    for (let index = 0; index < ids.length; index++) {
      const key = this.keys[ids[index]!];
      if (key === undefined) throw new Error(`metrics key number ${ids[index]} was never sent`);
      keys.push(key);
    }
  }
}
