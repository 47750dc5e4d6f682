// `:` or Ctrl+K: jump to a kind by any of its names, as k9s does (`:pods`, `:deploy`, `:svc`,
// `:deployments.apps`). Matching is by prefix on every alias first, then by substring, so the usual
// abbreviations land on the first entry; Enter takes the highlighted entry.
import { useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface PaletteEntry {
  readonly id: string;
  readonly title: string;
  /** Lower-case names the entry answers to: resource, singular, short names, kind. */
  readonly aliases: readonly string[];
  readonly detail?: string;
}

/** Entries matching `query` (a leading ':' ignored), best first: exact alias, alias prefix, substring. */
export function matchPaletteEntries(entries: readonly PaletteEntry[], query: string): PaletteEntry[] {
  const wanted = query.replace(/^:/, '').trim().toLowerCase();
  if (wanted === '') return [...entries];
  const scored: { entry: PaletteEntry; score: number; order: number }[] = [];
  entries.forEach((entry, order) => {
    let score = 0;
    for (const alias of entry.aliases) {
      if (alias === wanted) score = Math.max(score, 3);
      else if (alias.startsWith(wanted)) score = Math.max(score, 2);
      else if (alias.includes(wanted)) score = Math.max(score, 1);
    }
    if (score > 0) scored.push({ entry, score, order });
  });
  return scored.sort((a, b) => b.score - a.score || a.order - b.order).map((item) => item.entry);
}

export interface CommandPaletteProps {
  readonly entries: readonly PaletteEntry[];
  readonly initialQuery: string;
  readonly onChoose: (id: string) => void;
  readonly onClose: () => void;
}

export function CommandPalette(props: CommandPaletteProps): ReactNode {
  const [query, setQuery] = useState(props.initialQuery);
  const [highlighted, setHighlighted] = useState(0);
  const matches = useMemo(
    () => matchPaletteEntries(props.entries, query).slice(0, 12),
    [props.entries, query],
  );
  const current = Math.min(highlighted, Math.max(0, matches.length - 1));

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || (event.ctrlKey && event.key === 'n')) {
      event.preventDefault();
      setHighlighted(Math.min(current + 1, matches.length - 1));
    } else if (event.key === 'ArrowUp' || (event.ctrlKey && event.key === 'p')) {
      event.preventDefault();
      setHighlighted(Math.max(current - 1, 0));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const chosen = matches[current];
      if (chosen) props.onChoose(chosen.id);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      props.onClose();
    }
  };

  return (
    <div className="overlay" role="presentation" onMouseDown={props.onClose}>
      <div
        className="palette"
        role="dialog"
        aria-modal="true"
        aria-label="Go to kind"
        onMouseDown={(event) => event.stopPropagation()}
      >
        <input
          className="palette-input"
          autoFocus
          value={query}
          placeholder=":pods, :deploy, :svc, :nodes…"
          aria-label="Kind to open"
          data-testid="palette-input"
          onChange={(event) => {
            setQuery(event.target.value);
            setHighlighted(0);
          }}
          onKeyDown={onKeyDown}
        />
        <ul className="palette-list" role="listbox" aria-label="Kinds">
          {matches.length === 0 && (
            <li className="palette-empty">No kind matches “{query.replace(/^:/, '')}”</li>
          )}
          {matches.map((entry, index) => (
            <li
              key={entry.id}
              role="option"
              aria-selected={index === current}
              className={`palette-item${index === current ? ' highlighted' : ''}`}
              onMouseEnter={() => setHighlighted(index)}
              onMouseDown={() => props.onChoose(entry.id)}
            >
              <span className="palette-title">{entry.title}</span>
              <span className="palette-aliases">{entry.aliases.slice(0, 3).join(' · ')}</span>
              {entry.detail && <span className="palette-detail">{entry.detail}</span>}
            </li>
          ))}
        </ul>
        <div className="palette-hint">
          <kbd>↑</kbd>
          <kbd>↓</kbd> choose <kbd>Enter</kbd> open <kbd>Esc</kbd> close
        </div>
      </div>
    </div>
  );
}
