// The pod subresources that reach into a running container: exec, attach and portforward (`kubectl
// exec`, `attach`, `cp`, `port-forward`) and ephemeralcontainers (`kubectl debug`). The embedded
// cluster's pods run no containers, so these are refused with a Status that says so: a 405 or a 404,
// as any other unknown subresource gets, reads as kubectl's mistake or a missing pod.
import type { StatusError } from '../../shared/kube/status';
import { badRequest } from './api-errors';
import type { ResourcePath } from './request-path';
import type { ResourceType } from './resource-type';

const containerSubresources = new Set(['exec', 'attach', 'portforward', 'ephemeralcontainers']);

/** True for a pod's exec, attach, portforward or ephemeralcontainers. */
export function isContainerStream(type: ResourceType, path: ResourcePath): boolean {
  return (
    type.group === '' &&
    type.resource === 'pods' &&
    path.name !== undefined &&
    path.subresource !== undefined &&
    containerSubresources.has(path.subresource)
  );
}

/** The refusal of a container stream (after the caller was authorized for it). */
export function containerStreamRefusal(path: ResourcePath): StatusError {
  return badRequest(
    `the embedded cluster runs no containers, so pods/${path.subresource} is not served (a container's logs are: kubectl logs)`,
  );
}
