// Request bodies of the write verbs: the object of a create or update, in JSON or (from kubectl's
// typed clients) Kubernetes protobuf, and the DeleteOptions of a delete (JSON or protobuf too).
import type { IncomingMessage } from 'node:http';
import type { KubeObject } from '../../shared/kube/object';
import { badRequest } from './api-errors';
import type { DeleteOptions, PropagationPolicy } from './cluster-storage';
import { readBodyBytes } from './http-io';
import { decodeProtobufDeleteOptions, decodeProtobufObject, protobufMediaType } from './protobuf-decoder';

function mediaTypeOf(request: IncomingMessage): string {
  return (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

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
  const body = await readBodyBytes(request);
  if (mediaTypeOf(request) === protobufMediaType) return decodeProtobufObject(body);
  return parseObject(body.toString('utf8'));
}

/** metav1.DeleteOptions from the body and the query; dryRun is ["All"] in the body, "All" in the query. */
export async function readDeleteOptions(
  request: IncomingMessage,
  query: URLSearchParams,
): Promise<DeleteOptions> {
  const body = await readBodyBytes(request);
  let parsed: {
    propagationPolicy?: string;
    preconditions?: DeleteOptions['preconditions'];
    dryRun?: string[];
  } = {};
  // kubectl's typed clients (`drain`, for one) send DeleteOptions in protobuf, the others JSON.
  if (mediaTypeOf(request) === protobufMediaType && body.length > 0)
    parsed = decodeProtobufDeleteOptions(body);
  else
    try {
      const text = body.toString('utf8');
      parsed = text.trim() ? JSON.parse(text) : {};
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
