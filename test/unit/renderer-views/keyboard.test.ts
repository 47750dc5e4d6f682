import { describe, expect, it } from 'vitest';
import { commandForKey, type KeyPress } from '../../../renderer/ui-state/keyboard';

const press = (key: string, extra: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  inTextField: false,
  ...extra,
});

describe('commandForKey', () => {
  it('maps the k9s keys', () => {
    expect(commandForKey(press('/'))).toEqual({ type: 'focusFilter' });
    expect(commandForKey(press(':'))).toEqual({ type: 'openPalette', query: ':' });
    expect(commandForKey(press('j'))).toEqual({ type: 'moveSelection', by: 1 });
    expect(commandForKey(press('ArrowUp'))).toEqual({ type: 'moveSelection', by: -1 });
    expect(commandForKey(press('Enter'))).toEqual({ type: 'openDetail' });
    expect(commandForKey(press('y'))).toEqual({ type: 'showTab', tab: 'yaml' });
    expect(commandForKey(press('?'))).toEqual({ type: 'toggleHelp' });
  });

  it('leaves letters typed into a text field alone', () => {
    expect(commandForKey(press('j', { inTextField: true }))).toBeUndefined();
    expect(commandForKey(press('/', { inTextField: true }))).toBeUndefined();
  });

  it('still answers Escape and Ctrl+K inside a text field', () => {
    expect(commandForKey(press('Escape', { inTextField: true }))).toEqual({ type: 'escape' });
    expect(commandForKey(press('k', { ctrlKey: true, inTextField: true }))).toEqual({
      type: 'openPalette',
      query: '',
    });
  });

  it('ignores keys with modifiers it does not own', () => {
    expect(commandForKey(press('c', { ctrlKey: true }))).toBeUndefined();
  });
});
