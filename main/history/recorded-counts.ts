// The sidebar's counts at a past moment: how many objects each recorded kind's informer cache held
// then, from the recording's membership (the nearest keyframe plus the changes after it), without
// decoding a single object. A kind recorded both for all namespaces and per namespace is counted from
// its all-namespaces stream; namespace streams are disjoint, so they add up.
import { membersAt } from './stream-state';
import type { ReaderStream, RecordingReader } from './recording-reader';

/**
 * Objects per kind (gvrKey) at `time`. A kind with nothing recorded by then, or nothing left since its
 * last keyframe, is left out: the sidebar shows no count rather than claim a zero it cannot tell apart
 * from "not recorded yet".
 */
export function recordedCounts(reader: RecordingReader, time: number): Record<string, number> {
  const streamsByKind = new Map<string, ReaderStream[]>();
  for (const stream of reader.streams()) {
    const streams = streamsByKind.get(stream.gvr) ?? [];
    streams.push(stream);
    streamsByKind.set(stream.gvr, streams);
  }
  const counts: Record<string, number> = {};
  for (const [gvr, streams] of streamsByKind) {
    const whole = streams.find((stream) => stream.scope === '');
    let count: number | undefined;
    for (const stream of whole ? [whole] : streams) {
      const members = reader.guard(`count of ${gvr} at ${new Date(time).toISOString()}`, undefined, () =>
        membersAt(reader.database, stream.id, time),
      );
      // Neither a keyframe nor a change by then: the kind was not being recorded yet.
      if (!members || (members.keyframeTime === undefined && members.members.size === 0)) continue;
      count = (count ?? 0) + members.members.size;
    }
    if (count !== undefined) counts[gvr] = count;
  }
  return counts;
}
