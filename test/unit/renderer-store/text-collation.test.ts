import { describe, expect, it } from 'vitest';
import { compareText } from '../../../renderer/store/text-collation';
import { seededRandom } from '../bridge/fixtures';

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
const collatorSign = (left: string, right: string): number => Math.sign(collator.compare(left, right));

/** Random texts over `alphabet`, up to `longest` characters, half of each pair sharing a prefix. */
function pairs(seed: number, alphabet: readonly string[], count: number, longest = 9): [string, string][] {
  const random = seededRandom(seed);
  const text = (): string => {
    let result = '';
    const length = Math.floor(random() * longest);
    for (let index = 0; index < length; index++) result += alphabet[Math.floor(random() * alphabet.length)];
    return result;
  };
  const result: [string, string][] = [];
  for (let index = 0; index < count; index++) {
    const left = text();
    result.push([
      left,
      random() < 0.5 ? left.slice(0, Math.floor(random() * (left.length + 1))) + text() : text(),
    ]);
  }
  return result;
}

/** A fallback that fails the test: the pairs it is given were to be answered without the collator. */
const noCollator = (left: string, right: string): number => {
  throw new Error(`the collator was asked ${JSON.stringify(left)} vs ${JSON.stringify(right)}`);
};

describe('compareText', () => {
  it("answers as the collator does for Kubernetes names' characters, without asking it", () => {
    // Leading zeros, case, '-' and '.', digit runs of unequal length, prefixes of one another.
    const alphabet = ['a', 'b', 'z', 'A', 'Z', '-', '.', '0', '0', '1', '2', '9'];
    const differing = pairs(3, alphabet, 40_000).filter(
      ([left, right]) => compareText(left, right, noCollator) !== collatorSign(left, right),
    );
    expect(differing).toEqual([]);
  });

  it('orders names as the collator does: numbers by value, case ignored, leading zeros equal', () => {
    const names = [
      'node-10',
      'node-9',
      'Node-2',
      'node-02',
      'node.1',
      'node-1a',
      'node',
      'node1',
      'web-7d9f-x',
    ];
    const byCollator = [...names].sort(
      (left, right) => collator.compare(left, right) || (left < right ? -1 : 1),
    );
    const byText = [...names].sort(
      (left, right) => compareText(left, right, noCollator) || (left < right ? -1 : 1),
    );
    expect(byText).toEqual(byCollator);
    expect(compareText('node-02', 'node-2', noCollator)).toBe(0);
    expect(compareText('Web', 'web', noCollator)).toBe(0);
  });

  it('hands any other character to the collator, whose answer it gives', () => {
    // Underscore and colon (RBAC names), a space, an accented letter and a combining mark: the
    // collator weighs them, and a mark after a letter may change how that letter weighs.
    const alphabet = ['a', 'b', 'A', '-', '.', '0', '1', '9', '_', ':', ' ', 'é', '\u0301'];
    const differing = pairs(5, alphabet, 40_000).filter(
      ([left, right]) => compareText(left, right) !== collatorSign(left, right),
    );
    expect(differing).toEqual([]);
    expect(compareText('e\u0301', 'e')).toBe(collatorSign('e\u0301', 'e'));
  });
});
