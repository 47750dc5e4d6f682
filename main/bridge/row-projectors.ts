// The row projection of each kind a session shows, one per kind, shared by its live feeds and by
// history replay so that both give the same rows.
import type { GroupVersionResource } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import { RowProjector, defaultPrinter } from './row-projection';
import type { PrinterLookup } from './row-projection';

export class RowProjectors {
  /** By gvrKey, with the resource they project (refresh looks its printer up again). */
  private readonly byKind = new Map<string, { gvr: GroupVersionResource; projector: RowProjector }>();

  constructor(private readonly lookup: PrinterLookup) {}

  projectorFor(gvr: GroupVersionResource): RowProjector {
    const key = gvrKey(gvr);
    let entry = this.byKind.get(key);
    if (!entry) {
      entry = { gvr, projector: new RowProjector(this.lookup(gvr)) };
      this.byKind.set(key, entry);
    }
    return entry.projector;
  }

  /**
   * After discovery reported a change: a kind whose printer is no longer the one its projector has (a
   * CRD's printer columns edited while connected) gets a new projector, which `replaced` is given so
   * the kind's feeds re-project their rows.
   */
  refresh(replaced: (kind: string, projector: RowProjector) => void): void {
    for (const [key, entry] of this.byKind) {
      const printer = this.lookup(entry.gvr) ?? defaultPrinter;
      if (printer === entry.projector.printer) continue;
      const projector = new RowProjector(printer);
      this.byKind.set(key, { gvr: entry.gvr, projector });
      replaced(key, projector);
    }
  }
}
