// The apiserver's error Statuses (apimachinery/pkg/api/errors), word for word where clients match on
// the message, thrown as StatusError and written back as the response body.
import type { StatusCause } from '../../shared/kube/status';
import { StatusError, newStatus } from '../../shared/kube/status';
import type { ResourceType } from './resource-type';

function qualified(type: Pick<ResourceType, 'group' | 'resource'>): string {
  return type.group === '' ? type.resource : `${type.resource}.${type.group}`;
}

export function notFound(type: Pick<ResourceType, 'group' | 'resource'>, name: string): StatusError {
  return new StatusError(
    newStatus(404, 'NotFound', `${qualified(type)} "${name}" not found`, {
      name,
      group: type.group,
      kind: type.resource,
    }),
  );
}

export function alreadyExists(type: ResourceType, name: string): StatusError {
  return new StatusError(
    newStatus(409, 'AlreadyExists', `${qualified(type)} "${name}" already exists`, {
      name,
      group: type.group,
      kind: type.resource,
    }),
  );
}

export function conflict(type: ResourceType, name: string): StatusError {
  return new StatusError(
    newStatus(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualified(type)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      { name, group: type.group, kind: type.resource },
    ),
  );
}

export function invalid(type: ResourceType, name: string, causes: StatusCause[]): StatusError {
  const detail = causes.map((cause) => `${cause.field}: ${cause.message}`).join(', ');
  return new StatusError(
    newStatus(422, 'Invalid', `${type.kind} "${name}" is invalid: ${detail}`, {
      name,
      group: type.group,
      kind: type.kind,
      causes,
    }),
  );
}

export function badRequest(message: string): StatusError {
  return new StatusError(newStatus(400, 'BadRequest', message));
}

export function methodNotAllowed(
  message = 'the server does not allow this method on the requested resource',
): StatusError {
  return new StatusError(newStatus(405, 'MethodNotAllowed', message));
}

export function unsupportedMediaType(contentType: string): StatusError {
  return new StatusError(
    newStatus(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json (got ${contentType})`,
    ),
  );
}

/** 410 for a resourceVersion older than the retained window. */
export function resourceExpired(message: string): StatusError {
  return new StatusError(newStatus(410, 'Expired', message));
}

export const continueTooOldMessage =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** 504 "Too large resource version", with the cause the reflector looks for. */
export function tooLargeResourceVersion(requested: number, current: number): StatusError {
  return new StatusError(
    newStatus(504, 'Timeout', `Too large resource version: ${requested}, current: ${current}`, {
      causes: [
        {
          type: 'ResourceVersionTooLarge',
          message: `Too large resource version: ${requested}, current: ${current}`,
        },
      ],
      retryAfterSeconds: 1,
    }),
  );
}
