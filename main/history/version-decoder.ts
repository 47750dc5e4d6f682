// Reads stored versions back: a change's payload inflates against its base's JSON, recursively down
// to a full version. A decoder memoizes what it has inflated, so rebuilding a whole stream, walking an
// object's history, or scrubbing back and forth over nearby moments inflates each version once.
import { ChangeBlockReader } from './change-blocks';
import type { Json } from './merge-patch';
import type { DecodedVersion } from './object-codec';
import { VersionEncoding, decodeVersion, encodingKind, wholeVersion } from './object-codec';
import type { SqliteDatabase } from './schema';

interface StoredVersion {
  id: number;
  base: number | null;
  hint: number | null;
  encoding: number;
  payload: Uint8Array | null;
}

/** Longer base chains than this are treated as damage; the writer's are at most fullVersionEvery. */
const maximumChainLength = 10_000;

export class VersionDecoder {
  private readonly memo = new Map<number, DecodedVersion>();
  private memoChars = 0;
  /** Whether the last version decoded found a memoized version in its chain (see version()). */
  private basesMemoized = true;
  private readonly selectChain;
  private readonly selectMany;
  /** Rows read ahead by prefetch(), by change id: what version() reads instead of a query of its own. */
  private readonly prefetched = new Map<number, StoredVersion>();
  /** The blocks of versions stored in one (a list's). */
  private readonly blocks: ChangeBlockReader;

  constructor(
    database: SqliteDatabase,
    /** About this many characters of versions kept before the memo is cleared (default 32 Mi): a bound. */
    private readonly memoLimit = 32 * 1024 * 1024,
    /**
     * Forget a version once a version built on it is decoded. For reading in recorded order (playback),
     * where an object's next change is built on its last one: the memo then holds about one version
     * per object, where keeping every version (each a whole parsed object, whatever its patch weighed)
     * made garbage collection a third of playback's time.
     */
    private readonly forgetsBases = false,
  ) {
    this.blocks = new ChangeBlockReader(database);
    // A version's base chain in one query, newest first (a chain has one row per depth, so the
    // recursion's queue yields them in order): the writer bounds its length (a full version every
    // fullVersionEvery changes), and the depth guard stops a cycle a damaged file could hold. Each
    // step reads its row once, carrying the columns along, which halves the pages a cold chain reads.
    this.selectChain = database.prepare(
      `WITH RECURSIVE chain (id, base, hint, encoding, payload, depth) AS (
         SELECT id, base, hint, encoding, payload, 0 FROM changes WHERE id = ?
         UNION ALL
         SELECT changes.id, changes.base, changes.hint, changes.encoding, changes.payload, chain.depth + 1
         FROM changes JOIN chain ON changes.id = chain.base WHERE chain.depth < ?)
       SELECT id, base, hint, encoding, payload FROM chain`,
    );
    this.selectMany = database.prepare(
      'SELECT id, base, hint, encoding, payload FROM changes WHERE id IN (SELECT value FROM json_each(?))',
    );
  }

  /**
   * Reads the stored rows every version of `ids` is decoded from (their base and hint chains down to
   * memoized or full versions), a level of the chains per query, replacing what an earlier prefetch
   * read. Rebuilding a moment decodes thousands of unrelated objects' versions: one query per chain
   * level instead of one per object. A query that fails (damage) ends the read-ahead quietly: version()
   * then queries each chain itself and reports what it cannot read, object by object.
   */
  prefetch(ids: Iterable<number>): void {
    this.prefetched.clear();
    let wanted = [...new Set(ids)].filter((id) => !this.memo.has(id));
    for (let depth = 0; wanted.length > 0 && depth < maximumChainLength; depth++) {
      let rows: StoredVersion[];
      try {
        rows = this.selectMany.all(JSON.stringify(wanted)) as StoredVersion[];
      } catch {
        return;
      }
      const next = new Set<number>();
      for (const row of rows) this.prefetched.set(row.id, row);
      for (const row of rows) {
        for (const reference of [row.base, row.hint]) {
          if (reference !== null && !this.memo.has(reference) && !this.prefetched.has(reference))
            next.add(reference);
        }
      }
      wanted = [...next];
    }
  }

  /** The JSON text of the version change `id` stored ("null" for a deletion with no known state). */
  json(id: number): string {
    return this.version(id).json;
  }

  /**
   * The parsed version change `id` stored (null for a deletion with no known state). Shared with the
   * decoder's memo and with other versions' trees: read it, never mutate it.
   */
  tree(id: number): Json {
    return this.version(id).tree;
  }

