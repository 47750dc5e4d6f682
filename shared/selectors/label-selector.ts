// Label selectors exactly as apimachinery's labels package parses, matches and prints them
// (k8s.io/apimachinery/pkg/labels/selector.go), so a filter typed in Kubetide means what `kubectl -l`
// means, and the embedded cluster filters LIST and WATCH the way an API server does.

import { parseRequirements } from './label-selector-parser';
import {
  aggregateMessage,
  requirementMatches,
  requirementProblems,
  requirementToString,
} from './requirement';
import type { Operator, Requirement } from './requirement';
import { SelectorParseError } from './selector-parse-error';

export { SelectorParseError } from './selector-parse-error';
export type { Operator, Requirement } from './requirement';
export { requirementMatches, requirementToString } from './requirement';

/** A conjunction of requirements, as labels.Selector. */
export interface LabelSelector {
  /** Sorted by key (stable), as labels.Parse and Selector.Add leave them. */
  readonly requirements: readonly Requirement[];
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  /** True for the selector that matches everything (no requirements); false for nothing(). */
  isEmpty(): boolean;
  /** True only for nothing(): the selector of a nil metav1.LabelSelector, which selects no object. */
  matchesNothing(): boolean;
  /** The canonical text kubectl and the API server print: requirements by key, values sorted. */
  toString(): string;
}

/** A Metav1 LabelSelector, as in a Deployment's spec.selector. */
export interface MetaLabelSelector {
  matchLabels?: Readonly<Record<string, string>>;
  matchExpressions?: readonly { key: string; operator: string; values?: readonly string[] }[];
}

class RequirementsSelector implements LabelSelector {
  constructor(readonly requirements: readonly Requirement[]) {}
  matches(labels: Readonly<Record<string, string>> | undefined): boolean {
    return this.requirements.every((requirement) => requirementMatches(requirement, labels));
  }
  isEmpty(): boolean {
    return this.requirements.length === 0;
  }
  matchesNothing(): boolean {
    return false;
  }
  toString(): string {
    return this.requirements.map(requirementToString).join(',');
  }
}

const nothingSelector: LabelSelector = {
  requirements: [],
  matches: () => false,
  isEmpty: () => false,
  matchesNothing: () => true,
  toString: () => '',
};

const everythingSelector: LabelSelector = new RequirementsSelector([]);

export function everything(): LabelSelector {
  return everythingSelector;
}

export function nothing(): LabelSelector {
  return nothingSelector;
}

function byKey(requirements: Requirement[]): Requirement[] {
  return requirements.sort((left, right) => (left.key < right.key ? -1 : left.key > right.key ? 1 : 0));
}

/** labels.SelectorFromSet: one `=` requirement per label, unvalidated; an empty set selects everything. */
export function selectorFromSet(labels: Readonly<Record<string, string>> | undefined): LabelSelector {
  if (labels === undefined) return everythingSelector;
  const requirements = Object.entries(labels).map(([key, value]): Requirement => ({
    key,
    operator: '=',
    values: [value],
  }));
  return requirements.length === 0 ? everythingSelector : new RequirementsSelector(byKey(requirements));
}

const metaOperators: Readonly<Record<string, Operator>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * metav1.LabelSelectorAsSelector: undefined or null selects nothing (a controller without a selector
 * owns no pods), an empty selector selects everything. Throws SelectorParseError (at position 0) for an
 * unknown operator or an invalid key or value, as the Go function returns an error.
 */
export function selectorFromLabelSelector(selector: MetaLabelSelector | null | undefined): LabelSelector {
  if (selector === undefined || selector === null) return nothingSelector;
  const requirements: Requirement[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    requirements.push({ key, operator: '=', values: [value] });
  }
  for (const expression of selector.matchExpressions ?? []) {
    const operator = Object.hasOwn(metaOperators, expression.operator)
      ? metaOperators[expression.operator]
      : undefined;
    if (operator === undefined) {
      throw new SelectorParseError(`"${expression.operator}" is not a valid label selector operator`, 0, 0);
    }
    requirements.push({ key: expression.key, operator, values: [...(expression.values ?? [])] });
  }
  if (requirements.length === 0) return everythingSelector;
  for (const requirement of requirements) {
    const problems = requirementProblems(requirement);
    if (problems.length > 0) throw new SelectorParseError(aggregateMessage(problems), 0, 0);
  }
  return new RequirementsSelector(byKey(requirements));
}

/**
 * labels.Parse: whitespace-tolerant, comma means AND, empty text selects everything. Throws
 * SelectorParseError with Go's message (what was found, what was expected) and the offending span.
 */
export function parseLabelSelector(text: string): LabelSelector {
  const requirements = parseRequirements(text);
  return requirements.length === 0 ? everythingSelector : new RequirementsSelector(byKey(requirements));
}

/** parseLabelSelector for input being typed: the error is a value, never thrown. */
export function tryParseLabelSelector(
  text: string,
): { selector: LabelSelector; error?: undefined } | { selector?: undefined; error: SelectorParseError } {
  try {
    return { selector: parseLabelSelector(text) };
  } catch (error) {
    if (error instanceof SelectorParseError) return { error };
    throw error;
  }
}
