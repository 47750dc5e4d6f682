// The namespace multi-select. Lists the namespaces the cluster has (from the namespaces mirror) and
// those the user can read where Namespaces cannot be listed (the context's own and typed ones), with
// how many rows of the current kind each holds, searchable, and renders at most `shownLimit` matches
// so 10,000 namespaces cost no more than 200 (lens#7590: the namespace dropdown froze at 20k). A name
// typed in the search box that is not offered can be added (Enter), as Lens's "accessible namespaces"
// can: main then reads it with its own informers, and remembers it for the context.
import { useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Popover } from '../components/popover';
import { formatCount } from './format';

const shownLimit = 200;
/** A DNS label: what a namespace name must be. */
const namespaceName = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export interface NamespacePickerProps {
  /** Every namespace name, sorted. */
  readonly namespaces: readonly string[];
  /**
   * Rows of the current kind per namespace, asked only while the list is open: the namespace index
   * behind it catches up with every change since its last read, and the window renders at every
   * listing progress (4 a second): read on each of those renders, it was kept current through a whole
   * first list for a picker nobody opened (2-3% of the page's busy time to "synced" at 50,000 pods).
   */
  readonly counts: () => ReadonlyMap<string, { size: number }>;
  readonly selected: readonly string[];
  readonly onChange: (selected: string[]) => void;
  /** Names the user added (they can be forgotten); absent when main does not follow access. */
  readonly added?: readonly string[];
  /** Adds a typed namespace to the readable ones and selects it. */
  readonly onAdd?: (name: string) => void;
  readonly onForget?: (name: string) => void;
  /** Cluster-scoped kinds ignore the pick; the picker says so. */
  readonly ignored?: boolean;
}

export function NamespacePicker(props: NamespacePickerProps): ReactNode {
  const label =
    props.selected.length === 0 ? (
      <span>All namespaces</span>
    ) : props.selected.length === 1 ? (
      <span>{props.selected[0]}</span>
    ) : (
      <span>
        Namespaces <span className="muted">({props.selected.length})</span>
      </span>
    );
  return (
    <Popover
      label={props.ignored ? <span className="muted">{label}</span> : label}
      title={props.ignored ? 'Namespaces (not applied: this kind is cluster-scoped)' : 'Namespaces'}
      testId="namespace-picker"
    >
      {() => <NamespaceList {...props} />}
    </Popover>
  );
}

function NamespaceList(props: NamespacePickerProps): ReactNode {
  const [search, setSearch] = useState('');
  const selected = useMemo(() => new Set(props.selected), [props.selected]);
  const matches = useMemo(() => {
    const wanted = search.trim().toLowerCase();
    const all = props.namespaces.filter((name) => name.includes(wanted));
    return { shown: all.slice(0, shownLimit), more: Math.max(0, all.length - shownLimit) };
  }, [props.namespaces, search]);

  const toggle = (name: string) => {
    const next = new Set(selected);
    if (next.has(name)) next.delete(name);
    else next.add(name);
    props.onChange([...next].sort());
  };
  const typed = search.trim();
  const addable =
    props.onAdd !== undefined && namespaceName.test(typed) && !props.namespaces.includes(typed)
      ? typed
      : undefined;
  const added = new Set(props.added ?? []);
  const counts = props.counts();
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    if (addable !== undefined) {
      props.onAdd!(addable);
      setSearch('');
    } else if (props.namespaces.includes(typed)) toggle(typed);
  };

  return (
    <div className="namespace-list">
      <input
        className="menu-search"
        autoFocus
        placeholder="Search namespaces"
        aria-label="Search namespaces"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="menu-list" role="listbox" aria-multiselectable="true" aria-label="Namespaces">
        {matches.shown.map((name) => (
          <label key={name} className="menu-item" role="option" aria-selected={selected.has(name)}>
            <input type="checkbox" checked={selected.has(name)} onChange={() => toggle(name)} />
            <span>{name}</span>
            <span className="menu-detail">{formatCount(counts.get(name)?.size ?? 0)}</span>
            {added.has(name) && props.onForget && (
              <button
                type="button"
                className="link-button"
                title={`Stop reading ${name}`}
                aria-label={`Forget namespace ${name}`}
                onClick={(event) => {
                  event.preventDefault();
                  props.onForget!(name);
                }}
              >
                ×
              </button>
            )}
          </label>
        ))}
        {addable !== undefined && (
          <button
            type="button"
            className="menu-item link-button"
            data-testid="namespace-add"
            onClick={() => {
              props.onAdd!(addable);
              setSearch('');
            }}
          >
            Add namespace “{addable}” <span className="muted">Enter</span>
          </button>
        )}
        {matches.shown.length === 0 && addable === undefined && (
          <div className="menu-item muted">No namespace matches</div>
        )}
        {matches.more > 0 && (
          <div className="menu-item muted">…and {formatCount(matches.more)} more: refine the search</div>
        )}
      </div>
      <div className="menu-footer">
        <button type="button" className="link-button" onClick={() => props.onChange([])}>
          All namespaces
        </button>
        <span className="muted">{selected.size > 0 ? `${selected.size} selected` : ''}</span>
      </div>
    </div>
  );
}
