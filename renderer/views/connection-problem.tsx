// Shown when the page was opened without the launch secret (a bookmarked or retyped address): the
// secret is what authenticates this page to main, so say where to find a working address.
import type { ReactNode } from 'react';

export function ConnectionProblem(): ReactNode {
  return (
    <div className="connection-problem" role="alert">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        Kubetide
      </div>
      <h1>This address has no launch secret</h1>
      <p>
        Kubetide only talks to the page it opened itself. Open the full address that{' '}
        <code>npm run serve</code> printed, the one ending in <code>#secret=…</code>. Restarting Kubetide
        prints a new one.
      </p>
    </div>
  );
}
