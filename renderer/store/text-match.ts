// The filter bar's free text: a case-insensitive substring of a row's name, its namespace, or one of
// its labels written key=value. `matchesText` is the definition, checked on one row; `textMatcher`
// answers the same question for a whole scan without reading rows. The ui bench's typing profile at
// 150,000 pods spent most of each text scan reading every row (a Map lookup, then its labels) even
// though the answer is in two places read far more cheaply:
//  - name and namespace: a row's key is "namespace/name" (objectKey), so text without '/' is in one
//    of them exactly when it is in the key;
//  - labels: the label indexes hold each distinct key=value once, so the text is checked against a
//    few thousand pairs instead of every row's labels, and the rows of the pairs it is in are taken
//    from the indexes' key sets while they are few. When they are most rows (the text is in a label
//    key such as app), the few rows lacking that label answer instead (textExclusions).
import type { Row } from '../../shared/protocol/row';
import type { ValueIndex } from './row-indexes';
import { KeyTextSearch } from './key-text-search';
import { MissingLabel } from './missing-label';
import { lowerCaseIncludes, MixedCaseKeys } from './mixed-case-keys';
import type { SubscriptionMirror } from './subscription-mirror';

/** Whether `row` matches the lower-cased free text `lowerText`. */
export function matchesText(row: Row, lowerText: string): boolean {
  if (lowerCaseIncludes(row.name, lowerText)) return true;
  if (lowerCaseIncludes(row.namespace, lowerText)) return true;
  const labels = row.labels;
  for (const key in labels) {
    if (labelPairMatches(key, labels[key], lowerText)) return true;
  }
  return false;
}

/**
 * Whether "key=value" holds `lowerText`. Text without '=' found there lies within the key or within
 * the value, so the two are checked apart and no string is built.
 */
function labelPairMatches(key: string, value: string, lowerText: string): boolean {
  if (lowerText.includes('=')) return lowerCaseIncludes(`${key}=${value}`, lowerText);
  return lowerCaseIncludes(key, lowerText) || lowerCaseIncludes(value, lowerText);
}

/**
 * Past this share of the rows in the key sets of the pairs that hold the text, they are not merged:
 * the first letters typed (`a`, in the label key pod-template-hash and in most app values) are in
 * nearly every row, and merging those sets built a Set of every key, 120-200 ms of CPU a keystroke at
 * 150,000 pods. Such labels are answered from the few rows that lack them (MissingLabel), values
 * from the row.
 */
const maxMergedShare = 1 / 8;

/** matchesText by key for the rows of `mirror`, as of now (build a new one after the mirror changes). */
export function textMatcher(mirror: SubscriptionMirror, lowerText: string): (key: string) => boolean {
  const inLabels = labelTextMatcher(mirror, lowerText);
  const inKey = keyMatcher(mirror, lowerText);
  return (key) => inKey(key) || inLabels(key);
}

/**
 * Whether the key's name or namespace holds `lowerText`: for text without '/', whether the key does
 * (only the few keys that lower-casing changes are lower-cased); otherwise read from the row.
 */
function keyMatcher(mirror: SubscriptionMirror, lowerText: string): (key: string) => boolean {
  if (lowerText.includes('/')) return (key) => inNameOrNamespace(mirror.rows.get(key), lowerText);
  const mixed = mixedCaseKeys(mirror).read();
  if (mixed.size === 0) return (key) => key.includes(lowerText);
  return (key) => (mixed.has(key) ? key.toLowerCase().includes(lowerText) : key.includes(lowerText));
}

/**
 * The keys `lowerText` matches, unordered, when they are found without a look at each row: every key
 * that holds the text (KeyTextSearch: no key is read that does not), and the keys of the few label
 * pairs that do. Undefined when those pairs hold too many rows (a label key nearly every row has: see
 * textExclusions) or the text has a '/'.
 */
