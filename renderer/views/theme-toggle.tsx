// The top bar's theme button: one click steps system -> light -> dark, remembered across sessions. In
// "system" the theme follows the operating system's scheme as it changes.
import { useEffect, useState, type ReactNode } from 'react';
import {
  applyTheme,
  loadThemeChoice,
  nextThemeChoice,
  onSystemSchemeChange,
  resolveTheme,
  saveThemeChoice,
  systemPrefersDark,
  type ThemeChoice,
} from '../ui-state/theme';

const labels: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };
const icons: Record<ThemeChoice, string> = { system: '◐', light: '☀', dark: '☾' };

export function ThemeToggle(): ReactNode {
  const [choice, setChoice] = useState<ThemeChoice>(loadThemeChoice);
  const [prefersDark, setPrefersDark] = useState(systemPrefersDark);

  useEffect(() => onSystemSchemeChange(() => setPrefersDark(systemPrefersDark())), []);
  useEffect(() => applyTheme(resolveTheme(choice, prefersDark)), [choice, prefersDark]);

  const next = nextThemeChoice(choice);
  return (
    <button
      type="button"
      className="control quiet theme-toggle"
      data-testid="theme-toggle"
      data-theme-choice={choice}
      title={`Theme: ${labels[choice]}${choice === 'system' ? ` (${resolveTheme(choice, prefersDark)})` : ''}. Click for ${labels[next].toLowerCase()}.`}
      aria-label={`Theme: ${labels[choice]}`}
      onClick={() => {
        saveThemeChoice(next);
        setChoice(next);
      }}
    >
      <span aria-hidden="true">{icons[choice]}</span> {labels[choice]}
    </button>
  );
}
