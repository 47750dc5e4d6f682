// Log search: text (smart case) and regex queries, highlight ranges, next/previous with wrap-around,
// and incremental upkeep as lines are appended, dropped and merged in.
import { describe, expect, it } from 'vitest';
import { LogBuffer } from '../../../renderer/store/log-buffer';
import { LogMatches, compileQuery, matchRanges } from '../../../renderer/store/log-search';
import { stripAnsi } from '../../../renderer/views/logs/ansi';

const pattern = (text: string, regex = false) => {
  const compiled = compileQuery({ text, regex });
  if (!compiled.ok) throw new Error(compiled.error);
  return compiled.pattern;
};

describe('log search', () => {
  it('matches text literally, ignoring case unless the query has a capital', () => {
    expect(matchRanges('GET /a.b GET', pattern('get'))).toEqual([
      [0, 3],
      [9, 12],
    ]);
    expect(matchRanges('GET get', pattern('Get'))).toEqual([]);
    expect(matchRanges('a.b axb', pattern('a.b'))).toEqual([[0, 3]]);
  });

  it('matches regular expressions, ignoring empty matches, and reports a bad one', () => {
    expect(matchRanges('status=500 status=200', pattern('status=5\\d\\d', true))).toEqual([[0, 10]]);
    expect(matchRanges('abc', pattern('x*', true))).toEqual([]);
    expect(compileQuery({ text: '(', regex: true }).ok).toBe(false);
  });

  it('finds matching lines on the text without colours, and steps through them with wrap-around', () => {
    const buffer = new LogBuffer(100);
    buffer.append(
      ['ok', '\u001b[31mERROR\u001b[0m one', 'ok', 'error two', 'ok'].map((text, time) => ({
        time,
        source: 0,
        text,
      })),
    );
    const matches = new LogMatches(buffer, pattern('error'), stripAnsi);
    matches.update();
    expect(matches.count).toBe(2);
    expect([matches.index(0), matches.index(1)]).toEqual([1, 3]);
    expect(matches.next(2, true)).toBe(1);
    expect(matches.next(4, true)).toBe(0);
    expect(matches.next(1, false)).toBe(1);
    expect(matches.next(2, false)).toBe(0);
  });

  it('scans only new lines on append, forgets dropped ones, and rescans after a merge', () => {
    const buffer = new LogBuffer(4);
    const texts: string[] = [];
    const plain = (text: string) => {
      texts.push(text);
      return text;
    };
    const matches = new LogMatches(buffer, pattern('x'), plain);
    buffer.append([0, 1, 2].map((time) => ({ time, source: 0, text: time % 2 ? 'x' : 'y' })));
    matches.update();
    buffer.append([3, 4, 5].map((time) => ({ time, source: 0, text: time % 2 ? 'x' : 'y' })));
    texts.length = 0;
    matches.update();
    expect(matches.count).toBe(2);
    expect([matches.index(0), matches.index(1)]).toEqual([1, 3]);
    buffer.append([{ time: 6, source: 0, text: 'x' }]);
    texts.length = 0;
    matches.update();
    expect(texts).toEqual(['x']);
    buffer.append([{ time: 3.5, source: 1, text: 'x' }]);
    matches.update();
    expect(Array.from({ length: matches.count }, (_, n) => buffer.time(matches.index(n)))).toEqual([
      3.5, 5, 6,
    ]);
  });
});
