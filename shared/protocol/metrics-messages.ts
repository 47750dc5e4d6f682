// Main -> renderer: CPU and memory samples from metrics.k8s.io, one message per resource and poll.
// Samples are not rows: they change every resolution window for every pod, so they travel as their own
// compact batch (parallel arrays keyed by row key) and are joined to the rows at render time, leaving
// the row mirror, its indexes and the recording untouched.
import type { MetricsPart } from './metrics-parts';
import { Rejection, reject } from './validation-rules';

export type MetricsResource = 'pods' | 'nodes';

/**
 * served: the message carries the latest samples. absent: the cluster serves no metrics.k8s.io (no
 * metrics-server); said once, as a state of the kind. forbidden: RBAC refuses the metrics everywhere
 * Kubetide may look. failing: the last poll failed; the previous samples still stand, marked stale.
 */
export type MetricsAvailability = 'served' | 'absent' | 'forbidden' | 'failing';

export interface MetricsMessage {
  type: 'metrics';
  resource: MetricsResource;
  availability: MetricsAvailability;
  /** Why, when forbidden or failing (the API server's message). */
  reason?: string;
  /** When the samples were taken (epoch ms, the newest sample's timestamp); served only. */
  timestamp?: number;
  /**
   * The metrics API's resolution as its items' `window` says it, in milliseconds: the median window, to
   * the second (metrics-server's window is the time between the two kubelet samples it used, so a few
   * items' windows span two scrapes or more); served only.
   */
  windowMs?: number;
  /** Row keys ("namespace/name" for pods, "name" for nodes); cpu and memory hold the same count. */
  keys: string[];
  /** Cores. */
  cpu: number[];
  /** Bytes. */
  memory: number[];
  /** Set when a big message travels in parts (metrics-parts.ts): this is one of them. */
  part?: MetricsPart;
}

const availabilities: readonly string[] = ['served', 'absent', 'forbidden', 'failing'];

/** More parts than any cluster needs (metricsKeysPerPart keys each): a bound on what a renderer joins. */
const maximumParts = 1_000;

function validPart(part: unknown): boolean {
  const candidate = part as Partial<MetricsPart> | null;
  if (typeof candidate !== 'object' || candidate === null) return false;
  const { id, index, count } = candidate;
  return (
    Number.isSafeInteger(id) &&
    id! >= 0 &&
    Number.isSafeInteger(count) &&
    count! >= 1 &&
    count! <= maximumParts &&
    Number.isSafeInteger(index) &&
    index! >= 0 &&
    index! < count!
  );
}

function finiteNumbers(value: unknown, length: number, field: string): void {
  if (!Array.isArray(value) || value.length !== length)
    reject(`${field} must be an array of ${length} numbers`);
  for (const item of value)
    if (typeof item !== 'number' || !(item >= 0)) reject(`${field} holds a non-number`);
}

/**
 * Checks a metrics message's shape before the renderer keeps any of it: a malformed one is dropped
 * whole, with the reason, rather than half-applied.
 */
export function validateMetricsMessage(message: unknown): MetricsMessage | Rejection {
  try {
    const candidate = message as Partial<MetricsMessage> | null;
    if (typeof candidate !== 'object' || candidate === null || candidate.type !== 'metrics')
      reject('not a metrics message');
    if (candidate.resource !== 'pods' && candidate.resource !== 'nodes')
      reject('resource must be "pods" or "nodes"');
    if (typeof candidate.availability !== 'string' || !availabilities.includes(candidate.availability))
      reject(`availability must be one of ${availabilities.join(', ')}`);
    if (candidate.reason !== undefined && typeof candidate.reason !== 'string')
      reject('reason must be a string');
    for (const field of ['timestamp', 'windowMs'] as const)
      if (candidate[field] !== undefined && !Number.isFinite(candidate[field]))
        reject(`${field} must be a number`);
    const keys = candidate.keys;
    if (!Array.isArray(keys) || keys.some((key) => typeof key !== 'string')) reject('keys must be strings');
    finiteNumbers(candidate.cpu, keys.length, 'cpu');
    finiteNumbers(candidate.memory, keys.length, 'memory');
    if (candidate.part !== undefined && !validPart(candidate.part))
      reject('part must be {id, index, count}: integers with 0 <= index < count <= 1000');
    return candidate as MetricsMessage;
  } catch (error) {
    if (error instanceof Rejection) return error;
    throw error;
  }
}
