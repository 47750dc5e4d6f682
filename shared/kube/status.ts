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

/**
 * apimachinery's SuggestsClientDelay: the seconds the server asked the client to wait before retrying
 * (details.retryAfterSeconds, filled from a Retry-After header), or undefined when it asked for none.
 */
export function suggestsClientDelay(error: unknown): number | undefined {
  const seconds = statusOf(error)?.details?.retryAfterSeconds;
  return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
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
 * client-go's isTooLargeResourceVersionError: a cause of type ResourceVersionTooLarge, or a Timeout
 * whose cause or message says "Too large resource version" (older servers).
 */
export function isTooLargeResourceVersion(error: unknown): boolean {
  const status = statusOf(error);
  if (status === undefined) return false;
  if (status.details?.causes?.some((cause) => cause.type === 'ResourceVersionTooLarge')) return true;
  if (status.code !== 504 && status.reason !== 'Timeout') return false;
  // API servers 1.17.0-1.18.5 said so in a cause's message, older ones in the Status message.
  if (status.details?.causes?.some((cause) => cause.message === 'Too large resource version')) return true;
  return /too large resource version/i.test(status.message);
}

/**
 * Node's codes for a connection that broke or timed out under a request (utilnet.IsProbableEOF and
 * IsTimeout): the server was reached, so trying again is likely to work.
 */
const probableEOFCodes: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_HTTP2_STREAM_ERROR',
  'ERR_HTTP2_STREAM_CANCEL',
  'ERR_HTTP2_SESSION_ERROR',
  'ERR_HTTP2_GOAWAY_SESSION',
  'ERR_HTTP2_INVALID_SESSION',
  'ERR_HTTP2_PING_CANCEL',
]);

/** utilnet.IsProbableEOF || utilnet.IsTimeout, for errors thrown by Node's network stack. */
export function isProbableEOF(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && probableEOFCodes.has(code)) return true;
  }
  return false;
}

/** utilnet.IsConnectionRefused, for errors thrown by Node's network stack. */
export function isConnectionRefused(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === 'ECONNREFUSED') return true;
  }
  return false;
}
