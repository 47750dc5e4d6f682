// The failures a user can act on, typed so that the app can show the right advice (fix the file,
// pick another context, check the network, trust the CA, install the plugin, ask for RBAC) and so
// that code branches on the class rather than on message text. Errors the API server reports stay
// StatusError (shared/kube/status), because the Reflector classifies them by code and reason.
import { StatusError, newStatus } from '../../shared/kube/status';
import type { Status, StatusReason } from '../../shared/kube/status';

/** The kubeconfig file could not be read (missing, permissions, a directory). */
export class KubeconfigUnreadableError extends Error {
  override readonly name = 'KubeconfigUnreadableError';
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    super(`cannot read kubeconfig ${path}: ${messageOf(cause)}`, { cause });
  }
}

/** The kubeconfig file was read but is not a valid kubeconfig (YAML syntax, missing fields, duplicates). */
export class KubeconfigMalformedError extends Error {
  override readonly name = 'KubeconfigMalformedError';
  constructor(
    readonly path: string,
    readonly parseError: string,
    cause?: unknown,
  ) {
    super(`kubeconfig ${path} is malformed: ${parseError}`, { cause });
  }
}

/** A context name that the loaded kubeconfig does not define (or whose cluster is missing). */
export class ContextNotFoundError extends Error {
  override readonly name = 'ContextNotFoundError';
  constructor(
    readonly contextName: string,
    readonly availableContexts: readonly string[],
    detail?: string,
  ) {
    const available = availableContexts.length > 0 ? availableContexts.join(', ') : 'none';
    super(
      `context "${contextName}" ${detail ?? 'not found in kubeconfig'}; available contexts: ${available}`,
    );
  }
}

/**
 * The server could not be reached: connection refused or reset, DNS failure, timeout. `cause` keeps
 * Node's error (with its `code`), so isConnectionRefused() still recognises a refused connection.
 */
export class ServerUnreachableError extends Error {
  override readonly name = 'ServerUnreachableError';
  constructor(
    readonly server: string,
    readonly request: string,
    readonly code: string | undefined,
    cause: unknown,
  ) {
    super(`${request}: cannot reach ${server} (${describeNetworkCode(code, cause)})`, { cause });
  }
}

/**
 * The proxy requests go through (proxy-selection.ts) could not be reached, or would not connect to the
 * API server. Reaches callers as the cause of a ServerUnreachableError, whose message is then this one.
 */
