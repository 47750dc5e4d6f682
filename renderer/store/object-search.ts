// The search box's answers: objects of every mirrored kind found by name or by label, grouped by kind.
// Each kind answers from an index, never by walking its rows: names from a NameSearchIndex (kept per
// mirror for as long as the mirror lives, so the palette opening again costs nothing), labels from the
// mirror's own label index, where `key=value` is a lookup and `key=val` walks only that key's distinct
// values. Every kind returns at most `perKind` keys and counts at most `countLimit`, so one keystroke
// costs a binary search plus a bounded walk per kind, at 150 or 150,000 objects.
import { NameSearchIndex } from './name-search-index';
import type { SubscriptionMirror } from './subscription-mirror';

export interface SearchedKind {
  /** The caller's name for the kind (the catalog id); results carry it back. */
  readonly id: string;
  readonly mirror: SubscriptionMirror;
}

export interface KindMatches {
  readonly id: string;
  /** The first matches (name order for a name, label-value order for a label), at most `perKind`. */
  readonly keys: string[];
  /** Matching objects, counted up to `countLimit`. */
  readonly count: number;
  readonly countIsLowerBound: boolean;
}

export interface SearchAnswer {
  /** Kinds with at least one match, in the order they were given. */
  readonly groups: KindMatches[];
  /** Index entries and label values read in all (the work of this keystroke). */
  readonly examined: number;
}

export interface SearchLimits {
  readonly perKind: number;
  readonly countLimit: number;
}

const defaultLimits: SearchLimits = { perKind: 6, countLimit: 1000 };

/** A query `key=value` (a label; the value may be partial) or a name (or part of one). */
export type ParsedSearch =
  | { readonly type: 'name'; readonly prefix: string }
  | { readonly type: 'label'; readonly key: string; readonly valuePrefix: string };

export function parseSearch(query: string): ParsedSearch | undefined {
  const text = query.trim();
  if (text === '') return undefined;
  const equals = text.indexOf('=');
  if (equals > 0)
    return { type: 'label', key: text.slice(0, equals).trim(), valuePrefix: text.slice(equals + 1).trim() };
  // Object names are lower-case DNS names, so a name query is too.
  return { type: 'name', prefix: text.toLowerCase() };
}

export class ObjectSearch {
  private readonly nameIndexes = new WeakMap<SubscriptionMirror, NameSearchIndex>();

  search(kinds: readonly SearchedKind[], query: string, limits: SearchLimits = defaultLimits): SearchAnswer {
    const parsed = parseSearch(query);
    const groups: KindMatches[] = [];
    let examined = 0;
    if (!parsed) return { groups, examined };
    for (const { id, mirror } of kinds) {
      const matches =
        parsed.type === 'name'
          ? this.nameIndex(mirror).find(parsed.prefix, limits.perKind, limits.countLimit)
          : labelMatches(mirror, parsed.key, parsed.valuePrefix, limits);
      examined += matches.examined;
      if (matches.count > 0)
        groups.push({
          id,
          keys: matches.keys,
          count: matches.count,
          countIsLowerBound: matches.countIsLowerBound,
        });
    }
    return { groups, examined };
  }

  private nameIndex(mirror: SubscriptionMirror): NameSearchIndex {
    let index = this.nameIndexes.get(mirror);
    if (!index) {
      index = new NameSearchIndex(mirror.changes);
      this.nameIndexes.set(mirror, index);
    }
    return index;
  }
}

/**
 * Rows labelled `key` with a value starting with `valuePrefix` (exactly `valuePrefix` first). One
 * lookup for an exact value; otherwise one step per distinct value of the key, never per row.
 */
function labelMatches(mirror: SubscriptionMirror, key: string, valuePrefix: string, limits: SearchLimits) {
  const values = mirror.indexes.labelValues(key);
  const keys: string[] = [];
  let count = 0;
  let examined = 0;
  let countIsLowerBound = false;
  if (!values) return { keys, count, countIsLowerBound, examined };
  const take = (rowKeys: ReadonlySet<string>) => {
    for (const rowKey of rowKeys) {
      if (keys.length >= limits.perKind) break;
      keys.push(rowKey);
    }
    count += rowKeys.size;
  };
  const exact = values.get(valuePrefix);
  if (exact) take(exact);
  for (const [value, rowKeys] of values) {
    examined += 1;
    if (count >= limits.countLimit) {
      countIsLowerBound = true;
      break;
    }
    if (value !== valuePrefix && value.startsWith(valuePrefix)) take(rowKeys);
  }
  return {
    keys,
    count: Math.min(count, limits.countLimit),
    countIsLowerBound: countIsLowerBound || count > limits.countLimit,
    examined,
  };
}
