// k9s-style keys, decided by one pure function so the mapping is testable without a DOM. Keys typed
// into an input never reach it, except Escape (which leaves the input).

export type KeyCommand =
  | { type: 'focusFilter' }
  | { type: 'openPalette'; query: string }
  | { type: 'moveSelection'; by: number }
  | { type: 'selectEdge'; edge: 'first' | 'last' }
  | { type: 'openDetail' }
  | { type: 'showTab'; tab: 'yaml' | 'events' | 'history' }
  | { type: 'stepChange'; direction: 'previous' | 'next' }
  | { type: 'togglePlay' }
  | { type: 'copyName' }
  | { type: 'openLogs' }
  | { type: 'openSelectorLogs' }
  | { type: 'escape' }
  | { type: 'toggleHelp' };

/** What the function needs to know about a keydown. */
export interface KeyPress {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  /** True when focus is in a text field (the filter, the palette, a search box). */
  readonly inTextField: boolean;
}

/** The command a key press means in the main view, or undefined when the key is not ours. */
export function commandForKey(press: KeyPress): KeyCommand | undefined {
  if (press.key === 'Escape') return { type: 'escape' };
  if ((press.ctrlKey || press.metaKey) && press.key.toLowerCase() === 'k')
    return { type: 'openPalette', query: '' };
  if (press.inTextField || press.ctrlKey || press.metaKey || press.altKey) return undefined;
  switch (press.key) {
    case '/':
      return { type: 'focusFilter' };
    case ':':
      return { type: 'openPalette', query: ':' };
    case 'j':
    case 'ArrowDown':
      return { type: 'moveSelection', by: 1 };
    case 'k':
    case 'ArrowUp':
      return { type: 'moveSelection', by: -1 };
    case 'PageDown':
      return { type: 'moveSelection', by: 20 };
    case 'PageUp':
      return { type: 'moveSelection', by: -20 };
    case 'g':
    case 'Home':
      return { type: 'selectEdge', edge: 'first' };
    case 'G':
    case 'End':
      return { type: 'selectEdge', edge: 'last' };
    case 'Enter':
      return { type: 'openDetail' };
    case 'y':
      return { type: 'showTab', tab: 'yaml' };
    case 'e':
      return { type: 'showTab', tab: 'events' };
    case 'h':
      return { type: 'showTab', tab: 'history' };
    case '[':
      return { type: 'stepChange', direction: 'previous' };
    case ']':
      return { type: 'stepChange', direction: 'next' };
    case ' ':
      return { type: 'togglePlay' };
    case 'c':
      return { type: 'copyName' };
    case 'l':
      return { type: 'openLogs' };
    case 'L':
      return { type: 'openSelectorLogs' };
    case '?':
      return { type: 'toggleHelp' };
    default:
      return undefined;
  }
}

/** True when `target` is a field that takes typed text, so single-letter shortcuts must not fire. */
export function isTextField(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const element = target as HTMLElement;
  return element.closest('input, textarea, select, [contenteditable="true"], .cm-editor') !== null;
}
