// What to tell the user when main opened the current context anew: its kubeconfig entry changed (a
// cluster recreated on a new port, credentials replaced, another namespace), so the rows are listed
// again from the new entry. A switch to another context is the user's own doing and says nothing.
import type { ContextList } from '../../shared/protocol';

export function sessionRenewalNotice(
  previous: ContextList | undefined,
  next: ContextList,
): string | undefined {
  if (!previous || previous.current !== next.current || previous.session === next.session) return undefined;
  return `Context ${next.current} reopened: its kubeconfig entry changed`;
}
