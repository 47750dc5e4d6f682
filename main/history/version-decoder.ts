// Reads stored versions back: a change's payload inflates against its base's JSON, recursively down
// to a full version. A decoder memoizes what it has inflated, so rebuilding a whole stream, walking an
// object's history, or scrubbing back and forth over nearby moments inflates each version once.
import type { DecodedVersion } from './object-codec';
import { decodeVersion } from './object-codec';
import type { SqliteDatabase } from './schema';

interface StoredVersion {
  base: number | null;
  hint: number | null;
  encoding: number;
  payload: Uint8Array | null;
}

export class VersionDecoder {
  private readonly memo = new Map<number, DecodedVersion>();
  private memoChars = 0;
  private readonly select;

  constructor(
    database: SqliteDatabase,
    /** Characters of JSON kept before the memo is cleared (default 32 Mi): a bound, not a cache policy. */
    private readonly memoLimit = 32 * 1024 * 1024,
  ) {
    this.select = database.prepare('SELECT base, hint, encoding, payload FROM changes WHERE id = ?');
  }

  /** The JSON text of the version change `id` stored ("null" for a deletion with no known state). */
  json(id: number): string {
    return this.version(id).json;
  }

  private version(id: number): DecodedVersion {
    const known = this.memo.get(id);
    if (known !== undefined) return known;
    // Walk down to the nearest full or memoized version, then inflate back up.
    const chain: { id: number; version: StoredVersion }[] = [];
    let current: number | null = id;
    let baseVersion: DecodedVersion | undefined;
    while (current !== null) {
      const memoized = this.memo.get(current);
      if (memoized !== undefined) {
        baseVersion = memoized;
        break;
      }
      const version = this.select.get(current) as StoredVersion | undefined;
      if (!version) throw new Error(`change ${current} (a version base of change ${id}) is missing`);
      chain.push({ id: current, version });
      if (version.base === null) break;
      current = version.base;
    }
    for (let index = chain.length - 1; index >= 0; index--) {
      const { id: changeId, version } = chain[index];
      let decoded: DecodedVersion;
      if (version.payload === null) {
        if (baseVersion === undefined) throw new Error(`change ${changeId} repeats a base it does not name`);
        decoded = baseVersion;
      } else {
        // Hints are bounded in depth by the writer, like base chains, so this recursion is shallow.
        const hintJson = version.hint === null ? undefined : this.json(version.hint);
        const base = version.base === null ? undefined : baseVersion;
        decoded = decodeVersion(version.encoding, version.payload, base, hintJson);
      }
      this.remember(changeId, decoded);
      baseVersion = decoded;
    }
    return baseVersion!;
  }

  private remember(id: number, version: DecodedVersion): void {
    // Parsed trees are counted as twice their text: a rough bound, which is all the memo needs.
    const cost = version.json.length * 3;
    if (this.memoChars + cost > this.memoLimit) {
      this.memo.clear();
      this.memoChars = 0;
    }
    this.memo.set(id, version);
    this.memoChars += cost;
  }
}
