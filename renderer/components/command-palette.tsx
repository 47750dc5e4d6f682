// `:` or Ctrl+K: jump to a kind by any of its names, as k9s does (`:pods`, `:deploy`, `:svc`,
// `:deployments.apps`), or to an object of any searched kind by name or label (`web-7c9d8`, `app=web`),
// grouped by kind. Kinds match by prefix on every alias first, then by substring, so the usual
// abbreviations land on the first entry; Enter takes the highlighted entry, kind or object.
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

/** One object found, and the kind group it is shown under. */
export interface PaletteObject {
  readonly id: string;
  readonly title: string;
  readonly detail?: string;
  /** A CSS class colouring `badge` (a status word). */
  readonly badgeClass?: string;
  readonly badge?: string;
}

export interface PaletteObjectGroup {
  readonly id: string;
  readonly title: string;
  /** Matches in the kind, counted up to a limit; `more` when the count is a lower bound. */
  readonly count: number;
  readonly more: boolean;
  readonly objects: readonly PaletteObject[];
}

export interface PaletteObjectSearch {
  /** Says what was searched ("searching 6 kinds loaded in this window"). */
  readonly scope: string;
  readonly find: (query: string) => readonly PaletteObjectGroup[];
}

export interface CommandPaletteProps {
  readonly entries: readonly PaletteEntry[];
  readonly initialQuery: string;
  readonly onChoose: (id: string) => void;
  readonly onClose: () => void;
  readonly objectSearch?: PaletteObjectSearch;
  readonly onChooseObject?: (groupId: string, objectId: string) => void;
}

type Choice =
  | { readonly type: 'kind'; readonly entry: PaletteEntry }
  | { readonly type: 'object'; readonly group: PaletteObjectGroup; readonly object: PaletteObject };

/** Kinds shown above object results (all of them, up to 12, when no object matches). */
const kindsAboveObjects = 4;

export function CommandPalette(props: CommandPaletteProps): ReactNode {
  const [query, setQuery] = useState(props.initialQuery);
  const [highlighted, setHighlighted] = useState(0);
  const objectSearch = props.objectSearch;
  const objectQuery = query.replace(/^:/, '').trim();
  const groups = useMemo(
    () => (objectSearch && objectQuery !== '' ? objectSearch.find(objectQuery) : []),
    [objectSearch, objectQuery],
  );
  const kinds = useMemo(
    () => matchPaletteEntries(props.entries, query).slice(0, groups.length > 0 ? kindsAboveObjects : 12),
    [props.entries, query, groups.length],
  );
  const matches = useMemo<Choice[]>(
    () => [
      ...kinds.map((entry) => ({ type: 'kind' as const, entry })),
      ...groups.flatMap((group) =>
        group.objects.map((object) => ({ type: 'object' as const, group, object })),
      ),
    ],
    [kinds, groups],
  );
  const current = Math.min(highlighted, Math.max(0, matches.length - 1));
  const choose = (choice: Choice | undefined) => {
    if (choice?.type === 'kind') props.onChoose(choice.entry.id);
    else if (choice) props.onChooseObject?.(choice.group.id, choice.object.id);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || (event.ctrlKey && event.key === 'n')) {
      event.preventDefault();
      setHighlighted(Math.min(current + 1, matches.length - 1));
    } else if (event.key === 'ArrowUp' || (event.ctrlKey && event.key === 'p')) {
      event.preventDefault();
      setHighlighted(Math.max(current - 1, 0));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(matches[current]);
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
        aria-label="Go to a kind or object"
        onMouseDown={(event) => event.stopPropagation()}
      >
        <input
          className="palette-input"
          autoFocus
          value={query}
          placeholder=":pods, :deploy, a name, app=web…"
          aria-label="Kind or object to open"
          data-testid="palette-input"
          onChange={(event) => {
            setQuery(event.target.value);
            setHighlighted(0);
          }}
          onKeyDown={onKeyDown}
        />
        <ul className="palette-list" role="listbox" aria-label="Kinds and objects">
          {matches.length === 0 && (
            <li className="palette-empty">Nothing matches “{query.replace(/^:/, '')}”</li>
          )}
          {matches.map((choice, index) => {
            const first = choice.type === 'object' && choice.group.objects[0] === choice.object;
            return (
              <PaletteRow
                key={
                  choice.type === 'kind'
                    ? `kind:${choice.entry.id}`
                    : `${choice.group.id}:${choice.object.id}`
                }
                choice={choice}
                heading={first}
                highlighted={index === current}
                onHover={() => setHighlighted(index)}
                onChoose={() => choose(choice)}
              />
            );
          })}
        </ul>
        {objectSearch && (
          <div className="palette-scope" data-testid="palette-scope">
            {objectSearch.scope}
          </div>
        )}
        <div className="palette-hint">
          <kbd>↑</kbd>
          <kbd>↓</kbd> choose <kbd>Enter</kbd> open <kbd>Esc</kbd> close
        </div>
      </div>
    </div>
  );
}

function PaletteRow(props: {
  readonly choice: Choice;
  readonly heading: boolean;
  readonly highlighted: boolean;
  readonly onHover: () => void;
  readonly onChoose: () => void;
}): ReactNode {
  const { choice } = props;
  const item = (
    <li
      role="option"
      aria-selected={props.highlighted}
      className={`palette-item${props.highlighted ? ' highlighted' : ''}`}
      onMouseEnter={props.onHover}
      onMouseDown={props.onChoose}
      {...(choice.type === 'object' ? { 'data-testid': 'palette-object' } : {})}
    >
      {choice.type === 'kind' ? (
        <>
          <span className="palette-title">{choice.entry.title}</span>
          <span className="palette-aliases">{choice.entry.aliases.slice(0, 3).join(' · ')}</span>
          {choice.entry.detail && <span className="palette-detail">{choice.entry.detail}</span>}
        </>
      ) : (
        <>
          <span className="palette-title cell-name">{choice.object.title}</span>
          {choice.object.detail && <span className="palette-aliases">{choice.object.detail}</span>}
          {choice.object.badge && (
            <span className="palette-detail">
              <span className={`status ${choice.object.badgeClass ?? ''}`}>{choice.object.badge}</span>
            </span>
          )}
        </>
      )}
    </li>
  );
  if (!props.heading || choice.type !== 'object') return item;
  const { group } = choice;
  return (
    <>
      <li className="palette-group" role="presentation" data-testid="palette-group">
        {group.title}
        <span className="muted">
          {' '}
          {group.more ? `${group.count.toLocaleString('en-US')}+` : group.count.toLocaleString('en-US')}
        </span>
      </li>
      {item}
    </>
  );
}