export function textCandidates(mirror: SubscriptionMirror, lowerText: string): string[] | undefined {
  if (lowerText.includes('/')) return undefined;
  const pairs = pairsOf(mirror, lowerText);
  if (pairs.labelRows + pairs.valueRows > mirror.rows.size * maxMergedShare) return undefined;
  const inKey = keyMatcher(mirror, lowerText);
  let found = keyTextSearch(mirror).find(lowerText);
  if (found === undefined) {
    found = [];
    for (const key of mirror.rows.keys()) if (inKey(key)) found.push(key);
  }
  const sets = [...pairs.labelSets, ...pairs.valueSets];
  // A key in two sets (two labels holding the text) is taken once.
  const taken = sets.length > 1 ? new Set<string>() : undefined;
  for (const keys of sets)
    for (const key of keys) {
      if (inKey(key) || taken?.has(key)) continue;
      taken?.add(key);
      found.push(key);
    }
  return found;
}

function inNameOrNamespace(row: Row | undefined, lowerText: string): boolean {
  if (row === undefined) return false;
  return lowerCaseIncludes(row.name, lowerText) || lowerCaseIncludes(row.namespace, lowerText);
}

/**
 * Whether a key's row has a label whose key=value holds `lowerText`, from the label indexes: the
 * distinct pairs are checked once each; the rows of the matching pairs are then looked up in their
 * key sets while those are few, and otherwise by label presence and on the row.
 */
function labelTextMatcher(mirror: SubscriptionMirror, lowerText: string): (key: string) => boolean {
  const pairs = pairsOf(mirror, lowerText);
  const limit = mirror.rows.size * maxMergedShare;
  if (pairs.labelRows + pairs.valueRows <= limit) return inAnySet([...pairs.labelSets, ...pairs.valueSets]);
  const withLabel = pairs.labelRows <= limit ? inAnySet(pairs.labelSets) : withAnyLabel(mirror, pairs.labels);
  const withValue = pairs.valueRows <= limit ? inAnySet(pairs.valueSets) : withAnyValue(mirror, pairs.values);
  return (key) => withLabel(key) || withValue(key);
}

/** Past this many key sets a key would be looked up in, they are merged into one Set first. */
const maxSeparateSets = 4;

function inAnySet(sets: readonly ReadonlySet<string>[]): (key: string) => boolean {
  if (sets.length === 0) return () => false;
  if (sets.length > maxSeparateSets) {
    const merged = new Set<string>();
    for (const keys of sets) for (const key of keys) merged.add(key);
    return (key) => merged.has(key);
  }
  return (key) => {
    for (const keys of sets) if (keys.has(key)) return true;
    return false;
  };
}

/**
 * The keys of the rows that `lowerText` does not match, when they are few and found without a look
 * at every key: the text is in label keys that nearly every row has (`a`, `ap`, `app`), so only the
 * few rows that lack them all can fail, and those are checked one by one. Undefined otherwise
 * (textMatcher then answers key by key). A query left with only such exclusions copies the name
 * order around them instead of reading 150,000 keys in name order, which at that size is a cache
 * miss a key (about 40 ms of CPU on this machine).
 */
export function textExclusions(
  mirror: SubscriptionMirror,
  lowerText: string,
): ReadonlySet<string> | undefined {
  const pairs = pairsOf(mirror, lowerText);
  const missing: ReadonlySet<string>[] = [];
  /**
   * Label keys holding the text that many rows lack (`track`, for `a`): a row lacking the common ones
   * is checked for these on the row itself, so they never send the text to a check of every key.
   */
  const uncommon: string[] = [];
  for (const [label, present] of pairs.labels) {
    const keys = missingLabel(mirror, label).read(present);
    if (keys === undefined) uncommon.push(label);
    else missing.push(keys);
  }
  if (missing.length === 0) return keyTextExclusions(mirror, lowerText);
  missing.sort((left, right) => left.size - right.size);
  const limit = mirror.rows.size * maxMergedShare;
  const withValue = pairs.valueRows <= limit ? inAnySet(pairs.valueSets) : withAnyValue(mirror, pairs.values);
  const inKey = keyMatcher(mirror, lowerText);
  const hasUncommon = (key: string): boolean => {
    const labels = mirror.rows.get(key)?.labels;
    return labels !== undefined && uncommon.some((label) => typeof labels[label] === 'string');
  };
  const excluded = new Set<string>();
  for (const key of missing[0]) {
    if (missing.some((keys) => !keys.has(key))) continue;
    if (!inKey(key) && !withValue(key) && !(uncommon.length > 0 && hasUncommon(key))) excluded.add(key);
  }
  return excluded;
}

