// Which run of which container a log request reads, decided as kube-apiserver (pod strategy's
// LogLocation: the container name) and then the kubelet (validateContainerLogStatus: the run) decide
// it, with their error messages word for word, since that is what `kubectl logs` prints.
import type { KubeObject } from '../../shared/kube/object';
import { badRequest } from './api-errors';
import type { ContainerRun } from './container-log';

type Json = Record<string, unknown>;

function names(pod: KubeObject, field: string): string[] {
  const list = ((pod.spec as Json | undefined)?.[field] as Json[] | undefined) ?? [];
  return list.map((container) => String(container.name));
}

/** Go's %s of a []string. */
function goList(items: string[]): string {
  return `[${items.join(' ')}]`;
}

/** The container a request without `container` means, or the 400 kube-apiserver answers. */
export function containerNameFor(pod: KubeObject, requested: string | undefined): string {
  const podName = pod.metadata.name ?? '';
  const containers = names(pod, 'containers');
  const init = names(pod, 'initContainers');
  const ephemeral = names(pod, 'ephemeralContainers');
  if (requested === undefined) {
    if (containers.length === 1) return containers[0];
    let message = `a container name must be specified for pod ${podName}, choose one of: ${goList(containers)}`;
    if (init.length > 0) message += ` or one of the init containers: ${goList(init)}`;
    if (ephemeral.length > 0) message += ` or one of the ephemeral containers: ${goList(ephemeral)}`;
    throw badRequest(message);
  }
  if (![...containers, ...init, ...ephemeral].includes(requested))
    throw badRequest(`container ${requested} is not valid for pod ${podName}`);
  return requested;
}

function imageOf(pod: KubeObject, name: string): string {
  const spec = (pod.spec as Json | undefined) ?? {};
  for (const field of ['containers', 'initContainers', 'ephemeralContainers'])
    for (const container of (spec[field] as Json[] | undefined) ?? [])
      if (container.name === name) return String(container.image ?? '');
  return '';
}

function statusOf(pod: KubeObject, name: string): Json | undefined {
  const status = (pod.status as Json | undefined) ?? {};
  for (const field of ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses'])
    for (const candidate of (status[field] as Json[] | undefined) ?? [])
      if (candidate.name === name) return candidate;
  return undefined;
}

function runOf(terminated: Json | undefined, image: string, running?: Json, id?: unknown): ContainerRun {
  const state = terminated ?? running ?? {};
  return {
    id: String(terminated?.containerID ?? id ?? ''),
    image,
    startedAt: Date.parse(String(state.startedAt)),
    finishedAt: terminated ? Date.parse(String(terminated.finishedAt)) : undefined,
    exitCode: terminated ? Number(terminated.exitCode ?? 0) : undefined,
  };
}

/** The run a request reads: the current (or last) one, or with `previous` the one before. */
export function containerRunFor(pod: KubeObject, container: string, previous: boolean): ContainerRun {
  const podName = pod.metadata.name ?? '';
  if (!(pod.spec as Json | undefined)?.nodeName)
    throw badRequest(`pod ${podName} does not have a host assigned`);
  const status = statusOf(pod, container);
  if (!status) throw badRequest(`container "${container}" in pod "${podName}" is not available`);
  const image = imageOf(pod, container);
  const state = (status.state as Json | undefined) ?? {};
  const last = (status.lastState as Json | undefined)?.terminated as Json | undefined;
  const usable = (terminated: Json | undefined) =>
    terminated !== undefined && Boolean(terminated.containerID);
  if (previous) {
    if (!usable(last))
      throw badRequest(`previous terminated container "${container}" in pod "${podName}" not found`);
    return runOf(last, image);
  }
  const running = state.running as Json | undefined;
  const terminated = state.terminated as Json | undefined;
  if (running) return runOf(undefined, image, running, status.containerID);
  if (terminated) {
    if (usable(terminated)) return runOf(terminated, image);
    if (usable(last)) return runOf(last, image);
    throw badRequest(`container "${container}" in pod "${podName}" is terminated`);
  }
  if (usable(last)) return runOf(last, image);
  const waiting = state.waiting as Json | undefined;
  if (waiting)
    throw badRequest(
      `container "${container}" in pod "${podName}" is waiting to start: ${String(waiting.reason)}`,
    );
  throw badRequest(`container "${container}" in pod "${podName}" is waiting to start - no logs yet`);
}
