// Field selectors as apimachinery's fields.ParseSelector reads them (k8s.io/apimachinery/pkg/fields):
// comma-separated `field=value`, `field==value` or `field!=value` terms, all of which must hold. Values
// escape `\`, `,` and `=` with a backslash; field names are taken literally up to the first operator.

import { SelectorParseError } from './selector-parse-error';

export { SelectorParseError } from './selector-parse-error';

export interface FieldRequirement {
  field: string;
  operator: '=' | '==' | '!=';
  /** Unescaped. */
  value: string;
}

export interface FieldSelector {
  /** In Go's order: terms sorted by their raw text before parsing. */
  readonly requirements: readonly FieldRequirement[];
  /** A field the getter does not know reads as "", as fields.Set.Get returns for a missing field. */
  matches(get: (field: string) => string | undefined): boolean;
  isEmpty(): boolean;
  /** Canonical text: `==` prints as `=`, values escaped, as hasTerm and notHasTerm print. */
  toString(): string;
}

/** fields.EscapeValue: backslash, comma and equals sign are prefixed with a backslash. */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (character) => `\\${character}`);
}

/** fields.UnescapeValue; `offset` places errors within the whole selector text. */
function unescapeFieldValue(raw: string, offset: number): string {
  let value = '';
  let inSlash = false;
  for (let index = 0; index < raw.length; index++) {
    const character = raw[index]!;
    if (inSlash) {
      if (character !== '\\' && character !== ',' && character !== '=') {
        throw new SelectorParseError(
          `invalid field selector: invalid escape sequence: \\${character}`,
          offset + index - 1,
          2,
        );
      }
      value += character;
      inSlash = false;
    } else if (character === '\\') {
      inSlash = true;
    } else if (character === ',' || character === '=') {
      throw new SelectorParseError(
        `invalid field selector: unescaped character in value: '${character}'`,
        offset + index,
        1,
      );
    } else {
      value += character;
    }
  }
  if (inSlash) {
    throw new SelectorParseError(
      'invalid field selector: invalid escape sequence: \\',
      offset + raw.length - 1,
      1,
    );
  }
  return value;
}

interface Term {
  text: string;
  position: number;
}

/** fields.splitTerms: commas split terms unless escaped; the escaping backslash stays in the term. */
function splitTerms(text: string): Term[] {
  if (text.length === 0) return [];
  const terms: Term[] = [];
  let start = 0;
  let inSlash = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (inSlash) {
      inSlash = false;
    } else if (character === '\\') {
      inSlash = true;
    } else if (character === ',') {
      terms.push({ text: text.slice(start, index), position: start });
      start = index + 1;
    }
  }
  terms.push({ text: text.slice(start), position: start });
  return terms;
}

/** `!=` and `==` are tried before `=` at each offset, so the first operator in the term splits it. */
const termOperators = ['!=', '==', '='] as const;

class TermsSelector implements FieldSelector {
  constructor(readonly requirements: readonly FieldRequirement[]) {}
  matches(get: (field: string) => string | undefined): boolean {
    return this.requirements.every((requirement) => {
      const actual = get(requirement.field) ?? '';
      return requirement.operator === '!=' ? actual !== requirement.value : actual === requirement.value;
    });
  }
  isEmpty(): boolean {
    return this.requirements.length === 0;
  }
  toString(): string {
    return this.requirements
      .map(
        ({ field, operator, value }) => `${field}${operator === '!=' ? '!=' : '='}${escapeFieldValue(value)}`,
      )
      .join(',');
  }
}

/**
 * fields.ParseSelector. Empty terms are skipped (so "" selects everything); a term without an operator
 * and a value with an unescaped `,` or `=` or a bad escape are errors. Field names are not checked here:
 * which fields a kind supports is the server's business (see objectFieldGetter).
 */
export function parseFieldSelector(text: string): FieldSelector {
  const terms = splitTerms(text).sort((left, right) =>
    left.text < right.text ? -1 : left.text > right.text ? 1 : 0,
  );
  const requirements: FieldRequirement[] = [];
  for (const term of terms) {
    if (term.text === '') continue;
    let split: { index: number; operator: FieldRequirement['operator'] } | undefined;
    for (let index = 0; index < term.text.length && split === undefined; index++) {
      const operator = termOperators.find((candidate) => term.text.startsWith(candidate, index));
      if (operator !== undefined) split = { index, operator };
    }
    if (split === undefined) {
      throw new SelectorParseError(
        `invalid selector: '${text}'; can't understand '${term.text}'`,
        term.position,
        term.text.length,
      );
    }
    const valueStart = split.index + split.operator.length;
    requirements.push({
      field: term.text.slice(0, split.index),
      operator: split.operator,
      value: unescapeFieldValue(term.text.slice(valueStart), term.position + valueStart),
    });
  }
  return new TermsSelector(requirements);
}

/** parseFieldSelector for input being typed: the error is a value, never thrown. */
export function tryParseFieldSelector(
  text: string,
): { selector: FieldSelector; error?: undefined } | { selector?: undefined; error: SelectorParseError } {
  try {
    return { selector: parseFieldSelector(text) };
  } catch (error) {
    if (error instanceof SelectorParseError) return { error };
    throw error;
  }
}
export { objectFieldGetter } from './object-field-getter';
