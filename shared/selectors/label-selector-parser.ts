// The recursive-descent parser of apimachinery's labels.Parse (pkg/labels/selector.go), rule for rule
// and message for message, over tokens that know where they are so errors can be underlined.

import { labelKeyProblems } from './label-syntax';
import { aggregateMessage, invalidValue, requirementProblems } from './requirement';
import type { Operator, Requirement } from './requirement';
import { lexLabelSelector } from './label-selector-lexer';
import type { Token } from './label-selector-lexer';
import { SelectorParseError } from './selector-parse-error';

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

/** The requirements of a selector in the order written; throws SelectorParseError. */
export function parseRequirements(text: string): Requirement[] {
  return new Parser(lexLabelSelector(text)).parse();
}
