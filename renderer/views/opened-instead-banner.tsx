// Said while the embedded cluster shows because the kubeconfig's current context could not be opened
// at start (`kind delete cluster` leaves none set): the app opens rather than refusing to start, and
// says why it shows another cluster than the user's and where to pick one.
import type { ReactNode } from 'react';
import type { ContextList } from '../../shared/protocol';

export function OpenedInsteadBanner(props: { readonly contexts: ContextList | undefined }): ReactNode {
  const { contexts } = props;
  const instead = contexts?.contexts.find((context) => context.name === contexts.current)?.openedInstead;
  if (!instead) return null;
  return (
    <div className="context-banner" role="status" data-testid="opened-instead-banner">
      <div className="context-banner-title">
        {instead.context
          ? `The kubeconfig's current context ${instead.context} could not be opened, so the embedded cluster is shown: pick a context at the top left.`
          : 'Your kubeconfig sets no current context, so the embedded cluster is shown: pick a context at the top left.'}
      </div>
      {instead.context ? <div className="context-banner-message">{instead.reason}</div> : null}
    </div>
  );
}
