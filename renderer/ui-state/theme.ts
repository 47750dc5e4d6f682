// The colour theme: the user picks light, dark, or "system" (follow prefers-color-scheme, the default),
// and the pick is remembered in localStorage, which is UI state and never leaves the renderer. The
// theme applied is always a concrete one, written to <html data-theme>, because the stylesheet keeps
// one block per theme (renderer/styles/theme.css) and "system" is resolved here, where a change of the
// system's scheme can be followed live.
export type ThemeChoice = 'system' | 'light' | 'dark';
export type AppliedTheme = 'light' | 'dark';

export const themeChoices: readonly ThemeChoice[] = ['system', 'light', 'dark'];

const storageKey = 'kubetide.theme';
const darkQuery = '(prefers-color-scheme: dark)';

/** The remembered choice; "system" when none was made or storage is unavailable. */
export function loadThemeChoice(storage: Pick<Storage, 'getItem'> | undefined = safeStorage()): ThemeChoice {
  const stored = storage?.getItem(storageKey);
  return themeChoices.includes(stored as ThemeChoice) ? (stored as ThemeChoice) : 'system';
}

export function saveThemeChoice(
  choice: ThemeChoice,
  storage: Pick<Storage, 'setItem'> | undefined = safeStorage(),
): void {
  try {
    storage?.setItem(storageKey, choice);
  } catch {
    // Storage full or denied: the choice still holds for this window.
  }
}

/** The theme a choice shows, given whether the system prefers dark. */
export function resolveTheme(choice: ThemeChoice, systemPrefersDark: boolean): AppliedTheme {
  if (choice === 'system') return systemPrefersDark ? 'dark' : 'light';
  return choice;
}

/** The choice after `choice` in the toggle's cycle: system -> light -> dark -> system. */
export function nextThemeChoice(choice: ThemeChoice): ThemeChoice {
  return themeChoices[(themeChoices.indexOf(choice) + 1) % themeChoices.length]!;
}

export function systemPrefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia(darkQuery).matches;
}

/** Calls `listener` whenever the system's colour scheme changes; returns the unsubscribe. */
export function onSystemSchemeChange(listener: () => void): () => void {
  if (typeof matchMedia !== 'function') return () => {};
  const query = matchMedia(darkQuery);
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

/** Shows `theme` on the document: the stylesheet's block and the browser's own controls follow it. */
export function applyTheme(theme: AppliedTheme, root: HTMLElement = document.documentElement): void {
  root.dataset['theme'] = theme;
}

function safeStorage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}
