// A PodMetrics item's JSON, written from pieces kept per pod object. The metrics list of 150,000 pods
// is 57 MB, asked for once per resolution window by every client that polls it; built as an object
// and stringified per item, it took the embedded cluster ~2 s of its thread's CPU each time (a core
// for 2 s every 15 s, on the machine that also runs the client under test). What does not change
// within a pod object (its name, namespace, labels, container names) is written once: a stored object
// is replaced, never changed, so the pieces are kept per object (a WeakMap) and go with it. The text is
// byte for byte JSON.stringify's of metrics-server's item, key order included.
import type { KubeObject } from '../../shared/kube/object';
import type { PodUsage } from './metrics-usage';

interface PodPieces {
  /** From the opening brace to `"creationTimestamp":`. */
  readonly head: string;
  /** From the labels (if any) to `"timestamp":`. */
  readonly middle: string;
  /** `{"name":"…","usage":` per container, by its place in the pod's spec (the usage's order). */
  readonly containers: string[];
}

const pieces = new WeakMap<KubeObject, PodPieces>();

function piecesOf(pod: KubeObject, groupVersion: string): PodPieces {
  let found = pieces.get(pod);
  if (found === undefined) {
    const { name, namespace, labels } = pod.metadata;
    found = {
      head:
        `{"kind":"PodMetrics","apiVersion":${JSON.stringify(groupVersion)},"metadata":{"name":${JSON.stringify(name)}` +
        (namespace ? `,"namespace":${JSON.stringify(namespace)}` : '') +
        ',"creationTimestamp":',
      middle: (labels ? `,"labels":${JSON.stringify(labels)}` : '') + '},"timestamp":',
      containers: [],
    };
    pieces.set(pod, found);
  }
  return found;
}

/** Cores as metrics-server writes them: nanocores. */
export function nanocores(cpu: number): string {
  return `${Math.round(cpu * 1e9)}n`;
}

/** Bytes as metrics-server writes them: kibibytes. */
export function kibibytes(memory: number): string {
  return `${Math.round(memory / 1024)}Ki`;
}

/** A container's usage as metrics-server writes it. */
function usageText(cpu: number, memory: number): string {
  return `{"cpu":"${nanocores(cpu)}","memory":"${kibibytes(memory)}"}`;
}

/**
 * The PodMetrics JSON of `usage`, made at `now` (its creationTimestamp, as metrics-server stamps each
 * item when it is read), for the samples of `timestamp` over `window` (all three JSON texts already).
 */
export function podMetricsText(
  usage: PodUsage,
  groupVersion: string,
  now: string,
  timestamp: string,
  window: string,
): string {
  const pod = piecesOf(usage.pod, groupVersion);
  let text = `${pod.head}${now}${pod.middle}${timestamp},"window":${window},"containers":[`;
  for (let index = 0; index < usage.containers.length; index++) {
    const container = usage.containers[index]!;
    let head = pod.containers[index];
    if (head === undefined) {
      head = `{"name":${JSON.stringify(container.name)},"usage":`;
      pod.containers[index] = head;
    }
    text += `${index === 0 ? '' : ','}${head}${usageText(container.cpu, container.memory)}}`;
  }
  return `${text}]}`;
}
