// Wires the k9s-style keys (ui-state/keyboard.ts) to the window: one keydown listener for the app.
import { useEffect, useRef } from 'react';
import type { KeyCommand } from '../ui-state/keyboard';
import { commandForKey, isTextField } from '../ui-state/keyboard';

/** Calls `run` for every key press that means a command; the latest `run` is always used. */
export function useKeyboard(run: (command: KeyCommand, event: KeyboardEvent) => boolean | void): void {
  const latest = useRef(run);
  latest.current = run;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const command = commandForKey({
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        altKey: event.altKey,
        inTextField: isTextField(event.target),
      });
      if (!command) return;
      if (latest.current(command, event) !== false) event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