/**
 * textExclusions when the text is in nearly every key, whatever the labels: the few keys that lack it
 * (KeyTextSearch.lacking) whose labels lack it too. `a` is in every key of a namespace named `team-*`
 * but also in a label key few rows have (`track`), and `api` in most keys and most `app` values: the
 * label indexes alone leave too many rows to check, and each such key checked every row (20-30 ms
 * of CPU at 150,000 rows) and then sorted them all by rank (60-100 ms).
 */
function keyTextExclusions(mirror: SubscriptionMirror, lowerText: string): ReadonlySet<string> | undefined {
  // Lower-cased keys are what KeyTextSearch holds: a key that lower-casing changes is held as such.
  if (lowerText.includes('/')) return undefined;
  const lacking = keyTextSearch(mirror).lacking(lowerText, mirror.rows.size * maxMergedShare);
  if (lacking === undefined) return undefined;
  const inLabels = labelTextMatcher(mirror, lowerText);
  const excluded = new Set<string>();
  for (const key of lacking) if (!inLabels(key)) excluded.add(key);
  return excluded;
}

/** Whether the key's row has one of `labels` (label key -> rows that have it). */
function withAnyLabel(
  mirror: SubscriptionMirror,
  labels: ReadonlyMap<string, number>,
): (key: string) => boolean {
  const missing: ReadonlySet<string>[] = [];
  for (const [label, present] of labels) {
    const keys = missingLabel(mirror, label).read(present);
    if (keys === undefined) {
      // Many rows lack one of them: each row is read.
      const names = [...labels.keys()];
      return (key) => {
        const rowLabels = mirror.rows.get(key)?.labels;
        return rowLabels !== undefined && names.some((name) => typeof rowLabels[name] === 'string');
      };
    }
    missing.push(keys);
  }
  // A row lacks them all only when it is among the few rows missing each.
  return (key) => {
    for (const keys of missing) if (!keys.has(key)) return true;
    return false;
  };
}

/** Whether the key's row has a label whose value is among `values` (label key -> values). */
function withAnyValue(
  mirror: SubscriptionMirror,
  values: ReadonlyMap<string, ReadonlySet<string>>,
): (key: string) => boolean {
  const entries = [...values];
  return (key) => {
    const rowLabels = mirror.rows.get(key)?.labels;
    if (rowLabels === undefined) return false;
    for (const [label, matched] of entries) {
      const value = rowLabels[label];
      if (value !== undefined && matched.has(value)) return true;
    }
    return false;
  };
}

/**
 * Brings the mirror's free-text structures (KeyTextSearch, MixedCaseKeys, the rows lacking each label
 * nearly every row has) up to date, so a keystroke replays only the changes since (an idle page calls
 * it about once a second: useWarmLabelIndexes). The label indexes must have been read just before.
 */
export function warmTextSearch(mirror: SubscriptionMirror): void {
  keyTextSearch(mirror).catchUp();
  mixedCaseKeys(mirror).read();
  warmMissingLabels(mirror);
}

/**
 * Keeps MissingLabel current for every label key that nearly every row has: `a`, the first key of
 * `app=web`, is in such keys (app, pod-template-hash) and is answered by the rows lacking them. Left
 * to that keystroke, each set was built by a walk of every row, 20-70 ms at 150,000 pods: the ui
 * bench's slowest key of its first text, in every run. At most one set is built a call, so no idle
 * callback holds the page for more than one walk; the others follow a second later.
 */
function warmMissingLabels(mirror: SubscriptionMirror): void {
  const limit = mirror.rows.size * maxMergedShare;
  let walked = false;
  for (const [label, index] of mirror.indexes.byLabel) {
    let present = 0;
    for (const keys of index.values()) present += keys.size;
    if (mirror.rows.size - present > limit) continue;
    const missing = missingLabel(mirror, label);
    if (missing.stale) {
      if (walked) continue;
      walked = true;
    }
    missing.read(present);
  }
}

