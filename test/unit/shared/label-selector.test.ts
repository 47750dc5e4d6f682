import { describe, expect, it } from 'vitest';
import {
  SelectorParseError,
  everything,
  nothing,
  parseLabelSelector,
  selectorFromLabelSelector,
  selectorFromSet,
  tryParseLabelSelector,
} from '../../../shared/selectors/label-selector';
import { seededRandom } from '../../support/seeded-random';

const labels = { app: 'web', tier: 'frontend', replicas: '5', 'example.com/owner': 'team-a' };

function matches(text: string, target: Record<string, string> | undefined = labels): boolean {
  return parseLabelSelector(text).matches(target);
}

function parseError(text: string): SelectorParseError {
  try {
    parseLabelSelector(text);
  } catch (error) {
    if (error instanceof SelectorParseError) return error;
    throw error;
  }
  throw new Error(`"${text}" parsed`);
}

describe('label selector operators', () => {
  it('matches = and == on equal values only, and never a missing label', () => {
    expect(matches('app=web')).toBe(true);
    expect(matches('app==web')).toBe(true);
    expect(matches('app=api')).toBe(false);
    expect(matches('missing=web')).toBe(false);
  });

  it('matches != on different values and on a missing label', () => {
    expect(matches('app!=api')).toBe(true);
    expect(matches('app!=web')).toBe(false);
    expect(matches('missing!=web')).toBe(true);
  });

  it('matches in on any listed value and notin on none of them or a missing label', () => {
    expect(matches('tier in (backend, frontend)')).toBe(true);
    expect(matches('tier in (backend)')).toBe(false);
    expect(matches('missing in (a)')).toBe(false);
    expect(matches('tier notin (backend)')).toBe(true);
    expect(matches('tier notin (frontend,backend)')).toBe(false);
    expect(matches('missing notin (a)')).toBe(true);
  });

  it('matches a bare key when the label exists and !key when it does not', () => {
    expect(matches('app')).toBe(true);
    expect(matches('missing')).toBe(false);
    expect(matches('!missing')).toBe(true);
    expect(matches('!app')).toBe(false);
  });

  it('compares > and < as 64-bit integers, failing on a non-integer label', () => {
    expect(matches('replicas>4')).toBe(true);
    expect(matches('replicas>5')).toBe(false);
    expect(matches('replicas<6')).toBe(true);
    expect(matches('app>1')).toBe(false);
    expect(matches('missing<1')).toBe(false);
    expect(matches('big>9223372036854775806', { big: '9223372036854775807' })).toBe(true);
  });

  it('ANDs comma-separated requirements', () => {
    expect(matches('app=web,tier=frontend')).toBe(true);
    expect(matches('app=web,tier=backend')).toBe(false);
  });

  it('treats in and notin as plain words where a key or value is expected', () => {
    expect(parseLabelSelector('in').requirements).toEqual([{ key: 'in', operator: 'exists', values: [] }]);
    expect(parseLabelSelector('x in (in,notin)').requirements[0]!.values).toEqual(['in', 'notin']);
  });

  it('reads an empty value after = and the empty set forms of in', () => {
    expect(parseLabelSelector('a=').requirements[0]!.values).toEqual(['']);
    expect(parseLabelSelector('a in ()').requirements[0]!.values).toEqual(['']);
    expect(parseLabelSelector('a in (,b,)').requirements[0]!.values).toEqual(['', 'b']);
    expect(matches('a=', {})).toBe(false);
    expect(matches('a=', { a: '' })).toBe(true);
  });

  it('accepts a prefixed key with a DNS subdomain', () => {
    expect(matches('example.com/owner=team-a')).toBe(true);
  });

  it('selects everything when empty or blank', () => {
    for (const text of ['', '   ', '\t\n']) {
      const selector = parseLabelSelector(text);
      expect(selector.isEmpty()).toBe(true);
      expect(selector.matches(undefined)).toBe(true);
    }
  });
});

describe('label selector canonical text', () => {
  it('sorts requirements by key and values, and normalises spacing', () => {
    const selector = parseLabelSelector('  tier in (z,y) , app!=1,!canary, done,size>3 ');
    expect(selector.toString()).toBe('app!=1,!canary,done,size>3,tier in (y,z)');
  });

  it('keeps == distinct from = and drops duplicate values', () => {
    expect(parseLabelSelector('b==1,a=2').toString()).toBe('a=2,b==1');
    expect(parseLabelSelector('a notin (x,x,w)').toString()).toBe('a notin (w,x)');
  });
});

