import { describe, expect, it } from 'vitest';
import { commandForKey } from '../../../renderer/ui-state/keyboard';
import { diffHeader, foldDiff } from '../../../renderer/views/history-tab';
import type { HistoryDiffLine } from '../../../shared/protocol';

const press = (key: string) => ({ key, ctrlKey: false, metaKey: false, altKey: false, inTextField: false });

describe('time travel keys', () => {
  it('steps through changes with [ and ], plays with Space, opens the history with h', () => {
    expect(commandForKey(press('['))).toEqual({ type: 'stepChange', direction: 'previous' });
    expect(commandForKey(press(']'))).toEqual({ type: 'stepChange', direction: 'next' });
    expect(commandForKey(press(' '))).toEqual({ type: 'togglePlay' });
    expect(commandForKey(press('h'))).toEqual({ type: 'showTab', tab: 'history' });
  });

  it('leaves Space to a text field being typed in', () => {
    expect(commandForKey({ ...press(' '), inTextField: true })).toBeUndefined();
  });
});

describe('the History tab folds long unchanged runs of a diff', () => {
  const same = (text: string): HistoryDiffLine => ({ kind: 'same', text });

  it('keeps three lines of context around a change and counts the folded ones', () => {
    const lines: HistoryDiffLine[] = [
      ...Array.from({ length: 10 }, (_, index) => same(`a${index}`)),
      { kind: 'removed', text: 'old' },
      { kind: 'added', text: 'new' },
      ...Array.from({ length: 10 }, (_, index) => same(`b${index}`)),
    ];
    const folded = foldDiff(lines);
    expect(folded[0]).toEqual({ kind: 'fold', count: 7 });
    expect(folded.slice(1, 4).map((line) => ('text' in line ? line.text : ''))).toEqual(['a7', 'a8', 'a9']);
    expect(folded.at(-1)).toEqual({ kind: 'fold', count: 7 });
    expect(folded).toHaveLength(1 + 3 + 2 + 3 + 1);
  });

  it('folds an identical pair of versions into one run', () => {
    expect(foldDiff([same('a'), same('b')])).toEqual([{ kind: 'fold', count: 2 }]);
  });

  it('says there is nothing to compare when one version is recorded, instead of asking for two', () => {
    expect(diffHeader(1, false, undefined)).toBe('One version recorded so far: nothing to compare yet.');
    expect(diffHeader(3, false, undefined)).toBe('Pick two versions to compare.');
    expect(diffHeader(3, true, undefined)).toBe('Comparing…');
    const diff: HistoryDiffLine[] = [
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'c' },
    ];
    expect(diffHeader(3, true, diff)).toBe('2 changed lines between the two selected versions');
    expect(diffHeader(2, true, diff.slice(0, 2))).toBe('1 changed line between the two selected versions');
  });
});
