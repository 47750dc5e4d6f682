// When the embedded cluster sends a watch its next BOOKMARK, as kube-apiserver's watch cache does
// (staging/src/k8s.io/apiserver/pkg/storage/cacher: cacher.go's defaultBookmarkFrequency = 1 minute,
// and cache_watcher.go's nextBookmarkTime):
// - roughly every minute, counted from the watch's start and then from each bookmark sent, whatever
//   other events it carried;
// - one 2 s before the watch's deadline (its timeoutSeconds), so a client re-watching after the
//   timeout resumes from an RV as fresh as possible; none after that;
// - none for watches without allowWatchBookmarks (and, in a real server, none for watches served
//   from etcd with the watch cache off).
// The real cacher dispatches on a timer jittered to 1-1.25 s over 1 s buckets, so its gaps are
// 60-61 s; the simulator sends each bookmark at its exact time, which the Reflector cannot tell apart.

/** The interval of the periodic bookmarks (cacher.go defaultBookmarkFrequency). */
export const defaultBookmarkFrequencyMs = 60_000;

/** How long before its deadline a watch gets its last bookmark (cache_watcher.go nextBookmarkTime). */
export const bookmarkBeforeDeadlineMs = 2_000;

/**
 * The time of the next bookmark for a watch ending at `deadline` (epoch ms), asked at `now` (the
 * watch's start, or the bookmark just sent): the earlier of now + frequency and deadline - 2 s;
 * undefined once that is not after now. (The cacher asks "before now?": its dispatch tick always
 * lands after the pre-timeout time, so it sends that bookmark once; the simulator's timers fire
 * exactly on it, hence "not after".)
 */
export function nextBookmarkTime(now: number, frequencyMs: number, deadline: number): number | undefined {
  const heartbeat = now + frequencyMs;
  const beforeTimeout = deadline - bookmarkBeforeDeadlineMs;
  const next = Math.min(heartbeat, beforeTimeout);
  return next <= now ? undefined : next;
}
