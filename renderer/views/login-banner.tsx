// The open context's login plugin has run for a while (kubelogin's device code, oidc-login waiting for
// a browser login): its words are what the user must act on, shown where the table waits for them.
// kubectl hands them to the terminal; without this the window looked like a cluster that never lists.
import type { ReactNode } from 'react';
import { currentContext } from '../../shared/protocol';
import type { ContextList } from '../../shared/protocol';
import { formatClock } from './timeline-format';

export function LoginBanner(props: { readonly contexts: ContextList | undefined }): ReactNode {
  const current = currentContext(props.contexts);
  const login = current?.login;
  if (!login) return null;
  return (
    <div className="context-banner" role="status" data-testid="login-banner">
      <div className="context-banner-title">
        Logging in to {current.name}: {login.command} is waiting, since {formatClock(login.since)}
      </div>
      {login.message ? (
        <pre className="context-banner-message">{login.message}</pre>
      ) : (
        <div className="context-banner-message">It has printed nothing yet.</div>
      )}
    </div>
  );
}
