// The label and field selector parsers meet whatever the filter bar is given, keystroke by keystroke:
// each string either parses or fails with a SelectorParseError that locates the problem in the input.
// Whatever parses prints canonically, and the canonical text parses back to itself.
import { describe, expect, it } from 'vitest';
import { parseFieldSelector } from '../../shared/selectors/field-selector';
import { parseLabelSelector } from '../../shared/selectors/label-selector';
import { SelectorParseError } from '../../shared/selectors/selector-parse-error';
import { seededRandom } from '../support/seeded-random';
import { randomText } from './fuzz-inputs';

const labelAlphabet = 'ab.-_/=!,()<> \tinotexs0123456789';
const fieldAlphabet = 'ab.-_=!,\\ metadata.name spec.nodeName status.phase';
const iterations = 1500;

function expectParsedOrLocated(parse: (text: string) => { toString(): string }, text: string): void {
  let canonical: string;
  try {
    canonical = parse(text).toString();
  } catch (error) {
    expect(error, `input ${JSON.stringify(text)}`).toBeInstanceOf(SelectorParseError);
    const { position, length, message } = error as SelectorParseError;
    expect(message.length).toBeGreaterThan(0);
    expect(position).toBeGreaterThanOrEqual(0);
    expect(position + length).toBeLessThanOrEqual(text.length);
    return;
  }
  expect(parse(canonical).toString(), `input ${JSON.stringify(text)}`).toBe(canonical);
}

describe('selector parsers under random input', () => {
  it('label selectors parse or fail with a located SelectorParseError', () => {
    const random = seededRandom(61);
    for (let iteration = 0; iteration < iterations; iteration++)
      expectParsedOrLocated(parseLabelSelector, randomText(random, labelAlphabet, 40));
  });

  it('field selectors parse or fail with a located SelectorParseError', () => {
    const random = seededRandom(62);
    for (let iteration = 0; iteration < iterations; iteration++)
      expectParsedOrLocated(parseFieldSelector, randomText(random, fieldAlphabet, 40));
  });

  it('huge selectors are answered, not hung on', () => {
    const huge = [
      'a in ('.repeat(20_000),
      'a=b,'.repeat(50_000),
      '!'.repeat(100_000),
      `a=${'x'.repeat(200_000)}`,
      `${'a'.repeat(100_000)}!=b`,
    ];
    for (const text of huge) {
      expectParsedOrLocated(parseLabelSelector, text);
      expectParsedOrLocated(parseFieldSelector, text);
    }
  });
});
