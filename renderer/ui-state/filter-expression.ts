// The filter bar's language: kubectl label selector syntax as typed (`app=web,tier!=db`,
// `env in (prod, staging)`, `!canary`), plus `ns=`, `node=`, `owner=`, `status=` tokens and their
// `ns!=`, `node!=`, `status!=` negations, metrics comparisons (`cpu>250m`, `mem>=1Gi`, quantities as
// kubectl writes them) and free text.
// Clauses are separated by whitespace; a clause that holds a selector operator is a label selector, a
// clause `ns=...` (also `namespace=`), `node=`, `owner=` or `status=` is an index filter (`status!=x`
// too: read as a label selector it would keep every row, none having a label `status`), and a bare word
// is free text (a substring of name, namespace or key=value). A bare key inside a comma list
// (`app,tier=db`) keeps kubectl's meaning, "the label exists". Errors carry the span to underline.
import type { LabelSelector } from '../../shared/selectors/label-selector';
import { tryParseLabelSelector } from '../../shared/selectors/label-selector';
import { parseQuantity } from '../../shared/kube/quantity';
import { hasExclusions } from '../store/row-query';
import type { RowExclusions } from '../store/row-query';

/** `cpu>250m`: a row passes when its latest sample compares so (rows without a sample never pass). */
export interface MetricCondition {
  readonly unit: 'cpu' | 'memory';
  readonly operator: '>' | '>=' | '<' | '<=';
  /** Cores or bytes. */
  readonly value: number;
}

export interface FilterError {
  readonly message: string;
  /** UTF-16 offsets into the typed text. */
  readonly start: number;
  readonly end: number;
}

export interface FilterExpression {
  readonly labelSelector?: LabelSelector;
  readonly namespaces: readonly string[];
  readonly node?: string;
  /** An owner's name: rows it owns, and pods of the ReplicaSets a Deployment of that name owns (see ownerQuery). */
  readonly owner?: string;
  readonly status?: string;
  /** `ns!=`, `node!=`, `status!=`: values a row must not have (absent when none is typed). */
  readonly without?: RowExclusions;
  readonly text?: string;
  readonly metrics?: readonly MetricCondition[];
  readonly error?: FilterError;
}

interface Clause {
  readonly text: string;
  readonly start: number;
}

