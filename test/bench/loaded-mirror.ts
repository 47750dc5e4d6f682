// A renderer store holding `rows` as one subscription's whole listing, applied: what the renderer
// benches start from before they churn, type or query.
import { ManualFrameScheduler } from '../../renderer/store/frame-scheduler';
import { MirrorStore } from '../../renderer/store/mirror-store';
import type { Row } from '../../shared/protocol/row';

export function loadedMirror(subscriptionId: string, rows: Row[]) {
  const scheduler = new ManualFrameScheduler();
  const store = new MirrorStore({ scheduler });
  const mirror = store.open(subscriptionId);
  store.receive({
    type: 'batch',
    subscriptionId,
    seq: 1,
    replace: true,
    snapshotEnd: true,
    upserts: rows,
    deletes: [],
  });
  scheduler.runFrame();
  return { scheduler, store, mirror };
}
