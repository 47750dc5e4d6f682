// The context picker: the kubeconfig's contexts plus "Embedded cluster". Names, clusters and servers
// only; credentials never reach the renderer. The open context, once the kubeconfig no longer defines
// it, stays listed and marked removed: it is open as it was read, and can no longer be opened again.
import type { ReactNode } from 'react';
import { currentContext } from '../../shared/protocol';
import type { ContextList } from '../../shared/protocol';
import { Popover } from '../components/popover';

export interface ContextPickerProps {
  readonly contexts: ContextList | undefined;
  readonly onSwitch: (context: string) => void;
}

export function ContextPicker(props: ContextPickerProps): ReactNode {
  const current = currentContext(props.contexts);
  return (
    <Popover
      className="context-picker"
      title="Cluster context"
      testId="context-picker"
      label={
        <span className="context-label">
          <span className="muted">context</span>{' '}
          <strong>{current?.name ?? props.contexts?.current ?? '…'}</strong>
          {current?.removed ? <span className="muted"> (removed from the kubeconfig)</span> : null}
        </span>
      }
    >
      {(close) => (
        <div>
          <div className="menu-heading">Contexts</div>
          {(props.contexts?.contexts ?? []).map((context) => (
            <button
              key={context.name}
              type="button"
              className={`menu-item${context.name === props.contexts?.current ? ' active' : ''}`}
              onClick={() => {
                close();
                if (context.name !== props.contexts?.current) props.onSwitch(context.name);
              }}
            >
              <span>{context.name === props.contexts?.current ? '●' : '○'}</span>
              <span>{context.name}</span>
              <span className="menu-detail">
                {context.embedded ? 'built in' : (context.server ?? context.cluster)}
                {context.proxy ? ` via ${context.proxy}` : ''}
                {context.removed ? ' · removed from the kubeconfig' : ''}
              </span>
            </button>
          ))}
        </div>
      )}
    </Popover>
  );
}
