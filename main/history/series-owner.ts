// What a pod's metric series is defined with beside its names: the pod's uid and the workload that
// runs it, read from the informers' cache. It lives with the cache (main's thread); the numbering
// that needs it may run elsewhere (a worker) and asks for a poll's new series in one batch.
import type { KubeObject } from '../../shared/kube/object';

/** A pod's uid and workload ("Kind/name", "" when none). */
export interface SeriesOwner {
  readonly uid: string;
  readonly workload: string;
}

/** A pod asked about: its namespace and name. */
export interface ObjectName {
  readonly namespace: string;
  readonly name: string;
}

/** The informers' cached object, if any: pods for their uid and owner, replicasets for theirs. */
export type CachedObject = (
  resource: 'pods' | 'replicasets',
  namespace: string,
  name: string,
) => KubeObject | undefined;

/** Per pod asked, its owner, or undefined when the cache has no such pod (yet). */
export type IdentifyPods = (
  pods: readonly ObjectName[],
) => readonly (SeriesOwner | undefined)[] | Promise<readonly (SeriesOwner | undefined)[]>;

/** IdentifyPods over `cachedObject`, answered at once. */
export function identifyFromCache(cachedObject: CachedObject): IdentifyPods {
  return (pods) => pods.map(({ namespace, name }) => seriesOwnerOf(cachedObject, namespace, name));
}

/** The owner of the pod `namespace`/`name` as the cache holds it. */
export function seriesOwnerOf(
  cachedObject: CachedObject,
  namespace: string,
  name: string,
): SeriesOwner | undefined {
  const pod = cachedObject('pods', namespace, name);
  return pod && { uid: pod.metadata.uid ?? '', workload: workloadOf(cachedObject, pod) };
}

/**
 * "Kind/name" of the workload that runs `pod`: its controller, or for a ReplicaSet the ReplicaSet's
 * own controller (a Deployment). A ReplicaSet not in the cache is named by the Deployment
 * controller's naming: "<deployment>-<pod-template-hash>", the hash also on the pod.
 */
function workloadOf(cachedObject: CachedObject, pod: KubeObject): string {
  const controller = pod.metadata.ownerReferences?.find((owner) => owner.controller);
  if (!controller) return '';
  if (controller.kind === 'ReplicaSet') {
    const replicaSet = cachedObject('replicasets', pod.metadata.namespace ?? '', controller.name);
    const owner = replicaSet?.metadata.ownerReferences?.find((reference) => reference.controller);
    if (owner) return `${owner.kind}/${owner.name}`;
    const hash = pod.metadata.labels?.['pod-template-hash'];
    if (!replicaSet && hash && controller.name.endsWith(`-${hash}`))
      return `Deployment/${controller.name.slice(0, -hash.length - 1)}`;
  }
  return `${controller.kind}/${controller.name}`;
}