const indexTokens = /^(ns|namespace|node|owner|status)(==?|!=)(.*)$/;
const indexSets = /^(ns|namespace|node|owner|status)\s+(in|notin)\s*\(/;
const metricToken = /^(cpu|mem|memory)(>=|<=|>|<)(.*)$/;
const operatorWords = new Set(['in', 'notin']);

/** Splits at whitespace outside parentheses, then rejoins pieces an operator binds together. */
function clauses(text: string): Clause[] {
  const pieces: Clause[] = [];
  let depth = 0;
  let start = -1;
  for (let index = 0; index <= text.length; index++) {
    const char = text[index];
    const boundary = char === undefined || (depth === 0 && /\s/.test(char));
    if (boundary) {
      if (start >= 0) pieces.push({ text: text.slice(start, index), start });
      start = -1;
      continue;
    }
    if (start < 0) start = index;
    if (char === '(') depth += 1;
    if (char === ')') depth = Math.max(0, depth - 1);
  }
  const joined: Clause[] = [];
  for (const piece of pieces) {
    const previous = joined[joined.length - 1];
    const binds =
      previous !== undefined &&
      (/[=,(]$/.test(previous.text) ||
        /^(=|!=|,|\()/.test(piece.text) ||
        operatorWords.has(piece.text) ||
        operatorWords.has(previous.text.split(/[\s,]/).pop() ?? ''));
    if (binds) {
      joined[joined.length - 1] = {
        text: text.slice(previous.start, piece.start + piece.text.length),
        start: previous.start,
      };
    } else {
      joined.push(piece);
    }
  }
  return joined;
}

/** Splits a clause at commas outside parentheses, keeping each part's offset. */
function commaParts(clause: Clause): Clause[] {
  const parts: Clause[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index <= clause.text.length; index++) {
    const char = clause.text[index];
    if (char === '(') depth += 1;
    if (char === ')') depth = Math.max(0, depth - 1);
    if (char === undefined || (char === ',' && depth === 0)) {
      parts.push({ text: clause.text.slice(start, index), start: clause.start + start });
      start = index + 1;
    }
  }
  return parts;
}

/** Parses what is typed in the filter bar. Never throws; the first problem is returned as `error`. */
export function parseFilterExpression(text: string): FilterExpression {
  const namespaces: string[] = [];
  const selectorParts: Clause[] = [];
  const words: Clause[] = [];
  const metrics: MetricCondition[] = [];
  let node: string | undefined;
  let owner: string | undefined;
  let status: string | undefined;
  const without = { namespaces: [] as string[], nodes: [] as string[], statuses: [] as string[] };
  let error: FilterError | undefined;

  for (const clause of clauses(text)) {
    const isSelector = /[=!(,]/.test(clause.text) || /\s(in|notin)\s*\(/.test(clause.text);
    const metric = metricToken.exec(clause.text);
    if (metric) {
      const [, name, operator, quantity = ''] = metric;
      const value = parseQuantity(quantity);
      if (value === undefined && !error)
        error = {
          message: `${name}${operator} needs a quantity, e.g. 250m or 1Gi`,
          start: clause.start,
          end: clause.start + clause.text.length,
        };
      else if (value !== undefined)
        metrics.push({
          unit: name === 'cpu' ? 'cpu' : 'memory',
          operator: operator as MetricCondition['operator'],
          value,
        });
      continue;
    }
    if (!isSelector) {
      words.push(clause);
      continue;
    }
    for (const part of commaParts(clause)) {
      const span = { start: part.start, end: part.start + part.text.length };
      const match = indexTokens.exec(part.text.trim());
      if (!match) {
        const set = indexSets.exec(part.text.trim());
        // Read as a label selector, `status notin (Running)` would keep every row (no row has a label
        // `status`) and `status in (...)` none: said, not answered wrongly.
        if (set) error ??= { message: indexSetMessage(set[1]!, set[2]!), ...span };
        else selectorParts.push(part);
        continue;
      }
      const [, name = '', operator = '=', value = ''] = match;
      if (value === '') {
        error ??= { message: `${name}${operator} needs a value`, ...span };
        continue;
      }
      if (operator === '!=') {
        // Not a label named so: ns=, node= and status= are the row's own, and so are their negations.
        if (name === 'owner')
          error ??= { message: 'owner!= is not supported: owner= shows what an owner owns', ...span };
        else
          (name === 'node' ? without.nodes : name === 'status' ? without.statuses : without.namespaces).push(
            value,
          );
        continue;
      }
      if (name === 'ns' || name === 'namespace') namespaces.push(value);
      else if (name === 'node') node = value;
      else if (name === 'owner') owner = value;
      else status = value;
    }
  }

  let labelSelector: LabelSelector | undefined;
  const selectorText = selectorParts.map((part) => part.text).join(',');
  if (selectorParts.length > 0 && selectorText.trim() !== '') {
    const parsed = tryParseLabelSelector(selectorText);
    if (parsed.selector) {
      labelSelector = parsed.selector.isEmpty() ? undefined : parsed.selector;
    } else if (!error) {
      error = locate(parsed.error.message, parsed.error.position, parsed.error.length, selectorParts);
    }
  }
  const freeText = words.map((word) => word.text).join(' ');
  return {
    namespaces,
    ...(labelSelector ? { labelSelector } : {}),
    ...(node !== undefined ? { node } : {}),
    ...(owner !== undefined ? { owner } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(hasExclusions(without) ? { without } : {}),
    ...(freeText ? { text: freeText } : {}),
    ...(metrics.length > 0 ? { metrics } : {}),
    ...(error ? { error } : {}),
  };
}

/** Maps an offset in the comma-joined selector text back to the span the user typed. */
function locate(message: string, position: number, length: number, parts: readonly Clause[]): FilterError {
  let offset = 0;
  for (const part of parts) {
    const end = offset + part.text.length;
    if (position <= end) {
      const start = part.start + (position - offset);
      return {
        message,
        start,
        end: Math.max(start + 1, Math.min(start + Math.max(length, 1), part.start + part.text.length)),
      };
    }
    offset = end + 1;
  }
  const last = parts[parts.length - 1]!;
  return { message, start: last.start, end: last.start + last.text.length };
}

/** What to type instead of `name in (...)` or `name notin (...)`, which only labels take. */
function indexSetMessage(name: string, operator: string): string {
  return operator === 'in'
    ? `${name} in (...) is not supported: type ${name}=value`
    : name === 'owner'
      ? `owner notin (...) is not supported: owner= shows what an owner owns`
      : `${name} notin (...) is not supported: type ${name}!=value for each value to leave out`;
}