const keyTexts = new WeakMap<SubscriptionMirror, KeyTextSearch>();
function keyTextSearch(mirror: SubscriptionMirror): KeyTextSearch {
  let search = keyTexts.get(mirror);
  if (!search) keyTexts.set(mirror, (search = new KeyTextSearch(mirror.changes)));
  return search;
}

const mixedCase = new WeakMap<SubscriptionMirror, MixedCaseKeys>();
function mixedCaseKeys(mirror: SubscriptionMirror): MixedCaseKeys {
  let keys = mixedCase.get(mirror);
  if (!keys) mixedCase.set(mirror, (keys = new MixedCaseKeys(mirror.changes)));
  return keys;
}

const missingLabels = new WeakMap<SubscriptionMirror, Map<string, MissingLabel>>();
function missingLabel(mirror: SubscriptionMirror, label: string): MissingLabel {
  let byLabel = missingLabels.get(mirror);
  if (!byLabel) missingLabels.set(mirror, (byLabel = new Map()));
  let missing = byLabel.get(label);
  if (!missing) byLabel.set(label, (missing = new MissingLabel(mirror.rows, mirror.changes, label)));
  return missing;
}

/** The label pairs whose key=value holds the text, as the label indexes list them. */
interface PairsWithText {
  /** Label keys that hold the text (every pair of theirs does) -> how many rows have them. */
  readonly labels: ReadonlyMap<string, number>;
  readonly labelSets: readonly ReadonlySet<string>[];
  readonly labelRows: number;
  /** Label keys that do not -> their values whose pair holds the text. */
  readonly values: ReadonlyMap<string, ReadonlySet<string>>;
  readonly valueSets: readonly ReadonlySet<string>[];
  /** The sizes of `valueSets` summed: at least the rows they hold. */
  readonly valueRows: number;
}

/**
 * The last answer of pairsWithText per mirror: one query asks it up to three times (whether the
 * filter is answered by exclusion, then its plan), and each walk checks every distinct label pair
 * (thousands of pod-template-hash values) for the text.
 */
const lastPairs = new WeakMap<SubscriptionMirror, { end: number; lowerText: string; pairs: PairsWithText }>();

function pairsOf(mirror: SubscriptionMirror, lowerText: string): PairsWithText {
  const byLabel = mirror.indexes.byLabel;
  // Read first: reading the label indexes brings them up to the log's end.
  const end = mirror.changes.end;
  const last = lastPairs.get(mirror);
  if (last !== undefined && last.end === end && last.lowerText === lowerText) return last.pairs;
  const pairs = pairsWithText(byLabel, lowerText);
  lastPairs.set(mirror, { end, lowerText, pairs });
  return pairs;
}

function pairsWithText(labelIndexes: ReadonlyMap<string, ValueIndex>, lowerText: string): PairsWithText {
  const labels = new Map<string, number>();
  const labelSets: Set<string>[] = [];
  let labelRows = 0;
  const values = new Map<string, Set<string>>();
  const valueSets: Set<string>[] = [];
  let valueRows = 0;
  const spansPair = lowerText.includes('=');
  const take = (label: string, value: string, keys: Set<string>): void => {
    let matched = values.get(label);
    if (!matched) values.set(label, (matched = new Set()));
    matched.add(value);
    valueSets.push(keys);
    valueRows += keys.size;
  };
  for (const [label, index] of labelIndexes) {
    if (spansPair) {
      for (const [value, keys] of index)
        if (labelPairMatches(label, value, lowerText)) take(label, value, keys);
    } else if (lowerCaseIncludes(label, lowerText)) {
      // In the key, so in every pair of it: a key such as pod-template-hash has thousands of values.
      let present = 0;
      for (const keys of index.values()) {
        labelSets.push(keys);
        present += keys.size;
      }
      labels.set(label, present);
      labelRows += present;
    } else {
      for (const [value, keys] of index) if (lowerCaseIncludes(value, lowerText)) take(label, value, keys);
    }
  }
  return { labels, labelSets, labelRows, values, valueSets, valueRows };
}
