// The filter bar: kubectl selector syntax plus ns=/node=/owner=/status= and free text, counts as you
// type, completion from the mirror's indexes, and an invalid part underlined with the parser's reason.
// The underline is drawn by a transparent twin of the text behind the input, so the input stays a
// plain <input> (selection, IME and undo work as everywhere else).
import { forwardRef, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Completion } from '../ui-state/completion';
import { applyCompletion } from '../ui-state/completion';
import type { FilterError } from '../ui-state/filter-expression';
import { formatCount } from './format';
import { SearchIcon } from '../components/icons';

export interface FilterBarProps {
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly error: FilterError | undefined;
  readonly matched: number;
  /** Rows mirrored; undefined while no list has answered (shown as "…"). */
  readonly total: number | undefined;
  readonly complete: (text: string, caret: number) => Completion[];
  readonly kindTitle: string;
}

export const FilterBar = forwardRef<HTMLInputElement, FilterBarProps>(
  function FilterBar(props, inputRef): ReactNode {
    const [caret, setCaret] = useState<number | undefined>(undefined);
    const [highlighted, setHighlighted] = useState(0);
    const [dismissed, setDismissed] = useState(false);
    const twinRef = useRef<HTMLDivElement>(null);
    // Asked again when the text, the caret or the mirror changes, not on every render: under churn the
    // window re-renders each frame, and suggestions read label indexes of up to 150,000 rows.
    const { complete, value: text } = props;
    const completions = useMemo(
      () => (caret === undefined || dismissed ? [] : complete(text, caret)),
      [complete, text, caret, dismissed],
    );
    const current = Math.min(highlighted, Math.max(0, completions.length - 1));

    const accept = (completion: Completion, input: HTMLInputElement) => {
      const next = applyCompletion({ text: props.value, caret: caret ?? props.value.length }, completion);
      props.onChange(next.text);
      setCaret(next.caret);
      requestAnimationFrame(() => input.setSelectionRange(next.caret, next.caret));
    };

    const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
      if (completions.length > 0 && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setHighlighted((current + step + completions.length) % completions.length);
        return;
      }
      if (completions.length > 0 && (event.key === 'Tab' || event.key === 'Enter')) {
        const chosen = completions[current];
        if (chosen) {
          event.preventDefault();
          accept(chosen, event.currentTarget);
        }
        return;
      }
      if (event.key === 'Escape') {
        if (completions.length > 0) {
          event.preventDefault();
          event.stopPropagation();
          setDismissed(true);
          return;
        }
        // Leaving the field is all this Escape does: the window's Escape (close the pane, back to
        // live) waits for the next press.
        event.preventDefault();
        event.currentTarget.blur();
        return;
      }
      if (event.key === 'Enter') event.currentTarget.blur();
    };

    const { error, value } = props;
    const filtered = props.matched !== props.total;
    return (
      <div className={`filter${error ? ' invalid' : ''}`} data-testid="filter">
        <div className="filter-box">
          <span className="filter-icon">
            <SearchIcon />
          </span>
          <div className="filter-field">
            <div className="filter-twin" ref={twinRef} aria-hidden="true">
              {error ? (
                <>
                  {value.slice(0, error.start)}
                  <span className="filter-error-span">{value.slice(error.start, error.end) || ' '}</span>
                  {value.slice(error.end)}
                </>
              ) : (
                value
              )}
            </div>
            <input
              ref={inputRef}
              className="filter-input"
              value={value}
              spellCheck={false}
              autoComplete="off"
              placeholder={`Filter ${props.kindTitle.toLowerCase()}: app=web,tier!=db  ns=…  node=…  status=…  text`}
              aria-label="Filter"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'filter-error' : undefined}
              data-testid="filter-input"
              onChange={(event) => {
                props.onChange(event.target.value);
                setCaret(event.target.selectionStart ?? event.target.value.length);
                setHighlighted(0);
                setDismissed(false);
              }}
              onSelect={(event) => setCaret(event.currentTarget.selectionStart ?? undefined)}
              onScroll={(event) => {
                if (twinRef.current) twinRef.current.scrollLeft = event.currentTarget.scrollLeft;
              }}
              onBlur={() => setCaret(undefined)}
              onFocus={(event) => setCaret(event.currentTarget.selectionStart ?? value.length)}
              onKeyDown={onKeyDown}
            />
          </div>
          <span
            className="filter-count"
            data-testid="filter-count"
            title="Matching rows of all rows mirrored"
          >
            {props.total === undefined
              ? '…'
              : filtered
                ? `${formatCount(props.matched)} of ${formatCount(props.total)}`
                : formatCount(props.total)}
          </span>
        </div>
        {error && completions.length === 0 && (
          <div className="filter-error" id="filter-error" role="alert" data-testid="filter-error">
            {error.message}
          </div>
        )}
        {completions.length > 0 && (
          <ul className="completions" role="listbox" aria-label="Suggestions">
            {completions.map((completion, index) => (
              <li
                key={completion.insert}
                role="option"
                aria-selected={index === current}
                className={`completion${index === current ? ' highlighted' : ''}`}
                onMouseDown={(event) => {
                  event.preventDefault();
                  const input = (event.currentTarget.closest('.filter')?.querySelector('input') ??
                    null) as HTMLInputElement | null;
                  if (input) accept(completion, input);
                }}
              >
                <span>{completion.insert}</span>
                <span className="completion-detail">{completion.detail}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    );
  },
);
