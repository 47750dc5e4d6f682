// Query parameters of LIST and WATCH (metav1.ListOptions) and the continue token format.
import { badRequest } from './api-errors';

export interface ListOptions {
  labelSelector: string;
  fieldSelector: string;
  /** undefined: not given (""). */
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  limit: number;
  continueToken?: string;
  watch: boolean;
  allowWatchBookmarks: boolean;
  sendInitialEvents?: boolean;
  timeoutSeconds?: number;
  /** Table only: Object, Metadata (default) or None. */
  includeObject: 'Object' | 'Metadata' | 'None';
}

function flag(value: string | null): boolean {
  return value === 'true' || value === '1';
}

export function readListOptions(query: URLSearchParams, watchPrefix: boolean): ListOptions {
  const match = query.get('resourceVersionMatch') || undefined;
  if (match !== undefined && match !== 'Exact' && match !== 'NotOlderThan')
    throw badRequest(
      `resourceVersionMatch: Unsupported value: "${match}": supported values: "Exact", "NotOlderThan"`,
    );
  const limitText = query.get('limit');
  const limit = limitText ? Number.parseInt(limitText, 10) : 0;
  if (!Number.isFinite(limit) || limit < 0) throw badRequest(`limit: Invalid value: "${limitText}"`);
  const timeoutText = query.get('timeoutSeconds');
  const includeObject = query.get('includeObject') || 'Metadata';
  if (includeObject !== 'Object' && includeObject !== 'Metadata' && includeObject !== 'None')
    throw badRequest(`includeObject: Unsupported value: "${includeObject}"`);
  const sendInitialEventsText = query.get('sendInitialEvents');
  return {
    labelSelector: query.get('labelSelector') ?? '',
    fieldSelector: query.get('fieldSelector') ?? '',
    resourceVersion: query.get('resourceVersion') || undefined,
    resourceVersionMatch: match,
    limit,
    continueToken: query.get('continue') || undefined,
    watch: watchPrefix || flag(query.get('watch')),
    allowWatchBookmarks: flag(query.get('allowWatchBookmarks')),
    sendInitialEvents: sendInitialEventsText === null ? undefined : flag(sendInitialEventsText),
    timeoutSeconds: timeoutText ? Number.parseInt(timeoutText, 10) : undefined,
    includeObject,
  };
}

/** A decimal resourceVersion, or a 400 as the apiserver gives for anything else. */
export function parseResourceVersion(text: string): number {
  if (!/^\d+$/.test(text)) throw badRequest(`Invalid value: "${text}": resourceVersion must be a number`);
  return Number(text);
}

interface ContinuePayload {
  v: string;
  rv: number;
  start: string;
}

/** Like the apiserver's: base64 JSON of the snapshot resourceVersion and the key to resume after. */
export function encodeContinue(resourceVersion: number, lastKey: string): string {
  const payload: ContinuePayload = { v: 'meta.k8s.io/v1', rv: resourceVersion, start: `${lastKey}\u0000` };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

export function decodeContinue(token: string): { resourceVersion: number; startKey: string } {
  try {
    const payload = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as ContinuePayload;
    if (payload.v !== 'meta.k8s.io/v1' || !Number.isInteger(payload.rv) || typeof payload.start !== 'string')
      throw new Error('bad');
    return { resourceVersion: payload.rv, startKey: payload.start };
  } catch {
    throw badRequest(
      'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
    );
  }
}
