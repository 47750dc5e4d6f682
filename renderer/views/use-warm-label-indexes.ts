// Keeps the shown kind's label indexes current while the page is idle. They are built when first read
// and caught up from the change log on each later read; the filter bar's first keystroke read them
// all (completion, free text) and paid the build: one keystroke of 390-435 ms in the ui bench at
// 50,000 and 150,000 pods, the first of each session and the first after the log had moved past them
// (an idle minute under churn). Read in idle time about once a second, the build happens once after
// the rows arrive, and each later read replays a second of changes. Live rows only: a replay's rows
// (a playback at 10x) change too fast for reading ahead to be worth its work. The free text's key
// search (packed lower-cased keys) is kept current the same way: built once, its first build was a
// 20-30 ms share of a keystroke at 150,000 pods.
import { useEffect } from 'react';
import type { SubscriptionMirror } from '../store/subscription-mirror';
import { warmTextSearch } from '../store/text-match';

const readEveryMs = 1000;

export function useWarmLabelIndexes(mirror: SubscriptionMirror | undefined, hasSnapshot: boolean): void {
  useEffect(() => {
    if (mirror === undefined || !hasSnapshot) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let idle: number | undefined;
    const read = (): void => {
      idle = undefined;
      void mirror.indexes.byLabel;
      warmTextSearch(mirror);
      timer = setTimeout(whenIdle, readEveryMs);
    };
    const whenIdle = (): void => {
      timer = undefined;
      // Only when the page is idle: a busy page (a playback applying 20,000 changes a second) is not
      // given more work, and its first keystroke builds the indexes as before.
      if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(read);
      else read();
    };
    whenIdle();
    return () => {
      if (timer !== undefined) clearTimeout(timer);
      if (idle !== undefined) cancelIdleCallback(idle);
    };
  }, [mirror, hasSnapshot]);
}
