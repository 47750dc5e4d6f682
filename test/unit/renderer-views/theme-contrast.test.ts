import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  loadThemeChoice,
  nextThemeChoice,
  resolveTheme,
  saveThemeChoice,
} from '../../../renderer/ui-state/theme';

const css = readFileSync(new URL('../../../renderer/styles/theme.css', import.meta.url), 'utf8');

/** The variables of the block opened by `selector` ('light' is :root's, 'dark' the data-theme one). */
function themeVariables(theme: 'light' | 'dark'): Map<string, string> {
  const opening = theme === 'light' ? ':root {' : ":root[data-theme='dark'] {";
  const start = css.indexOf(opening);
  const block = css.slice(start, css.indexOf('\n}', start));
  const variables = new Map<string, string>();
  for (const match of block.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})\s*;/gi))
    variables.set(match[1]!, match[2]!);
  return variables;
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((offset) => {
    const channel = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG 2 contrast ratio. */
function contrast(foreground: string, background: string): number {
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
  return (light! + 0.05) / (dark! + 0.05);
}

// Text a user must read, on the background it sits on (the table and detail pane sit on --bg-panel;
// the sync badge and status pills on their tinted backgrounds; CodeMirror's YAML view on the pane).
const pairs: [string, string][] = [
  ['text', 'bg-panel'],
  ['text', 'bg-selected'],
  ['text-muted', 'bg-panel'],
  ['text-faint', 'bg-panel'],
  ['accent-text', 'accent'],
  ['green', 'green-bg'],
  ['amber', 'amber-bg'],
  ['red', 'red-bg'],
  ['blue', 'blue-bg'],
  ['green', 'bg-panel'],
  ['amber', 'bg-panel'],
  ['red', 'bg-panel'],
  ['grey', 'bg-panel'],
  ['syntax-key', 'bg-panel'],
  ['syntax-string', 'bg-panel'],
  ['syntax-number', 'bg-panel'],
  ['syntax-comment', 'bg-panel'],
  ['syntax-keyword', 'bg-panel'],
];

describe.each(['light', 'dark'] as const)('the %s theme', (theme) => {
  const variables = themeVariables(theme);

  it.each(pairs)('--%s on --%s reads at WCAG AA (4.5:1)', (foreground, background) => {
    const ratio = contrast(variables.get(foreground)!, variables.get(background)!);
    expect(
      ratio,
      `${foreground} ${variables.get(foreground)} on ${background} ${variables.get(background)}`,
    ).toBeGreaterThanOrEqual(4.5);
  });
});

describe('theme choice', () => {
  it('follows the system by default, and the system decides light or dark', () => {
    expect(loadThemeChoice({ getItem: () => null })).toBe('system');
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
  });

  it('is remembered: what the toggle saves is what the next window loads', () => {
    const stored = new Map<string, string>();
    const storage = {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
    };
    saveThemeChoice(nextThemeChoice('system'), storage);
    expect(loadThemeChoice(storage)).toBe('light');
    saveThemeChoice(nextThemeChoice('light'), storage);
    expect(loadThemeChoice(storage)).toBe('dark');
    expect(nextThemeChoice('dark')).toBe('system');
  });

  it('ignores a stored value it does not know', () => {
    expect(loadThemeChoice({ getItem: () => 'sepia' })).toBe('system');
  });
});