  /** What change `id`'s payload holds, decoded: the dictionary of a chainedPatch built on it. */
  stored(id: number): string {
    return this.version(id).stored;
  }

  private version(id: number): DecodedVersion {
    const known = this.memo.get(id);
    if (known !== undefined) return known;
    // Take the stored chain down to the nearest full or memoized version, then inflate back up.
    // Scanning in order (playback, export), the base is usually memoized: reading the version and its
    // base is enough. Rebuilding a moment, no base is: the whole chain is read at once. Which case
    // holds is guessed from the last version read; a wrong guess costs one more query.
    const prefetched = this.prefetchedChain(id);
    if (prefetched !== undefined) return this.inflate(id, this.walk(id, prefetched));
    let chain = this.walk(
      id,
      this.selectChain.all(id, this.basesMemoized ? 1 : maximumChainLength) as StoredVersion[],
    );
    if (chain.missing !== undefined && this.basesMemoized)
      chain = this.walk(id, this.selectChain.all(id, maximumChainLength) as StoredVersion[]);
    if (chain.base !== undefined) this.basesMemoized = true;
    else if (chain.versions.length > 1) this.basesMemoized = false;
    return this.inflate(id, chain);
  }

  /** Decodes `chain` (walked from `id`) from its base up, remembering each version. */
  private inflate(
    id: number,
    chain: { versions: StoredVersion[]; base: DecodedVersion | undefined; missing: number | undefined },
  ): DecodedVersion {
    if (chain.missing !== undefined)
      throw new Error(`change ${chain.missing} (a version base of change ${id}) is missing`);
    let baseVersion = chain.base;
    for (let index = chain.versions.length - 1; index >= 0; index--) {
      const version = chain.versions[index];
      const changeId = version.id;
      let decoded: DecodedVersion;
      if (version.payload === null) {
        if (baseVersion === undefined) throw new Error(`change ${changeId} repeats a base it does not name`);
        decoded = baseVersion;
      } else if (encodingKind(version.encoding) === VersionEncoding.block) {
        // Like a full version, it stands alone (its base is NULL): its text is in its block.
        decoded = wholeVersion(this.blocks.text(version.payload));
      } else {
        // Hints are bounded in depth by the writer, like base chains, so this recursion is shallow.
        const hintJson = version.hint === null ? undefined : this.json(version.hint);
        const base = version.base === null ? undefined : baseVersion;
        decoded = decodeVersion(version.encoding, version.payload, base, hintJson);
      }
      this.remember(changeId, decoded);
      if (this.forgetsBases && version.base !== null) this.forget(version.base);
      baseVersion = decoded;
    }
    return baseVersion!;
  }

  /** `id`'s chain, newest first, from prefetched rows down to a memoized or full version, if all read. */
  private prefetchedChain(id: number): StoredVersion[] | undefined {
    const chain: StoredVersion[] = [];
    for (let next: number | null = id; next !== null && !this.memo.has(next);) {
      const row = this.prefetched.get(next);
      if (row === undefined || chain.length >= maximumChainLength) return undefined;
      chain.push(row);
      next = row.base;
    }
    return chain;
  }

  /**
   * The versions of `stored` (a chain from `id`, newest first) down to a memoized or full one: `base`
   * is the memoized one where the walk stopped; `missing` names the base the rows did not reach.
   */
  private walk(
    id: number,
    stored: readonly StoredVersion[],
  ): { versions: StoredVersion[]; base: DecodedVersion | undefined; missing: number | undefined } {
    const versions: StoredVersion[] = [];
    let expected: number | null = id;
    for (const version of stored) {
      if (version.id !== expected) break;
      const memoized = this.memo.get(version.id);
      if (memoized !== undefined) return { versions, base: memoized, missing: undefined };
      versions.push(version);
      expected = version.base;
    }
    const memoized = expected === null ? undefined : this.memo.get(expected);
    if (memoized !== undefined) return { versions, base: memoized, missing: undefined };
    return { versions, base: undefined, missing: expected ?? undefined };
  }

  private forget(id: number): void {
    const version = this.memo.get(id);
    if (version === undefined) return;
    this.memo.delete(id);
    this.memoChars -= version.stored.length * 3;
  }

  private remember(id: number, version: DecodedVersion): void {
    // A decoded version costs about three times what its payload held (its text, its tree, and the
    // parts of the tree a patch replaced): a rough bound, which is all the memo needs.
    const cost = version.stored.length * 3;
    if (this.memoChars + cost > this.memoLimit) {
      this.memo.clear();
      this.memoChars = 0;
    }
    this.memo.set(id, version);
    this.memoChars += cost;
  }
}
