// Label selectors exactly as apimachinery's labels package parses, matches and prints them
// (k8s.io/apimachinery/pkg/labels/selector.go), so a filter typed in Kubetide means what `kubectl -l`
// means, and the embedded cluster filters LIST and WATCH the way an API server does.

import { labelKeyProblems } from './label-syntax';
import {
  aggregateMessage,
  invalidValue,
  requirementMatches,
  requirementProblems,
  requirementToString,
} from './requirement';
import type { Operator, Requirement } from './requirement';
import { lexLabelSelector } from './label-selector-lexer';
import type { Token } from './label-selector-lexer';
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

/** The recursive-descent parser of labels.Parse, over tokens that know where they are. */
class Parser {
  private index = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  /** In a value position the keywords `in` and `notin` are ordinary identifiers, as in Go. */
  private lookahead(): Token {
    const token = this.tokens[this.index]!;
    return token.type === 'in' || token.type === 'notIn' ? { ...token, type: 'identifier' } : token;
  }

  private consume(): Token {
    const token = this.lookahead();
    if (token.type !== 'end') this.index++;
    return token;
  }

  private consumeOperatorToken(): Token {
    const token = this.tokens[this.index]!;
    if (token.type !== 'end') this.index++;
    return token;
  }

  /** Go's "found '<literal>', expected: <what>" (the end of input is found as ''). */
  private fail(found: Token, expected: string, separator = ', '): never {
    if (found.type === 'error') throw new SelectorParseError(found.literal, found.position, found.length);
    throw new SelectorParseError(
      `found '${found.literal}'${separator}expected: ${expected}`,
      found.position,
      found.length,
    );
  }

  /** Errors inside a requirement carry Go's "unable to parse requirement: " prefix. */
  private parseRequirementInContext(): Requirement {
    try {
      return this.parseRequirement();
    } catch (error) {
      if (!(error instanceof SelectorParseError)) throw error;
      throw new SelectorParseError(
        `unable to parse requirement: ${error.message}`,
        error.position,
        error.length,
      );
    }
  }

  parse(): Requirement[] {
    const requirements: Requirement[] = [];
    for (;;) {
      const token = this.lookahead();
      if (token.type === 'end') return requirements;
      if (token.type !== 'identifier' && token.type !== 'doesNotExist') {
        this.fail(token, "!, identifier, or 'end of string'");
      }
      requirements.push(this.parseRequirementInContext());
      const separator = this.consume();
      if (separator.type === 'end') return requirements;
      if (separator.type !== 'comma') this.fail(separator, "',' or 'end of string'");
      const next = this.lookahead();
      if (next.type !== 'identifier' && next.type !== 'doesNotExist') this.fail(next, "identifier after ','");
    }
  }

  private parseRequirement(): Requirement {
    const start = this.lookahead().position;
    let token = this.consume();
    let operator: Operator | undefined;
    if (token.type === 'doesNotExist') {
      operator = '!';
      token = this.consume();
    }
    if (token.type !== 'identifier') this.fail(token, 'identifier');
    const key = token.literal;
    const keyProblems = labelKeyProblems(key);
    if (keyProblems.length > 0) {
      // The parser validates with a nil field path, which Go prints as "<nil>".
      throw new SelectorParseError(
        invalidValue('<nil>', key, keyProblems.join('; ')),
        token.position,
        token.length,
      );
    }
    if (operator === undefined) {
      const next = this.lookahead().type;
      if (next === 'end' || next === 'comma') operator = 'exists';
    }
    let values: string[] = [];
    if (operator === undefined) {
      operator = this.parseOperator();
      values = operator === 'in' || operator === 'notin' ? this.parseValues() : this.parseExactValue();
    }
    const requirement: Requirement = { key, operator, values };
    const problems = requirementProblems(requirement);
    if (problems.length > 0) {
      const end = this.tokens[this.index - 1]!;
      throw new SelectorParseError(aggregateMessage(problems), start, end.position + end.length - start);
    }
    return requirement;
  }

  private parseOperator(): Operator {
    const token = this.consumeOperatorToken();
    const operators: Partial<Record<Token['type'], Operator>> = {
      in: 'in',
      notIn: 'notin',
      equals: '=',
      doubleEquals: '==',
      notEquals: '!=',
      greaterThan: 'gt',
      lessThan: 'lt',
    };
    const operator = operators[token.type];
    if (operator === undefined) this.fail(token, 'in, notin, =, ==, !=, gt, lt');
    return operator;
  }

  /** `(a,b)`; Go's quirks kept: `()` and empty items between commas stand for the empty value. */
  private parseValues(): string[] {
    const open = this.consume();
    if (open.type !== 'openPar') this.fail(open, "'('", ' ');
    const first = this.lookahead();
    if (first.type === 'closedPar') {
      this.consume();
      return [''];
    }
    if (first.type !== 'identifier' && first.type !== 'comma') this.fail(first, "',', ')' or identifier");
    const values = new Set<string>();
    for (;;) {
      const token = this.consume();
      if (token.type === 'identifier') {
        values.add(token.literal);
        const next = this.lookahead();
        if (next.type === 'closedPar') break;
        if (next.type !== 'comma') this.fail(next, "',' or ')'");
      } else if (token.type === 'comma') {
        if (values.size === 0) values.add('');
        const next = this.lookahead();
        if (next.type === 'closedPar') {
          values.add('');
          break;
        }
        if (next.type === 'comma') {
          this.consume();
          values.add('');
        }
      } else {
        this.fail(token, "',', or identifier");
      }
    }
    this.consume();
    return [...values].sort();
  }

  private parseExactValue(): string[] {
    const next = this.lookahead();
    if (next.type === 'end' || next.type === 'comma') return [''];
    const token = this.consume();
    if (token.type !== 'identifier') this.fail(token, 'identifier');
    return [token.literal];
  }
}

/**
 * labels.Parse: whitespace-tolerant, comma means AND, empty text selects everything. Throws
 * SelectorParseError with Go's message (what was found, what was expected) and the offending span.
 */
export function parseLabelSelector(text: string): LabelSelector {
  const requirements = new Parser(lexLabelSelector(text)).parse();
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
