// Said while the embedded cluster shows because the kubeconfig's current context could not be opened
// at start (`kind delete cluster` leaves none set, a file saved mid-edit does not read): the app opens
// rather than refusing to start, and says why it shows another cluster than the user's and where to
// pick one.
import type { ReactNode } from 'react';
import { currentContext } from '../../shared/protocol';
import type { ContextList } from '../../shared/protocol';

export function OpenedInsteadBanner(props: { readonly contexts: ContextList | undefined }): ReactNode {
  const instead = currentContext(props.contexts)?.openedInstead;
  if (!instead) return null;
  const title = {
    'no-current-context': 'Your kubeconfig sets no current context',
    unreadable: 'Your kubeconfig could not be read (it is read again when it changes)',
    failed: `The kubeconfig's current context ${instead.context} could not be opened`,
  }[instead.cause];
  return (
    <div className="context-banner" role="status" data-testid="opened-instead-banner">
      <div className="context-banner-title">
        {title}, so the embedded cluster is shown: pick a context at the top left.
      </div>
      {instead.cause === 'no-current-context' ? null : (
        <div className="context-banner-message">{instead.reason}</div>
      )}
    </div>
  );
}
