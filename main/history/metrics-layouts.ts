// A recorded moment's metrics answered without what the asker already holds. A playback asks for its
// moment's metrics about once a second; at 150,000 pods each answer is 7 MB of JSON, two thirds of it
// keys, which the page parsed, validated and indexed again every time, though an answer's keys are
// mostly the last one's: the same series, less the pods gone, plus the pods new.
//
// So an answer is laid out against the keys the asker holds (a layout: keys at fixed positions). Its
// values go at their keys' positions (null where a key has none now), and keys the layout lacks are
// appended to it: the asker indexes only those. A layout grows by appending, never reorders, so every
// position once given keeps its key; once a quarter of its positions are dead (pods gone) the answer
// starts a fresh one, its keys in its own order. Each answer names its layout and itself by digests;
// a question names those of the answer held (heldKeys, heldAnswer), and an answer that is the held
// one whole (a moment within the same polls: metrics-server scrapes every 15 s, 1.5 s of a 10x
// playback) comes as `unchanged`, values left out too.
import { createHash } from 'node:crypto';
import type { RecordedMetrics } from '../../shared/protocol/history-messages';

/** The digests of the answer a question says it holds (absent: none). */
export interface HeldMetrics {
  readonly keys?: string | undefined;
  readonly answer?: string | undefined;
}

interface Layout {
  readonly keys: readonly string[];
  /** Each key's position: its own, never shared, since two askers may extend one layout two ways. */
  readonly positions: ReadonlyMap<string, number>;
}

/** Layouts kept to answer against (11 MB each at 150,000 pods, the keys' strings shared): a window's pods and nodes, and the ones before. */
const keptLayouts = 4;
/** A layout with more dead positions than this share of its length is started afresh. */
const deadShare = 0.25;

/** The layouts answers were made in, by digest (a query worker's, for every asker it serves). */
export class MetricsLayouts {
  private readonly layouts = new Map<string, Layout>();

  /** `metrics` laid out against the layout `held` names, if kept, and less what `held` holds. */
  answer(metrics: RecordedMetrics, held: HeldMetrics): RecordedMetrics {
    if (metrics.keys.length === 0) return metrics;
    const base = held.keys === undefined ? undefined : this.layouts.get(held.keys);
    return (base && this.extended(metrics, held, base)) ?? this.fresh(metrics, held);
  }

  /** Against `base`: undefined when too many of its positions would be dead. */
  private extended(metrics: RecordedMetrics, held: HeldMetrics, base: Layout): RecordedMetrics | undefined {
    const added: string[] = [];
    const placed = metrics.keys.map((key) => {
      const position = base.positions.get(key);
      if (position !== undefined) return position;
      added.push(key);
      return base.keys.length + added.length - 1;
    });
    const length = base.keys.length + added.length;
    if (length - metrics.keys.length > deadShare * length) return undefined;
    const cpu = new Array<number | null>(length).fill(null);
    const memory = new Array<number | null>(length).fill(null);
    placed.forEach((position, index) => {
      cpu[position] = metrics.cpu[index]!;
      memory[position] = metrics.memory[index]!;
    });
    const keysDigest = added.length === 0 ? held.keys! : sha1(held.keys! + JSON.stringify(added));
    if (added.length > 0) {
      const positions = new Map(base.positions);
      added.forEach((key, index) => positions.set(key, base.keys.length + index));
      this.keep(keysDigest, { keys: [...base.keys, ...added], positions });
    } else this.keep(keysDigest, base);
    const laidOut = { ...metrics, keys: [], cpu, memory, keysFrom: held.keys!, addedKeys: added };
    return this.digested(laidOut, keysDigest, held);
  }

  /** A layout of its own, its keys in the answer's order. */
  private fresh(metrics: RecordedMetrics, held: HeldMetrics): RecordedMetrics {
    const keysDigest = sha1(JSON.stringify(metrics.keys));
    this.keep(keysDigest, {
      keys: metrics.keys,
      positions: new Map(metrics.keys.map((key, position) => [key, position])),
    });
    return this.digested(metrics, keysDigest, held);
  }

  /** With its digests; only them (and its moment) when it is the answer held. */
  private digested(laidOut: RecordedMetrics, keysDigest: string, held: HeldMetrics): RecordedMetrics {
    const { timestamp, windowMs, cpu, memory } = laidOut;
    const answerDigest = sha1(keysDigest + JSON.stringify([timestamp, windowMs, cpu, memory]));
    if (answerDigest === held.answer)
      return {
        timestamp,
        windowMs,
        keys: [],
        cpu: [],
        memory: [],
        keysDigest,
        answerDigest,
        unchanged: true,
      };
    return { ...laidOut, keysDigest, answerDigest };
  }

  /** Keeps `layout` as the newest, forgetting the oldest beyond keptLayouts. */
  private keep(digest: string, layout: Layout): void {
    this.layouts.delete(digest);
    this.layouts.set(digest, layout);
    if (this.layouts.size > keptLayouts) this.layouts.delete(this.layouts.keys().next().value!);
  }
}

/** SHA-1 in hex (metricsDigestFormat): not a secret, it only tells layouts and answers apart. */
function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}
