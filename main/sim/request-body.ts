// Request bodies of the write verbs: the object of a create or update, in JSON or (from kubectl's
// typed clients) Kubernetes protobuf, and the DeleteOptions of a delete.
import type { IncomingMessage } from 'node:http';
import type { KubeObject } from '../../shared/kube/object';
import { badRequest } from './api-errors';
import type { DeleteOptions, PropagationPolicy } from './cluster-storage';
import { readBody, readBodyBytes } from './http-io';
import { decodeProtobufObject, protobufMediaType } from './protobuf-decoder';

function parseObject(body: string): KubeObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    throw badRequest(`the object provided is unrecognized: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw badRequest('the object provided is not a JSON object');
  const object = parsed as KubeObject;
  object.metadata ??= {};
  return object;
}

/** The object a POST or PUT carries, by its Content-Type (anything but protobuf is read as JSON). */
export async function readObject(request: IncomingMessage): Promise<KubeObject> {
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const body = await readBodyBytes(request);
  if (mediaType === protobufMediaType) return decodeProtobufObject(body);
  return parseObject(body.toString('utf8'));
}

/** metav1.DeleteOptions from the body and the query; dryRun is ["All"] in the body, "All" in the query. */
export async function readDeleteOptions(
  request: IncomingMessage,
  query: URLSearchParams,
): Promise<DeleteOptions> {
  const body = await readBody(request);
  let parsed: {
    propagationPolicy?: string;
    preconditions?: DeleteOptions['preconditions'];
    dryRun?: string[];
  } = {};
  try {
    parsed = body.trim() ? JSON.parse(body) : {};
  } catch (error) {
    throw badRequest(`the DeleteOptions provided are unrecognized: ${(error as Error).message}`);
  }
  const policy = query.get('propagationPolicy') ?? parsed.propagationPolicy;
  if (policy !== undefined && !['Orphan', 'Background', 'Foreground'].includes(policy))
    throw badRequest(`propagationPolicy: Unsupported value: "${policy}"`);
  return {
    propagationPolicy: policy as PropagationPolicy | undefined,
    preconditions: parsed.preconditions,
    dryRun: query.get('dryRun') === 'All' || (parsed.dryRun ?? []).includes('All'),
  };
}
