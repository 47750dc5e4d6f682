// A served metrics message of a big cluster (150,000 pods) is megabytes of JSON: encoded as one, it held
// main's thread 20-46 ms every poll. Main sends it in parts of at most metricsKeysPerPart keys, one part
// per task of its event loop, and the renderer joins them back into the very message it would have
// received whole, so what it keeps (and the chart's history) is unchanged. A message that fits in one
// part travels as before, without `part`.
import type { MetricsMessage, MetricsResource } from './metrics-messages';
import { sliceParallelArrays } from './parallel-arrays';

/** The arrays a message's samples are kept in, cut alike into parts. */
const sampleArrays = ['keys', 'cpu', 'memory'] as const;

/** Keys per part: encoding one part costs main a few milliseconds at most. */
export const metricsKeysPerPart = 10_000;

/** Where a part belongs: the message it is cut from (numbered by main) and its place in it. */
export interface MetricsPart {
  readonly id: number;
  readonly index: number;
  readonly count: number;
}

/** `message` cut into consecutive parts of at most `keysPerPart` keys, numbered `id`. */
export function splitMetricsMessage(
  message: MetricsMessage,
  id: number,
  keysPerPart = metricsKeysPerPart,
): MetricsMessage[] {
  if (message.keys.length <= keysPerPart) return [message];
  const slices = sliceParallelArrays(message, sampleArrays, keysPerPart);
  return slices.map((slice, index) => ({ ...message, ...slice, part: { id, index, count: slices.length } }));
}

interface Joining {
  /** The parts so far, in order (the first without its `part`). */
  readonly parts: MetricsMessage[];
  readonly id: number;
  readonly count: number;
}

/**
 * The whole message of its parts, its arrays each built by one concat when the last part has come.
 * Pushed part by part into growing arrays, a 150,000-pod poll's 15 parts took 11-18 ms each of the
 * page's thread time in that copy alone (a message task of 40-67 ms with its decode, the ui bench's
 * long tasks at a quiet moment, session 21); one concat of every part is a few ms.
 */
function joined(parts: readonly MetricsMessage[]): MetricsMessage {
  const [first, ...rest] = parts as [MetricsMessage, ...MetricsMessage[]];
  return {
    ...first,
    keys: first.keys.concat(...rest.map((part) => part.keys)),
    cpu: first.cpu.concat(...rest.map((part) => part.cpu)),
    memory: first.memory.concat(...rest.map((part) => part.memory)),
  };
}

/**
 * Joins parts back into whole messages, per resource. A message is given out only once every part of it
 * came, in order: a part that does not continue the message being joined (another message's, one
 * already seen) is dropped, and a first part or a whole message replaces an unfinished one. Parts of
 * one message are never lost in between on one connection; a renderer that subscribes while main is
 * sending a poll's parts gets that poll whole first, and then drops the rest of its parts.
 */
export class MetricsPartJoiner {
  private readonly joining = new Map<MetricsResource, Joining>();

  /** The whole message once `message` completes one (at once for an undivided one), else undefined. */
  add(message: MetricsMessage): MetricsMessage | undefined {
    const part = message.part;
    if (!part) {
      this.joining.delete(message.resource);
      return message;
    }
    if (part.index === 0) {
      const { part: _part, ...first } = message;
      this.joining.set(message.resource, { parts: [first], id: part.id, count: part.count });
    } else {
      const joining = this.joining.get(message.resource);
      if (
        !joining ||
        joining.id !== part.id ||
        joining.parts.length !== part.index ||
        joining.count !== part.count
      )
        return undefined;
      joining.parts.push(message);
    }
    const joining = this.joining.get(message.resource)!;
    if (joining.parts.length < joining.count) return undefined;
    this.joining.delete(message.resource);
    return joined(joining.parts);
  }

  /** Forgets unfinished messages (a context switch: the next cluster's parts are not these). */
  clear(): void {
    this.joining.clear();
  }
}
