// `?`: every keyboard shortcut on one card. Kept in step with ui-state/keyboard.ts.
import type { ReactNode } from 'react';

const shortcuts: readonly (readonly [string[], string])[] = [
  [['/'], 'Focus the filter bar'],
  [[':'], 'Command palette: jump to a kind (:pods, :deploy, :svc)'],
  [['Ctrl', 'K'], 'Search: objects of every loaded kind by name or label (app=web), and kinds'],
  [['j', '↓'], 'Next row'],
  [['k', '↑'], 'Previous row'],
  [['g'], 'First row'],
  [['G'], 'Last row'],
  [['Enter'], 'Open the detail pane'],
  [['y'], 'Show the YAML'],
  [['e'], 'Show the events'],
  [
    ['l'],
    'Logs of the selected pod or workload, full height (f follow, s pause, p previous, / search, n N matches)',
  ],
  [['c'], 'Copy the selected name'],
  [['h'], 'Show the history of the selected object'],
  [['[', ']'], 'Travel to the previous / next change of the selected object'],
  [['Space'], 'Play / pause the timeline'],
  [['Esc'], 'Back to live, close the pane, clear the filter focus'],
  [['?'], 'This help'],
];

export function HelpOverlay(props: { readonly onClose: () => void }): ReactNode {
  return (
    <div className="overlay" role="presentation" onMouseDown={props.onClose}>
      <div
        className="help"
        role="dialog"
        aria-modal="true"
        aria-label="Keyboard shortcuts"
        onMouseDown={(event) => event.stopPropagation()}
      >
        <h2>Keyboard shortcuts</h2>
        <dl>
          {shortcuts.map(([keys, meaning]) => (
            <div key={meaning} className="help-row">
              <dt>
                {keys.map((key) => (
                  <kbd key={key}>{key}</kbd>
                ))}
              </dt>
              <dd>{meaning}</dd>
            </div>
          ))}
        </dl>
        <p className="help-note">
          Filter syntax: <code>app=web,tier!=db</code> <code>env in (prod,staging)</code> <code>!canary</code>{' '}
          <code>ns=payments</code> <code>node=n-12</code> <code>owner=web-7c9d8</code>{' '}
          <code>status=Pending</code> <code>status!=Running</code> <code>cpu&gt;250m</code>{' '}
          <code>mem&gt;=1Gi</code> and free text.
        </p>
      </div>
    </div>
  );
}
