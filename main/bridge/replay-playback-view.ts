// A replay's rows as a player moves them (PlaybackView): each recorded change applied to them is an
// add, an update or a delete of the renderer's rows, by the keys it holds (HeldKeys); a jump rebuilds
// them as a travel does: against the live rows the travel could use, else whole (a playback's
// changes moved them off any moment held whole), or against the moment held (a jump before the
// first move) when that is the fairer base (see ReplaySubscription.rebuild).
import type { Clock } from '../cache/clock';
import type { RecordedChange } from '../history/recorded-change';
import { objectKey } from '../../shared/protocol/row';
import type { Row } from '../../shared/protocol/row';
import type { BatchStream } from './batch-stream';
import type { HeldKeys } from './held-keys';
import type { MomentReads, PlaybackView } from './player';
import type { ReplayCursor } from './replay-cursor';
import type { RowProjector } from './row-projection';

/** What of a replay its playback moves. */
export interface PlayedReplay {
  readonly cursor: ReplayCursor;
  readonly stream: BatchStream;
  readonly keys: HeldKeys;
  readonly projector: RowProjector;
  readonly clock: Clock;
  readonly closed: () => boolean;
  /** The rows move on from any moment held whole (no later one is sent as its difference from it). */
  readonly movedOn: () => void;
  readonly rebuild: (reads: MomentReads, file: string, time: number) => Promise<unknown>;
  readonly stop: () => void;
}

export function replayPlaybackView(replay: PlayedReplay): PlaybackView {
  const { cursor, stream, keys, clock } = replay;
  return {
    moment: () => cursor.moment,
    rendererBehind: () => stream.pendingCount > 0 && stream.isBehind(),
    // The cursor counts a rebuilt moment's rows until the batch ending its snapshot is sent; the
    // renderer acknowledges each batch once applied, and the last one says the moment is on the page
    // (not merely within the unacknowledged batches the stream allows: at 150,000 pods those are
    // seconds of the page's work).
    rebuiltRowsPending: () => cursor.rebuilding !== undefined || stream.lastAcknowledgedSeq < stream.lastSeq,
    apply: (change) => {
      cursor.moment = change.time;
      replay.movedOn();
      const { key, row } =
        'json' in change ? projected(replay, JSON.parse(change.json) as RecordedChange) : change;
      const held = keys.all();
      if (!row) {
        if (held.delete(key)) stream.record({ type: 'deleted', key });
        return;
      }
      const known = held.has(key);
      held.add(key);
      stream.record(known ? { type: 'updated', row } : { type: 'added', row });
    },
    // The rows of the moment go out before its cursor, not up to a flush interval after it.
    flush: () => stream.flush(),
    rebuild: (reads, file, time) => {
      // A jump's moment is rebuilt whole, not caught up to; it lands once its rows are on the page.
      cursor.catchingUp = false;
      cursor.landing = true;
      const rebuilt = replay.rebuild(reads, file, time);
      void rebuilt.then(
        () => keys.hashAhead(clock, replay.closed),
        () => {},
      );
      return rebuilt;
    },
    hold: (moment, gap, catchingUp) => {
      cursor.landing = false;
      cursor.moment = moment;
      cursor.gap = gap;
      cursor.catchingUp = catchingUp;
    },
    announce: () => cursor.announce(),
    ended: () => replay.stop(),
  };
}

/** A change read as JSON (a kind the worker does not project): its key, and its row unless deleted. */
function projected(replay: PlayedReplay, change: RecordedChange): { key: string; row?: Row } {
  const key = objectKey(change.namespace, change.name);
  if (change.type === 'Deleted' || !change.object) return { key };
  return { key, row: replay.projector.project(change.object, replay.clock.now()) };
}
