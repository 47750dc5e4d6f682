// The Deployment controller: one ReplicaSet per pod template (named by pod-template-hash, revision
// annotated), a rolling update that surges the new ReplicaSet and scales old ones down as new pods
// become ready, and the Deployment's status and conditions. As kube-controller-manager's, the
// ReplicaSet of the current template always holds the newest revision (a template rolled back to
// takes the next number, its old one kept in revision-history) and the Deployment carries that
// revision in its own annotation, which `kubectl rollout undo` replaces with its JSON patch.
import type { KubeObject } from '../../shared/kube/object';
import { formatTime } from './clock';
import type { ControllerContext, Json } from './controller-context';
import { owned, replicasOf, specOf, splitKey, statusNumber } from './controller-context';
import { buildReplicaSet, revisionAnnotation, templateHash } from './workload-objects';

export function reconcileDeployment(context: ControllerContext, key: string): void {
  const [namespace, name] = splitKey(key);
  const deployment = context.storage.find(context.types.deployments, namespace, name)?.object;
  if (!deployment) return;
  const desired = replicasOf(deployment);
  const hash = templateHash(specOf(deployment).template);
  const replicaSets = owned(context, deployment, 'replicasets.apps');
  let current = replicaSets.find((replicaSet) => replicaSet.metadata.labels?.['pod-template-hash'] === hash);
  const old = replicaSets.filter((replicaSet) => replicaSet !== current);
  const surge = Math.max(1, Math.ceil(desired * 0.25));
  const revision = 1 + Math.max(0, ...old.map(revisionOf));
  if (!current) {
    const built = buildReplicaSet(deployment, old.length ? Math.min(desired, surge) : desired, {});
    built.metadata.annotations = { ...built.metadata.annotations, [revisionAnnotation]: String(revision) };
    try {
      current = context.storage.create(context.types.replicasets, namespace, built).object;
    } catch {
      return;
    }
    context.events.record(
      deployment,
      'Normal',
      'ScalingReplicaSet',
      `Scaled up replica set ${current.metadata.name} from 0 to ${replicasOf(current)}`,
      'deployment-controller',
    );
  } else {
    if (revisionOf(current) < revision) current = promote(context, current, revision) ?? current;
    if (replicasOf(current) !== desired) {
      const target = old.some((replicaSet) => replicasOf(replicaSet) > 0)
        ? Math.min(desired, replicasOf(current) + surge)
        : desired;
      if (target !== replicasOf(current)) scaleReplicaSet(context, deployment, current, target);
    }
  }
  let oldAllowed = Math.max(0, desired - statusNumber(current, 'readyReplicas'));
  for (const replicaSet of old) {
    const target = Math.min(replicasOf(replicaSet), oldAllowed);
    oldAllowed -= target;
    if (target !== replicasOf(replicaSet)) scaleReplicaSet(context, deployment, replicaSet, target);
  }
  const all = [current, ...old];
  const sum = (field: string) =>
    all.reduce((total, replicaSet) => total + statusNumber(replicaSet, field), 0);
  const ready = sum('readyReplicas');
  const time = formatTime(context.clock.now());
  context.storage.mutate(context.types.deployments, namespace, name, (copy) => {
    copy.metadata.annotations = {
      ...copy.metadata.annotations,
      [revisionAnnotation]: String(revisionOf(current)),
    };
    const previous = (copy.status as Json | undefined) ?? {};
    const available = ready >= desired - Math.floor(desired * 0.25);
    const status: Json = {
      observedGeneration: copy.metadata.generation,
      replicas: sum('replicas'),
      updatedReplicas: statusNumber(current, 'replicas'),
      readyReplicas: ready,
      availableReplicas: ready,
      ...(sum('replicas') - ready > 0 ? { unavailableReplicas: sum('replicas') - ready } : {}),
      conditions: [
        {
          type: 'Available',
          status: available ? 'True' : 'False',
          reason: available ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable',
          message: available
            ? 'Deployment has minimum availability.'
            : 'Deployment does not have minimum availability.',
        },
        {
          type: 'Progressing',
          status: 'True',
          reason: ready === desired ? 'NewReplicaSetAvailable' : 'ReplicaSetUpdated',
          message: `ReplicaSet "${current?.metadata.name}" ${ready === desired ? 'has successfully progressed.' : 'is progressing.'}`,
        },
      ],
    };
    const conditionsChanged =
      JSON.stringify(
        (previous.conditions as Json[] | undefined)?.map((condition) => [
          condition.type,
          condition.status,
          condition.reason,
        ]),
      ) !==
      JSON.stringify(
        (status.conditions as Json[]).map((condition) => [
          condition.type,
          condition.status,
          condition.reason,
        ]),
      );
    if (!conditionsChanged) status.conditions = previous.conditions;
    else
      for (const condition of status.conditions as Json[])
        Object.assign(condition, { lastUpdateTime: time, lastTransitionTime: time });
    copy.status = status;
  });
}

const revisionHistoryAnnotation = 'deployment.kubernetes.io/revision-history';

function revisionOf(replicaSet: KubeObject): number {
  return Number(replicaSet.metadata.annotations?.[revisionAnnotation] ?? 0) || 0;
}

/** A template rolled back to: its ReplicaSet takes `revision`, its old number kept in revision-history. */
function promote(
  context: ControllerContext,
  replicaSet: KubeObject,
  revision: number,
): KubeObject | undefined {
  const { namespace, name = '' } = replicaSet.metadata;
  return context.storage.mutate(context.types.replicasets, namespace, name, (copy) => {
    const annotations = copy.metadata.annotations ?? {};
    const before = annotations[revisionAnnotation];
    const history = annotations[revisionHistoryAnnotation];
    copy.metadata.annotations = {
      ...annotations,
      [revisionAnnotation]: String(revision),
      ...(before ? { [revisionHistoryAnnotation]: history ? `${history},${before}` : before } : {}),
    };
  })?.object;
}

export function scaleReplicaSet(
  context: ControllerContext,
  deployment: KubeObject,
  replicaSet: KubeObject,
  replicas: number,
): void {
  const from = replicasOf(replicaSet);
  context.storage.mutate(
    context.types.replicasets,
    replicaSet.metadata.namespace,
    replicaSet.metadata.name ?? '',
    (copy) => {
      (copy.spec as Json).replicas = replicas;
      copy.metadata.annotations = {
        ...copy.metadata.annotations,
        'deployment.kubernetes.io/desired-replicas': String(replicasOf(deployment)),
      };
    },
  );
  context.events.record(
    deployment,
    'Normal',
    'ScalingReplicaSet',
    `Scaled ${replicas > from ? 'up' : 'down'} replica set ${replicaSet.metadata.name} from ${from} to ${replicas}`,
    'deployment-controller',
  );
}
