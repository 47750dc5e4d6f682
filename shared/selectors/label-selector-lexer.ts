// The lexer of apimachinery's labels.Parse (pkg/labels/selector.go), extended with each token's offset so
// parse errors can point at the text they are about.

export type TokenType =
  | 'error'
  | 'end'
  | 'closedPar'
  | 'comma'
  | 'doesNotExist'
  | 'doubleEquals'
  | 'equals'
  | 'greaterThan'
  | 'identifier'
  | 'in'
  | 'lessThan'
  | 'notEquals'
  | 'notIn'
  | 'openPar';

export interface Token {
  type: TokenType;
  /** The token's text; for 'end' the empty string, for 'error' the explanation. */
  literal: string;
  position: number;
  length: number;
}

const symbolTokens: ReadonlyMap<string, TokenType> = new Map([
  [')', 'closedPar'],
  [',', 'comma'],
  ['!', 'doesNotExist'],
  ['==', 'doubleEquals'],
  ['=', 'equals'],
  ['>', 'greaterThan'],
  ['<', 'lessThan'],
  ['!=', 'notEquals'],
  ['(', 'openPar'],
]);

const keywordTokens: ReadonlyMap<string, TokenType> = new Map([
  ['in', 'in'],
  ['notin', 'notIn'],
]);

function isWhitespace(character: string): boolean {
  return character === ' ' || character === '\t' || character === '\r' || character === '\n';
}

function isSpecialSymbol(character: string): boolean {
  return '=!(),><'.includes(character);
}

/**
 * Splits a selector into tokens, ending with exactly one 'end' token. Like Go's lexer, a NUL character
 * ends the input, identifiers run until whitespace or a special symbol, and a run of symbols yields the
 * longest prefix that is a known operator.
 */
export function lexLabelSelector(text: string): Token[] {
  const tokens: Token[] = [];
  let position = 0;
  const at = (index: number): string => (index < text.length ? text[index]! : '\0');
  for (;;) {
    while (isWhitespace(at(position))) position++;
    const start = position;
    const character = at(position);
    if (character === '\0') {
      tokens.push({ type: 'end', literal: '', position: start, length: 0 });
      return tokens;
    }
    if (isSpecialSymbol(character)) {
      let buffer = '';
      let matched: TokenType | undefined;
      let matchedLength = 0;
      while (isSpecialSymbol(at(position))) {
        buffer += at(position);
        const type = symbolTokens.get(buffer);
        if (type !== undefined) {
          matched = type;
          matchedLength = buffer.length;
        } else if (matched !== undefined) {
          break;
        }
        position++;
      }
      if (matched === undefined) {
        tokens.push({
          type: 'error',
          literal: `error expected: keyword found '${buffer}'`,
          position: start,
          length: buffer.length,
        });
      } else {
        position = start + matchedLength;
        tokens.push({
          type: matched,
          literal: buffer.slice(0, matchedLength),
          position: start,
          length: matchedLength,
        });
      }
      continue;
    }
    while (at(position) !== '\0' && !isWhitespace(at(position)) && !isSpecialSymbol(at(position))) position++;
    const literal = text.slice(start, position);
    tokens.push({
      type: keywordTokens.get(literal) ?? 'identifier',
      literal,
      position: start,
      length: literal.length,
    });
  }
}
