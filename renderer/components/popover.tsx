// A button that opens a floating panel below it (the context picker, the namespace multi-select).
// The panel closes on Escape, on a click outside, and when focus leaves it, as native menus do.
import { useEffect, useRef, useState, type ReactNode } from 'react';

export interface PopoverProps {
  readonly label: ReactNode;
  readonly title: string;
  readonly className?: string;
  readonly testId?: string;
  readonly children: (close: () => void) => ReactNode;
}

export function Popover(props: PopoverProps): ReactNode {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        setOpen(false);
      }
    };
    document.addEventListener('mousedown', onPointer);
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('mousedown', onPointer);
      document.removeEventListener('keydown', onKey, true);
    };
  }, [open]);

  return (
    <div className={`popover ${props.className ?? ''}`} ref={rootRef}>
      <button
        type="button"
        className="control popover-button"
        aria-haspopup="dialog"
        aria-expanded={open}
        title={props.title}
        data-testid={props.testId}
        onClick={() => setOpen((value) => !value)}
      >
        {props.label}
        <span className="chevron" aria-hidden="true">
          ▾
        </span>
      </button>
      {open && (
        <div className="popover-panel" role="dialog" aria-label={props.title}>
          {props.children(() => setOpen(false))}
        </div>
      )}
    </div>
  );
}
