// metav1.Status and apimachinery's error helpers. The reflector branches on these, so errors that
// come from the API server (non-2xx replies, ERROR watch events) are always turned into StatusError.

export type StatusReason =
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Expired'
  | 'Invalid'
  | 'ServerTimeout'
  | 'Timeout'
  | 'TooManyRequests'
  | 'BadRequest'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'InternalError'
  | 'ServiceUnavailable'
  | ''
  | (string & {});

export interface StatusCause {
  type?: string;
  message?: string;
  field?: string;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  status: 'Success' | 'Failure';
  message: string;
  reason: StatusReason;
  code: number;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    causes?: StatusCause[];
    retryAfterSeconds?: number;
  };
}

/** An error the API server reported, with the fields code that recovers from it branches on. */
export class StatusError extends Error {
  override readonly name = 'StatusError';
  constructor(
    readonly status: Status,
    options?: { cause?: unknown },
  ) {
    super(status.message || `${status.code} ${status.reason}`, options);
  }
  get code(): number {
    return this.status.code;
  }
  get reason(): StatusReason {
    return this.status.reason;
  }
}

export function newStatus(
  code: number,
  reason: StatusReason,
  message: string,
  details?: Status['details'],
): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    code,
    ...(details ? { details } : {}),
  };
}

export function isStatus(value: unknown): value is Status {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'Status';
}

function statusOf(error: unknown): Status | undefined {
  return error instanceof StatusError ? error.status : undefined;
}

/** 410: the requested resourceVersion is older than what the server keeps (Expired or Gone). */
export function isResourceExpired(error: unknown): boolean {
  const status = statusOf(error);
  return (
    status !== undefined && (status.code === 410 || status.reason === 'Expired' || status.reason === 'Gone')
  );
}

export function isTooManyRequests(error: unknown): boolean {
  const status = statusOf(error);
  return status !== undefined && (status.code === 429 || status.reason === 'TooManyRequests');
}

export function isInternalError(error: unknown): boolean {
  const status = statusOf(error);
  return status !== undefined && status.reason === 'InternalError';
}

export function isForbidden(error: unknown): boolean {
  const status = statusOf(error);
  return status !== undefined && (status.code === 403 || status.reason === 'Forbidden');
}

export function isNotFound(error: unknown): boolean {
  const status = statusOf(error);
  return status !== undefined && (status.code === 404 || status.reason === 'NotFound');
}

/**
 * apimachinery's isTooLargeResourceVersionError: a cause of type ResourceVersionTooLarge, or a Timeout
 * whose message says "Too large resource version" (older servers).
 */
export function isTooLargeResourceVersion(error: unknown): boolean {
  const status = statusOf(error);
  if (status === undefined) return false;
  if (status.details?.causes?.some((cause) => cause.type === 'ResourceVersionTooLarge')) return true;
  return (
    (status.code === 504 || status.reason === 'Timeout') && /too large resource version/i.test(status.message)
  );
}

/** utilnet.IsConnectionRefused, for errors thrown by Node's network stack. */
export function isConnectionRefused(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === 'ECONNREFUSED') return true;
  }
  return false;
}
