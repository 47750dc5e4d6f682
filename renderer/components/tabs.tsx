// The detail pane's tab strip: a WAI-ARIA tablist, arrow keys move between tabs.
import type { KeyboardEvent, ReactNode } from 'react';

export interface TabsProps<Id extends string> {
  readonly tabs: readonly { readonly id: Id; readonly title: string; readonly badge?: number }[];
  readonly active: Id;
  readonly onChange: (id: Id) => void;
}

export function Tabs<Id extends string>(props: TabsProps<Id>): ReactNode {
  const { tabs, active, onChange } = props;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const index = tabs.findIndex((tab) => tab.id === active);
    const step = event.key === 'ArrowLeft' ? -1 : 1;
    const next = tabs[(index + step + tabs.length) % tabs.length];
    if (next) onChange(next.id);
  };
  return (
    <div className="tabs" role="tablist" onKeyDown={onKeyDown}>
      {tabs.map((tab) => (
        <button
          key={tab.id}
          type="button"
          role="tab"
          className={`tab${tab.id === active ? ' active' : ''}`}
          aria-selected={tab.id === active}
          tabIndex={tab.id === active ? 0 : -1}
          onClick={() => onChange(tab.id)}
        >
          {tab.title}
          {tab.badge !== undefined && <span className="tab-badge">{tab.badge}</span>}
        </button>
      ))}
    </div>
  );
}
