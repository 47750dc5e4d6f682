// The log view's controls: container picker, follow, pause, previous, timestamps, wrap, since and tail,
// the buffer's cap, search (text or regex, only matching lines, next/previous), download.
import type { ReactNode, RefObject } from 'react';
import type { ContainerChoice, LogSubject } from './log-subject';
import { logSubjectTitle } from './log-subject';

export interface LogSettings {
  /** Keep the newest line in view. */
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  wrap: boolean;
  tailLines: number | undefined;
  sinceSeconds: number | undefined;
  /** Lines the view keeps; older ones are dropped. */
  capacity: number;
  search: string;
  regex: boolean;
  onlyMatching: boolean;
}

export interface LogToolbarProps {
  readonly subject: LogSubject;
  readonly settings: LogSettings;
  readonly paused: boolean;
  readonly waiting: number;
  readonly choices: readonly ContainerChoice[];
  readonly container: string | undefined;
  readonly onContainer: (container: string | undefined) => void;
  readonly onChange: (change: Partial<LogSettings>) => void;
  readonly onTogglePause: () => void;
  readonly searchRef: RefObject<HTMLInputElement | null>;
  readonly searchError: string | undefined;
  readonly matchCount: number | undefined;
  readonly currentMatch: number | undefined;
  readonly onNextMatch: () => void;
  readonly onPreviousMatch: () => void;
  readonly onDownload: () => void;
  readonly onExpand?: () => void;
  readonly onClose?: () => void;
}

const sinceChoices: readonly [string, number | undefined][] = [
  ['all time', undefined],
  ['1m', 60],
  ['5m', 300],
  ['15m', 900],
  ['1h', 3600],
  ['6h', 21_600],
  ['24h', 86_400],
];
const tailChoices: readonly [string, number | undefined][] = [
  ['100', 100],
  ['1,000', 1000],
  ['10,000', 10_000],
  ['100,000', 100_000],
  ['all', undefined],
];
const capacityChoices = [100_000, 1_000_000, 5_000_000];

/** A labelled select over [label, value] choices (an undefined value is a choice too: "all"). */
function ChoiceSelect(props: {
  readonly label: string;
  readonly choices: readonly [string, number | undefined][];
  readonly value: number | undefined;
  readonly onChange: (value: number | undefined) => void;
}): ReactNode {
  return (
    <label className="log-select">
      {props.label}
      <select
        value={String(props.choices.findIndex(([, value]) => value === props.value))}
        onChange={(event) => props.onChange(props.choices[Number(event.target.value)]![1])}
      >
        {props.choices.map(([label], index) => (
          <option key={label} value={index}>
            {label}
          </option>
        ))}
      </select>
    </label>
  );
}

function Toggle(props: {
  readonly label: string;
  readonly keyHint: string;
  readonly on: boolean;
  readonly onClick: () => void;
  readonly testId?: string;
}): ReactNode {
  return (
    <button
      type="button"
      className={`log-toggle${props.on ? ' on' : ''}`}
      aria-pressed={props.on}
      title={`${props.label} (${props.keyHint})`}
      onClick={props.onClick}
      {...(props.testId ? { 'data-testid': props.testId } : {})}
    >
      {props.label}
    </button>
  );
}

export function LogToolbar(props: LogToolbarProps): ReactNode {
  const { settings, onChange } = props;
  const roleSuffix = (choice: ContainerChoice) => (choice.role === 'container' ? '' : ` (${choice.role})`);
  return (
    <div className="log-toolbar" role="toolbar" aria-label="Log controls">
      <span className="log-title" data-testid="log-title">
        {logSubjectTitle(props.subject)[0]} <strong>{logSubjectTitle(props.subject)[1]}</strong>
      </span>
      <select
        aria-label="Container"
        data-testid="log-container"
        value={props.container ?? ''}
        onChange={(event) => props.onContainer(event.target.value || undefined)}
      >
        {props.subject.kind !== 'pod' && <option value="">all containers</option>}
        {props.choices.map((choice) => (
          <option key={choice.name} value={choice.name}>
            {choice.name}
            {roleSuffix(choice)}
          </option>
        ))}
      </select>
      <Toggle
        label="Follow"
        keyHint="f"
        on={settings.follow}
        onClick={() => onChange({ follow: !settings.follow })}
      />
      <Toggle
        label={
          props.paused
            ? `Resume${props.waiting ? ` (${props.waiting.toLocaleString('en-US')})` : ''}`
            : 'Pause'
        }
        keyHint="s"
        on={props.paused}
        onClick={props.onTogglePause}
        testId="log-pause"
      />
      <Toggle
        label="Previous"
        keyHint="p"
        on={settings.previous}
        onClick={() => onChange({ previous: !settings.previous })}
        testId="log-previous"
      />
      <Toggle
        label="Timestamps"
        keyHint="t"
        on={settings.timestamps}
        onClick={() => onChange({ timestamps: !settings.timestamps })}
      />
      <Toggle
        label="Wrap"
        keyHint="w"
        on={settings.wrap}
        onClick={() => onChange({ wrap: !settings.wrap })}
      />
      <ChoiceSelect
        label="since"
        choices={sinceChoices}
        value={settings.sinceSeconds}
        onChange={(sinceSeconds) => onChange({ sinceSeconds })}
      />
      <ChoiceSelect
        label="tail"
        choices={tailChoices}
        value={settings.tailLines}
        onChange={(tailLines) => onChange({ tailLines })}
      />
      <label className="log-select" title="Lines kept in the view; older ones are dropped">
        keep
        <select
          value={settings.capacity}
          onChange={(event) => onChange({ capacity: Number(event.target.value) })}
        >
          {capacityChoices.map((capacity) => (
            <option key={capacity} value={capacity}>
              {capacity.toLocaleString('en-US')}
            </option>
          ))}
        </select>
      </label>
      <span className={`log-search${props.searchError ? ' invalid' : ''}`}>
        <input
          ref={props.searchRef}
          type="search"
          placeholder="Search (/)"
          aria-label="Search the logs"
          data-testid="log-search"
          value={settings.search}
          title={props.searchError ?? 'Enter: next match, Shift+Enter: previous'}
          onChange={(event) => onChange({ search: event.target.value })}
        />
        <Toggle
          label=".*"
          keyHint="regular expression"
          on={settings.regex}
          onClick={() => onChange({ regex: !settings.regex })}
          testId="log-regex"
        />
        <Toggle
          label="Only matching"
          keyHint="filter"
          on={settings.onlyMatching}
          onClick={() => onChange({ onlyMatching: !settings.onlyMatching })}
          testId="log-only-matching"
        />
        {props.matchCount !== undefined && (
          <span className="log-match-count" data-testid="log-match-count">
            {props.currentMatch !== undefined ? `${props.currentMatch + 1} of ` : ''}
            {props.matchCount.toLocaleString('en-US')}
          </span>
        )}
        <button
          type="button"
          className="log-toggle"
          title="Previous match (N)"
          onClick={props.onPreviousMatch}
        >
          ↑
        </button>
        <button type="button" className="log-toggle" title="Next match (n)" onClick={props.onNextMatch}>
          ↓
        </button>
      </span>
      <button
        type="button"
        className="log-toggle"
        title="Download the lines shown"
        onClick={props.onDownload}
      >
        Download
      </button>
      {props.onExpand && (
        <button type="button" className="log-toggle" title="Full height (l)" onClick={props.onExpand}>
          Expand
        </button>
      )}
      {props.onClose && (
        <button type="button" className="log-toggle" title="Close (Esc)" onClick={props.onClose}>
          Close
        </button>
      )}
    </div>
  );
}
