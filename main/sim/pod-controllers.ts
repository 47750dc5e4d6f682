// The controllers that own pods directly: ReplicaSet (any names, least-ready pods removed first),
// StatefulSet (ordinal names name-0, name-1, ...) and DaemonSet (one pod per Ready node).
import type { KubeObject } from '../../shared/kube/object';
import type { ControllerContext, Json } from './controller-context';
import { reconcilePods, replicasOf, splitKey, writeReplicaStatus } from './controller-context';
import { isNodeReady } from './workload-objects';
import { podStageOf } from './pod-lifecycle';

export function reconcileReplicaSet(context: ControllerContext, key: string): void {
  const [namespace, name] = splitKey(key);
  const replicaSet = context.storage.find(context.types.replicasets, namespace, name)?.object;
  if (!replicaSet) return;
  const desired = replicasOf(replicaSet);
  const pods = reconcilePods(context, replicaSet, context.types.replicasets, (existing) => {
    const missing = Math.max(0, desired - existing.length);
    const ranked = [...existing].sort(
      (left, right) => Number(podStageOf(left) === 'Running') - Number(podStageOf(right) === 'Running'),
    );
    return {
      create: Array.from({ length: missing }, () => `${name}-${context.random.suffix(5)}`),
      remove: ranked.slice(0, Math.max(0, existing.length - desired)),
    };
  });
  writeReplicaStatus(context, context.types.replicasets, replicaSet, pods);
}

export function reconcileStatefulSet(context: ControllerContext, key: string): void {
  const [namespace, name] = splitKey(key);
  const statefulSet = context.storage.find(context.types.statefulsets, namespace, name)?.object;
  if (!statefulSet) return;
  const desired = replicasOf(statefulSet);
  const pods = reconcilePods(context, statefulSet, context.types.statefulsets, (existing) => {
    const names = new Set(existing.map((pod) => pod.metadata.name));
    const create = Array.from({ length: desired }, (_, ordinal) => `${name}-${ordinal}`).filter(
      (podName) => !names.has(podName),
    );
    const remove = existing.filter((pod) => Number(pod.metadata.name?.slice(name.length + 1)) >= desired);
    return { create, remove };
  });
  writeReplicaStatus(context, context.types.statefulsets, statefulSet, pods);
}

/** One pod per Ready node; pods on nodes that are gone or NotReady are removed. */
export function reconcileDaemonSet(context: ControllerContext, key: string): void {
  const [namespace, name] = splitKey(key);
  const daemonSet = context.storage.find(context.types.daemonsets, namespace, name)?.object;
  if (!daemonSet) return;
  const readyNodes = new Set<string>();
  for (const stored of context.storage.store.values('nodes'))
    if (isNodeReady(stored.object)) readyNodes.add(stored.object.metadata.name ?? '');
  const pods = reconcilePods(context, daemonSet, context.types.daemonsets, (existing) => {
    const covered = new Set(existing.map((pod) => nodeNameOf(pod)));
    return {
      create: [...readyNodes]
        .filter((nodeName) => !covered.has(nodeName))
        .map((nodeName) => ({ name: `${name}-${context.random.suffix(5)}`, nodeName })),
      remove: existing.filter((pod) => !readyNodes.has(nodeNameOf(pod))),
    };
  });
  const ready = pods.filter((pod) => podStageOf(pod) === 'Running').length;
  context.storage.mutate(context.types.daemonsets, namespace, name, (copy) => {
    copy.status = {
      ...(copy.status as Json | undefined),
      desiredNumberScheduled: readyNodes.size,
      currentNumberScheduled: pods.length,
      updatedNumberScheduled: pods.length,
      numberReady: ready,
      numberAvailable: ready,
      numberMisscheduled: 0,
      observedGeneration: copy.metadata.generation,
    };
  });
}

function nodeNameOf(pod: KubeObject): string {
  return String((pod.spec as Json | undefined)?.nodeName ?? '');
}
