// Owners: the chain up through metadata.ownerReferences (Pod -> ReplicaSet -> Deployment), each step
// fetched from main (getObject live, the recorded version while travelling), so it works whether or not
// the owner's kind is mirrored.
import { useEffect, useState, type ReactNode } from 'react';
import type { KubeObject } from '../../shared/kube/object';
import type { OwnerSummary } from '../../shared/protocol';
import type { CatalogKind } from './kind-catalog';
import { useServices } from './app-context';
import { objectAt } from './object-at';

export interface OwnerStep {
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
  readonly catalogKind?: CatalogKind;
  /** Why the chain stops here, when it stops early. */
  readonly problem?: string;
}

const maximumDepth = 8;

function controllerOf(owners: readonly { kind: string; name: string; uid: string; controller?: boolean }[]) {
  return owners.find((owner) => owner.controller) ?? owners[0];
}

export function OwnersTab(props: {
  readonly owners: readonly OwnerSummary[];
  readonly namespace: string;
  readonly kinds: readonly CatalogKind[];
  /** The travel moment: each owner as the recording held it then. */
  readonly travelTime?: number;
  readonly onNavigate: (step: OwnerStep) => void;
}): ReactNode {
  const { bridge } = useServices();
  const [chain, setChain] = useState<OwnerStep[] | undefined>(undefined);
  const { owners, namespace, kinds, travelTime } = props;

  useEffect(() => {
    let cancelled = false;
    (async () => {
      const steps: OwnerStep[] = [];
      let next = controllerOf(owners);
      while (next && steps.length < maximumDepth) {
        const catalogKind = kinds.find((kind) => kind.kind === next!.kind);
        const base = { kind: next.kind, name: next.name, namespace, ...(catalogKind ? { catalogKind } : {}) };
        if (!catalogKind) {
          steps.push({ ...base, problem: `the cluster does not serve kind ${next.kind}` });
          break;
        }
        let object: KubeObject;
        try {
          object = await objectAt(
            bridge,
            catalogKind.gvr,
            catalogKind.namespaced ? namespace : undefined,
            next.name,
            travelTime,
          );
        } catch (error) {
          steps.push({ ...base, problem: error instanceof Error ? error.message : String(error) });
          break;
        }
        steps.push(base);
        next = controllerOf(object.metadata.ownerReferences ?? []);
      }
      if (!cancelled) setChain(steps);
    })();
    return () => {
      cancelled = true;
    };
  }, [bridge, owners, namespace, kinds, travelTime]);

  if (owners.length === 0)
    return <div className="detail-message">No owner: nothing controls this object.</div>;
  if (!chain) return <div className="detail-message">Following owner references…</div>;
  return (
    <div className="detail-section" data-testid="owners">
      <div className="muted children-count" data-testid="owners-count">
        {chain.length} {chain.length === 1 ? 'owner' : 'owners'} up the chain:{' '}
        {chain.map((step) => step.kind).join(' → ')}
      </div>
      <ol className="chain">
        {chain.map((step, index) => (
          <li key={`${step.kind}/${step.name}`}>
            {index > 0 && (
              <div className="chain-arrow" aria-hidden="true">
                ↑ owned by
              </div>
            )}
            <div
              className={`chain-item${step.catalogKind && !step.problem ? ' navigable' : ''}`}
              role={step.catalogKind && !step.problem ? 'button' : undefined}
              tabIndex={step.catalogKind && !step.problem ? 0 : undefined}
              onClick={() => step.catalogKind && !step.problem && props.onNavigate(step)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && step.catalogKind && !step.problem) props.onNavigate(step);
              }}
            >
              <span className="chain-kind">{step.kind}</span>
              <span className="cell-name">{step.name}</span>
              <span className="muted">{step.problem ?? ''}</span>
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}
