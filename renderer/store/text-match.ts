// The filter bar's free text: a case-insensitive substring of a row's name, its namespace, or one of
// its labels written key=value. `matchesText` is the definition, checked on one row; `textMatcher`
// answers the same question for a whole scan without reading rows. The ui bench's typing profile at
// 150,000 pods spent most of each text scan reading every row (a Map lookup, then its labels) even
// though the answer is in two places read far more cheaply:
//  - name and namespace: a row's key is "namespace/name" (objectKey), so text without '/' is in one
//    of them exactly when it is in the key;
//  - labels: the label indexes hold each distinct key=value once, so the text is checked against a
//    few thousand pairs instead of every row's labels, and the rows of the pairs it is in are taken
//    from the indexes' key sets.
import type { Row } from '../../shared/protocol/row';
import type { ValueIndex } from './row-indexes';
import type { SubscriptionMirror } from './subscription-mirror';

/** Whether `row` matches the lower-cased free text `lowerText`. */
export function matchesText(row: Row, lowerText: string): boolean {
  if (row.name.toLowerCase().includes(lowerText)) return true;
  if (row.namespace.toLowerCase().includes(lowerText)) return true;
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
  if (lowerText.includes('=')) return `${key}=${value}`.toLowerCase().includes(lowerText);
  return key.toLowerCase().includes(lowerText) || value.toLowerCase().includes(lowerText);
}

/** Past this many label key sets a key is looked up in, they are merged into one Set first. */
const maxSeparateSets = 4;

/** matchesText by key for the rows of `mirror`, as of now (build a new one after the mirror changes). */
export function textMatcher(mirror: SubscriptionMirror, lowerText: string): (key: string) => boolean {
  const labelled = rowsWithLabelText(mirror.indexes.byLabel, lowerText);
  const inKey = !lowerText.includes('/');
  const inLabels = (key: string): boolean => {
    for (const keys of labelled) if (keys.has(key)) return true;
    return false;
  };
  return (key) => {
    if (inKey ? key.toLowerCase().includes(lowerText) : inNameOrNamespace(mirror.rows.get(key), lowerText))
      return true;
    return inLabels(key);
  };
}

function inNameOrNamespace(row: Row | undefined, lowerText: string): boolean {
  if (row === undefined) return false;
  return row.name.toLowerCase().includes(lowerText) || row.namespace.toLowerCase().includes(lowerText);
}

/** The key sets of the rows that have a label whose key=value holds `lowerText`: few sets, or one merged. */
function rowsWithLabelText(
  labels: ReadonlyMap<string, ValueIndex>,
  lowerText: string,
): readonly ReadonlySet<string>[] {
  const sets: Set<string>[] = [];
  const spansPair = lowerText.includes('=');
  for (const [label, values] of labels) {
    if (spansPair) {
      for (const [value, keys] of values) if (labelPairMatches(label, value, lowerText)) sets.push(keys);
    } else if (label.toLowerCase().includes(lowerText)) {
      // In the key, so in every pair of it: a key such as pod-template-hash has thousands of values.
      for (const keys of values.values()) sets.push(keys);
    } else {
      for (const [value, keys] of values) if (value.toLowerCase().includes(lowerText)) sets.push(keys);
    }
  }
  if (sets.length <= maxSeparateSets) return sets;
  const merged = new Set<string>();
  for (const keys of sets) for (const key of keys) merged.add(key);
  return [merged];
}
