// Completion for the filter bar, answered from the mirror's indexes (label keys and values, namespaces,
// nodes, statuses) so suggestions name only what exists, most common first.
import type { RowIndexes } from '../store/row-indexes';

export interface Completion {
  /** The whole token that replaces the one being typed. */
  readonly insert: string;
  /** What the list shows beside it: how many rows have it. */
  readonly detail: string;
}

export interface CompletionRequest {
  readonly text: string;
  readonly caret: number;
}

export interface TokenSpan {
  readonly start: number;
  readonly end: number;
  readonly token: string;
}

const indexKeys = ['ns=', 'node=', 'status=', 'owner='] as const;
const limit = 12;

/** The token under the caret: from the last whitespace, comma or parenthesis before it. */
export function tokenAt(request: CompletionRequest): TokenSpan {
  let start = request.caret;
  while (start > 0 && !/[\s,(]/.test(request.text[start - 1] ?? '')) start -= 1;
  return { start, end: request.caret, token: request.text.slice(start, request.caret) };
}

/** value -> how many rows have it: an index's key sets, or owner counts (see ownerNameCounts). */
type Counted = ReadonlyMap<string, { readonly size: number }>;

function fromIndex(
  index: Counted | undefined,
  prefix: string,
  typed: string,
  render: (value: string) => string,
): Completion[] {
  if (!index) return [];
  const matches: { value: string; size: number }[] = [];
  for (const [value, keys] of index) {
    if (value !== '' && value.startsWith(typed)) matches.push({ value, size: keys.size });
  }
  return matches
    .sort(
      (left, right) =>
        Number(right.value === typed) - Number(left.value === typed) ||
        right.size - left.size ||
        left.value.localeCompare(right.value),
    )
    .slice(0, limit)
    .map(({ value, size }) => ({ insert: `${prefix}${render(value)}`, detail: `${size}` }));
}

/**
 * Suggestions for the token under the caret; empty when there is nothing useful to offer. Owner names
 * are asked for only when an `owner=` token is completed: building them walks every owner.
 */
export function completeFilter(
  request: CompletionRequest,
  indexes: RowIndexes,
  ownerNames: () => Counted,
): Completion[] {
  const { token } = tokenAt(request);
  const offered = suggestionsFor(token, indexes, ownerNames);
  return offered.length === 1 && offered[0]?.insert === token ? [] : offered;
}

function suggestionsFor(token: string, indexes: RowIndexes, ownerNames: () => Counted): Completion[] {
  const operator = /^(!?)([^=!]*?)(==|!=|=)(.*)$/.exec(token);
  if (operator) {
    const [, , key = '', op = '=', typed = ''] = operator;
    const prefix = `${key}${op}`;
    const identity = (value: string) => value;
    switch (key) {
      case 'ns':
      case 'namespace':
        return fromIndex(indexes.byNamespace, prefix, typed, identity);
      case 'node':
        return fromIndex(indexes.byNode, prefix, typed, identity);
      case 'status':
        return fromIndex(indexes.byStatus, prefix, typed, identity);
      case 'owner':
        return fromIndex(ownerNames(), prefix, typed, identity);
      default:
        return fromIndex(indexes.byLabel.get(key), prefix, typed, identity);
    }
  }
  const negated = token.startsWith('!');
  const typed = negated ? token.slice(1) : token;
  if (typed === '' && !negated) return [];
  const keys: { key: string; size: number }[] = [];
  for (const [key, values] of indexes.byLabel) {
    if (!key.startsWith(typed)) continue;
    let size = 0;
    for (const rows of values.values()) size += rows.size;
    keys.push({ key, size });
  }
  const labels = keys
    .sort((left, right) => right.size - left.size || left.key.localeCompare(right.key))
    .slice(0, limit)
    .map(({ key, size }) => ({ insert: negated ? `!${key}` : `${key}=`, detail: `label · ${size}` }));
  const tokens = negated
    ? []
    : indexKeys.filter((key) => key.startsWith(typed)).map((key) => ({ insert: key, detail: 'filter' }));
  return [...tokens, ...labels].slice(0, limit);
}

/** Replaces the token under the caret with `completion`; returns the new text and caret. */
export function applyCompletion(
  request: CompletionRequest,
  completion: Completion,
): { text: string; caret: number } {
  const span = tokenAt(request);
  const text = request.text.slice(0, span.start) + completion.insert + request.text.slice(span.end);
  return { text, caret: span.start + completion.insert.length };
}
