// The Reveal control of a Secret's detail pane: one row per key, masked until the user presses that
// key's Reveal. Only then is the value asked of main (revealSecretValue, that key alone); it lives in
// this component's state, and is dropped on Hide, when another object is shown, or when the pane
// closes. Main never sends values any other way: the YAML above always shows them masked.
import { useEffect, useState, type MouseEvent, type ReactNode } from 'react';
import type { KubeObject } from '../../shared/kube/object';
import { useServices } from './app-context';

/** The keys of a Secret's data and stringData, in the order the server sent them. */
export function secretKeys(secret: KubeObject): string[] {
  const keys = (values: unknown) => (values && typeof values === 'object' ? Object.keys(values) : []);
  return [...new Set([...keys(secret.data), ...keys(secret.stringData)])];
}

/** The value as text when it is UTF-8, otherwise its base64 marked as binary. */
function displayed(base64: string): string {
  const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return `${base64} (binary, base64)`;
  }
}

export function SecretValues(props: {
  readonly namespace: string;
  readonly name: string;
  readonly keys: readonly string[];
}): ReactNode {
  const { bridge } = useServices();
  const [shown, setShown] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    setShown({});
    setError(undefined);
  }, [props.namespace, props.name]);

  const reveal = (event: MouseEvent, key: string) => {
    // A value is fetched only for the user's own click: events a script dispatches are not trusted.
    if (!event.isTrusted) return;
    bridge.revealSecretValue(props.namespace, props.name, key).then(
      (value) => setShown((current) => ({ ...current, [key]: displayed(value.base64) })),
      (failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)),
    );
  };
  const hide = (key: string) =>
    setShown((current) => Object.fromEntries(Object.entries(current).filter(([name]) => name !== key)));

  if (props.keys.length === 0) return null;
  return (
    <section className="secret-values" aria-label="Secret values" data-testid="secret-values">
      {props.keys.map((key) => (
        <div className="secret-value" key={key}>
          <span className="secret-key">{key}</span>
          {key in shown ? (
            <>
              <code className="secret-text" data-testid={`secret-value-${key}`}>
                {shown[key]}
              </code>
              <button type="button" className="timeline-text-button" onClick={() => hide(key)}>
                Hide
              </button>
            </>
          ) : (
            <>
              <span className="secret-text muted">masked</span>
              <button
                type="button"
                className="timeline-text-button"
                data-testid={`secret-reveal-${key}`}
                onClick={(event) => reveal(event, key)}
              >
                Reveal
              </button>
            </>
          )}
        </div>
      ))}
      {error && <p className="history-error">{error}</p>}
    </section>
  );
}
