// The sidebar's counts at a past moment: how many objects each recorded kind's informer cache held
// then, from the recording's membership (the nearest keyframe plus the changes after it), without
// decoding a single object. A kind recorded both for all namespaces and per namespace is counted from
// its all-namespaces stream; namespace streams are disjoint, so they add up. The streams are counted
// together by `counts`, which keeps what it read for the next moment asked (see MemberCounts).
import type { MemberCounts } from './member-counts';
import type { ReaderStream, RecordingReader } from './recording-reader';

/**
 * Objects per kind (gvrKey) at `time`. A kind with nothing recorded by then, or nothing left since its
 * last keyframe, is left out: the sidebar shows no count rather than claim a zero it cannot tell apart
 * from "not recorded yet". So is a kind whose count cannot be read (reported as the reader's problem).
 */
export function recordedCounts(
  reader: RecordingReader,
  time: number,
  counts: MemberCounts,
): Record<string, number> {
  const streamsByKind = new Map<string, ReaderStream[]>();
  for (const stream of reader.streams()) {
    const streams = streamsByKind.get(stream.gvr) ?? [];
    streams.push(stream);
    streamsByKind.set(stream.gvr, streams);
  }
  const counted = new Map<string, readonly ReaderStream[]>();
  for (const [gvr, streams] of streamsByKind) {
    const whole = streams.find((stream) => stream.scope === '');
    counted.set(gvr, whole ? [whole] : streams);
  }
  const moment = new Date(time).toISOString();
  const all = [...counted.values()].flat();
  // Every stream in one call; when a read fails, each kind apart, so that one damaged stream leaves
  // out its kind's count and no other.
  const together = reader.guard(`counts at ${moment}`, undefined, () => counts.countsAt(reader, all, time));
  const byKind: Record<string, number> = {};
  for (const [gvr, streams] of counted) {
    const members =
      together ??
      reader.guard(`count of ${gvr} at ${moment}`, undefined, () => counts.countsAt(reader, streams, time));
    let count: number | undefined;
    for (const stream of streams) {
      // Undefined: neither a keyframe nor a member by then (the kind was not being recorded yet).
      const size = members?.get(stream.id);
      if (size !== undefined) count = (count ?? 0) + size;
    }
    if (count !== undefined) byKind[gvr] = count;
  }
  return byKind;
}