describe('label selector errors', () => {
  const cases: [string, string, number, number][] = [
    ['=a', "found '=', expected: !, identifier, or 'end of string'", 0, 1],
    ['!', "unable to parse requirement: found '', expected: identifier", 1, 0],
    ['a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt", 2, 1],
    ['a=b c', "found 'c', expected: ',' or 'end of string'", 4, 1],
    ['a=b,,c', "found ',', expected: identifier after ','", 4, 1],
    ['a=b,', "found '', expected: identifier after ','", 4, 0],
    ['x in a', "unable to parse requirement: found 'a' expected: '('", 5, 1],
    ['x in (a', "unable to parse requirement: found '', expected: ',' or ')'", 7, 0],
    ['x in (a b)', "unable to parse requirement: found 'b', expected: ',' or ')'", 8, 1],
    ['x in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier", 6, 1],
    ['!a=b', "found '=', expected: ',' or 'end of string'", 2, 1],
  ];
  for (const [text, message, position, length] of cases) {
    it(`explains "${text}" at ${position}+${length}`, () => {
      const error = parseError(text);
      expect(error.message).toBe(message);
      expect([error.position, error.length]).toEqual([position, length]);
    });
  }

  it('rejects an invalid key, pointing at it', () => {
    const error = parseError('ok=1,-bad-=x');
    expect(error.message).toMatch(
      /^unable to parse requirement: <nil>: Invalid value: "-bad-": name part must consist of alphanumeric/,
    );
    expect([error.position, error.length]).toEqual([5, 5]);
    expect(parseError('Upper.Case/x').message).toMatch(/prefix part a lowercase RFC 1123 subdomain/);
    expect(parseError('a/b/c').message).toMatch(/a qualified name must consist/);
    expect(parseError(`${'k'.repeat(64)}`).message).toMatch(/name part must be no more than 63 characters/);
  });

  it('rejects an invalid value, spanning the requirement', () => {
    const error = parseError('app=web, tier=-x');
    expect(error.message).toMatch(
      /^unable to parse requirement: values\[0\]\[tier\]: Invalid value: "-x": a valid label must be an empty string/,
    );
    expect([error.position, error.length]).toEqual([9, 7]);
    expect(parseError(`a=${'v'.repeat(64)}`).message).toMatch(/must be no more than 63 characters/);
  });

  it('requires an integer after > and <', () => {
    expect(parseError('a>b').message).toBe(
      `unable to parse requirement: values[0]: Invalid value: "b": for 'Gt', 'Lt' operators, the value must be an integer`,
    );
    expect(parseError('a<99999999999999999999').message).toMatch(/must be an integer/);
  });

  it('reports several problems of one requirement as a Go aggregate', () => {
    expect(parseError('a>x-').message).toMatch(
      /^unable to parse requirement: \[values\[0\]: Invalid value: "x-": for 'Gt', 'Lt' operators, the value must be an integer, values\[0\]\[a\]: Invalid value: "x-": a valid label/,
    );
  });

  it('returns errors as values from tryParseLabelSelector', () => {
    const result = tryParseLabelSelector('a in (');
    expect(result.error).toBeInstanceOf(SelectorParseError);
    expect(tryParseLabelSelector('a=b').selector?.toString()).toBe('a=b');
  });
});

describe('label selectors from objects', () => {
  it('builds a matchLabels selector from a set, unvalidated and sorted', () => {
    const selector = selectorFromSet({ tier: 'frontend', app: 'web' });
    expect(selector.toString()).toBe('app=web,tier=frontend');
    expect(selector.matches(labels)).toBe(true);
    expect(selectorFromSet({}).isEmpty()).toBe(true);
  });

  it('converts a metav1 LabelSelector with matchLabels and matchExpressions', () => {
    const selector = selectorFromLabelSelector({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['frontend', 'edge'] },
        { key: 'canary', operator: 'DoesNotExist' },
        { key: 'replicas', operator: 'Exists' },
        { key: 'zone', operator: 'NotIn', values: ['b'] },
      ],
    });
    expect(selector.toString()).toBe('app=web,!canary,replicas,tier in (edge,frontend),zone notin (b)');
    expect(selector.matches(labels)).toBe(true);
  });

  it('selects nothing for a missing selector and everything for an empty one', () => {
    expect(selectorFromLabelSelector(undefined).matchesNothing()).toBe(true);
    expect(selectorFromLabelSelector(null).matches(labels)).toBe(false);
    expect(selectorFromLabelSelector({}).isEmpty()).toBe(true);
    expect(selectorFromLabelSelector({}).matches(labels)).toBe(true);
    expect(nothing().matches({})).toBe(false);
    expect(nothing().isEmpty()).toBe(false);
    expect(everything().matchesNothing()).toBe(false);
  });

  it('rejects unknown operators and invalid requirements', () => {
    expect(() =>
      selectorFromLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] }),
    ).toThrow('"Gt" is not a valid label selector operator');
    expect(() =>
      selectorFromLabelSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }),
    ).toThrow(`values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty`);
    expect(() => selectorFromLabelSelector({ matchLabels: { 'bad key': 'x' } })).toThrow(SelectorParseError);
  });
});

describe('label selector fuzzing', () => {
  const random = seededRandom;
  const fragments = [
    'a',
    'b',
    'x1',
    'in',
    'notin',
    '=',
    '==',
    '!=',
    '!',
    '>',
    '<',
    '(',
    ')',
    ',',
    ' ',
    '7',
    '-',
    '.',
    '/',
    'é',
    '\0',
    'k.io/',
  ];

  it('throws nothing but SelectorParseError, and what parses round-trips through toString', () => {
    const next = random(20261130);
    let parsed = 0;
    for (let iteration = 0; iteration < 3000; iteration++) {
      const length = Math.floor(next() * 12);
      let text = '';
      for (let index = 0; index < length; index++) text += fragments[Math.floor(next() * fragments.length)];
      const result = tryParseLabelSelector(text);
      if (result.error) {
        expect(result.error.position).toBeGreaterThanOrEqual(0);
        expect(result.error.position + result.error.length).toBeLessThanOrEqual(text.length);
        continue;
      }
      parsed++;
      const canonical = result.selector.toString();
      const reparsed = parseLabelSelector(canonical);
      expect(reparsed.toString()).toBe(canonical);
      expect(reparsed.requirements).toEqual(result.selector.requirements);
      const target = { a: String(iteration % 9), b: 'x1', in: '', 'k.io/a': '7' };
      expect(reparsed.matches(target)).toBe(result.selector.matches(target));
    }
    expect(parsed).toBeGreaterThan(100);
  });
});