export class ProxyTunnelError extends Error {
  override readonly name = 'ProxyTunnelError';
  constructor(
    message: string,
    /** Node's code when the proxy itself could not be reached (ECONNREFUSED...), else 'EPROXY'. */
    readonly code: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * An HTTP/2 connection failed its health check: nothing was read from it for the read-idle timeout,
 * and a PING then went unanswered for the ping timeout (golang.org/x/net/http2's
 * closeForLostPing, "http2: client connection lost"). Every request and watch on the connection
 * fails with this error; the next request opens a new connection.
 */
export class ConnectionLostError extends Error {
  override readonly name = 'ConnectionLostError';
  constructor(
    readonly server: string,
    readonly reason: string,
  ) {
    super(`the HTTP/2 connection to ${server} was lost: ${reason}`);
  }
}

/** The TLS handshake failed, most often because the server certificate is not trusted. */
export class TlsVerificationError extends Error {
  override readonly name = 'TlsVerificationError';
  constructor(
    readonly server: string,
    readonly request: string,
    readonly code: string | undefined,
    cause: unknown,
  ) {
    super(
      `${request}: TLS verification of ${server} failed (${messageOf(cause)}); set the cluster's ` +
        'certificate-authority / certificate-authority-data to the CA that signed the server certificate, ' +
        'or (for test clusters only) insecure-skip-tls-verify: true',
      { cause },
    );
  }
}

/** What a request was doing, for messages such as "listing secrets in namespace payments". */
export interface RequestDescription {
  /** The Kubernetes verb: get, list, watch, create, update, patch, delete. */
  verb: string;
  /** The resource (plural), or the path for non-resource requests such as discovery. */
  resource: string;
  namespace?: string;
}

const verbGerunds: Record<string, string> = {
  get: 'getting',
  list: 'listing',
  watch: 'watching',
  create: 'creating',
  update: 'updating',
  patch: 'patching',
  delete: 'deleting',
};

/** "listing secrets in namespace payments", "watching nodes". */
export function describeRequest(request: RequestDescription): string {
  const gerund = verbGerunds[request.verb] ?? request.verb;
  const scope = request.namespace ? ` in namespace ${request.namespace}` : '';
  return `${gerund} ${request.resource}${scope}`;
}

/**
 * A non-2xx reply, with the request it answered. The Status is the server's (or one synthesized from
 * the HTTP status when the body was not a Status), so the shared classifiers keep working.
 */
export class ApiStatusError extends StatusError {
  constructor(
    status: Status,
    readonly request: RequestDescription,
    options?: { cause?: unknown },
  ) {
    super(status, options);
    this.message = `${status.code} ${describeRequest(request)}: ${status.message || status.reason}`;
  }
}

/** 401: the server did not accept the credentials (expired token, wrong certificate, no credentials). */
export class UnauthorizedError extends ApiStatusError {
  constructor(status: Status, request: RequestDescription, options?: { cause?: unknown }) {
    super(status, request, options);
    this.message =
      `401 ${describeRequest(request)}: the server rejected your credentials ` +
      `(${status.message || 'Unauthorized'}); check the user's token, certificate or login plugin`;
  }
}

/** 403: authenticated, but RBAC does not allow this verb on this resource. */
export class ForbiddenError extends ApiStatusError {
  constructor(status: Status, request: RequestDescription, options?: { cause?: unknown }) {
    super(status, request, options);
    const where = request.namespace ? ` in namespace ${request.namespace}` : ' at cluster scope';
    this.message =
      `403 ${describeRequest(request)}: your user lacks ${request.verb} permission on ` +
      `${request.resource}${where} (${status.message || 'Forbidden'})`;
  }
}

/** The typed error for a Status the server returned, by reply or in an ERROR watch event. */
export function toApiStatusError(status: Status, request: RequestDescription): ApiStatusError {
  if (status.code === 401) return new UnauthorizedError(status, request);
  if (status.code === 403) return new ForbiddenError(status, request);
  return new ApiStatusError(status, request);
}

/** apimachinery's reason for an HTTP status, for replies whose body is not a Status. */
export function reasonForCode(code: number): StatusReason {
  switch (code) {
    case 400:
      return 'BadRequest';
    case 401:
      return 'Unauthorized';
    case 403:
      return 'Forbidden';
    case 404:
      return 'NotFound';
    case 405:
      return 'MethodNotAllowed';
    case 406:
      return 'NotAcceptable';
    case 409:
      return 'Conflict';
    case 410:
      return 'Expired';
    case 413:
      return 'RequestEntityTooLarge';
    case 415:
      return 'UnsupportedMediaType';
    case 422:
      return 'Invalid';
    case 429:
      return 'TooManyRequests';
    case 503:
      return 'ServiceUnavailable';
    case 504:
      return 'Timeout';
    default:
      return code >= 500 ? 'InternalError' : '';
  }
}

/** The exec credential plugin ran and failed (non-zero exit, or output that is not an ExecCredential). */
export class ExecPluginFailedError extends Error {
  override readonly name = 'ExecPluginFailedError';
  constructor(
    readonly command: string,
    readonly exitCode: number | null,
    readonly stderr: string,
    detail?: string,
  ) {
    const trimmed = stderr.trim();
    super(
      `exec credential plugin "${command}" ${detail ?? `exited with code ${exitCode}`}` +
        (trimmed ? `: ${trimmed}` : ''),
    );
  }
}

/**
 * The kubeconfig's auth provider (oidc) could give no credential: its settings are incomplete, its
 * identity provider refused or could not be reached, or it answered without an id-token.
 */
export class AuthProviderError extends Error {
  override readonly name = 'AuthProviderError';
  constructor(
    readonly provider: string,
    detail: string,
    cause?: unknown,
  ) {
    super(`auth provider "${provider}": ${detail}`, { cause });
  }
}

/** The exec credential plugin's command is not installed (not on PATH, or not executable). */
export class ExecPluginMissingError extends Error {
  override readonly name = 'ExecPluginMissingError';
  constructor(
    readonly command: string,
    readonly installHint: string | undefined,
    cause?: unknown,
  ) {
    super(
      `exec credential plugin "${command}" was not found` + (installHint ? `. ${installHint.trim()}` : ''),
      { cause },
    );
  }
}

/**
 * A WATCH line that is not a JSON watch event; the stream ends with this error. Like client-go's
 * StreamWatcher ("unable to decode an event from the watch stream"), it is an InternalError Status,
 * so the Reflector tells it apart from a lost connection (re-watched) and relists after a backoff.
 */
export class WatchDecodeError extends StatusError {
  constructor(
    readonly request: string,
    readonly snippet: string,
    detail: string,
  ) {
    super(
      newStatus(
        500,
        'InternalError',
        `${request}: malformed watch event (${detail}): ${JSON.stringify(snippet)}`,
      ),
    );
  }
}

/**
 * A LIST reply that parsed as JSON but is not a list: not an object, `items` not an array of objects,
 * or `metadata` not an object. Caching it would replace the informer's state with nonsense (or with
 * nothing), so the Reflector gets an error instead and relists after backoff.
 */
export class ListDecodeError extends Error {
  override readonly name = 'ListDecodeError';
  constructor(
    readonly request: string,
    detail: string,
  ) {
    super(`${request}: the reply is not a list (${detail})`);
  }
}

/** No byte arrived on a WATCH for longer than the inactivity timeout (a dead or stalled connection). */
export class WatchInactivityError extends Error {
  override readonly name = 'WatchInactivityError';
  constructor(
    readonly request: string,
    readonly timeoutMs: number,
  ) {
    super(`${request}: no data for ${Math.round(timeoutMs / 1000)} s, closing the watch`);
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function describeNetworkCode(code: string | undefined, cause: unknown): string {
  // Through a proxy, what failed is said by the proxy's error: the server was never reached.
  if (cause instanceof ProxyTunnelError) return cause.message;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused: is the API server running and the address right?';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'DNS lookup failed: check the server host name';
    case 'ETIMEDOUT':
      return 'connection timed out';
    case 'ECONNRESET':
      return 'connection reset by the server';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'no route to host';
    default:
      return messageOf(cause);
  }
}
