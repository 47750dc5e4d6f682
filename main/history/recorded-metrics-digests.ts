// A recorded moment's metrics answered without what the asker already holds. A playback asks for its
// moment's metrics about once a second; at 150,000 pods each answer is 7 MB of JSON, two thirds of it
// keys, which the page parsed, validated and indexed again every time. Each answer carries digests of
// its keys and of itself whole; a question naming those of the answer the page holds (heldKeys,
// heldAnswer) gets an answer that leaves out what is the same: everything, when the moment's samples
// are the held ones (a moment within the same polls: metrics-server scrapes every 15 s, 1.5 s of a
// 10x playback), or the keys, when only the values moved (a quiet cluster's next poll: the same
// series in the same order).
import { createHash } from 'node:crypto';
import type { RecordedMetrics } from '../../shared/protocol/history-messages';

/** The digests of the answer a question says it holds (absent: none). */
export interface HeldMetrics {
  readonly keys?: string | undefined;
  readonly answer?: string | undefined;
}

/**
 * SHA-1 in hex (metricsKeysDigestFormat) of the keys' JSON, not a join, so that no two key lists share
 * a text. Not a secret: it only tells two answers' keys apart.
 */
export function metricsKeysDigest(keys: readonly string[]): string {
  return sha1(JSON.stringify(keys));
}

/** SHA-1 in hex of the whole answer: its keys' digest, its timestamp, window and values. */
function answerDigest(metrics: RecordedMetrics, keysDigest: string): string {
  return sha1(
    keysDigest + JSON.stringify([metrics.timestamp, metrics.windowMs, metrics.cpu, metrics.memory]),
  );
}

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

/** `metrics` with its digests, less what `held` says the asker has (see RecordedMetrics). */
export function withDigests(metrics: RecordedMetrics, held: HeldMetrics): RecordedMetrics {
  if (metrics.keys.length === 0) return metrics;
  const keysDigest = metricsKeysDigest(metrics.keys);
  const digests = { keysDigest, answerDigest: answerDigest(metrics, keysDigest) };
  if (digests.answerDigest === held.answer)
    return { ...metrics, keys: [], cpu: [], memory: [], ...digests, unchanged: true };
  if (keysDigest === held.keys) return { ...metrics, keys: [], ...digests, keysHeld: true };
  return { ...metrics, ...digests };
}
