// The last moment a query worker made (see MomentRows): its rows by change, kept so that the next
// moment makes only the rows that differ from it, or is sent as its difference (against it).
import type { MomentRow } from './moment-order';

export interface ProjectedMoment {
  /** Names this moment once whole, for a later one asked as its difference (see RowsMoment.against). */
  readonly id: number;
  /** The file and when it was created: a recording replaced at the same path numbers changes anew. */
  readonly recording: string;
  readonly gvr: string;
  readonly namespace: string | undefined;
  /** Change id -> the row projected from the version it holds, as JSON text. */
  readonly rows: Map<number, MomentRow>;
  /**
   * Sent against the live rows: the rows they held as they are, never made (no text, ranked nowhere),
   * which the renderer holds too. Kept as the list liveMoment gave: putting 150,000 of them in `rows`
   * at every travel from live was a sixth of the worker's travel, and only a moment asked against
   * this one reads them (see holds).
   */
  readonly held: readonly MomentRow[];
  /** The changes of `held`, once a moment asked against this one needed them. */
  heldChanges?: Set<number>;
}

/** Whether `moment` holds the row of change `change` (made, or held as the live rows held it). */
export function holds(moment: ProjectedMoment, change: number): boolean {
  if (moment.rows.has(change)) return true;
  if (moment.held.length === 0) return false;
  moment.heldChanges ??= new Set(moment.held.map((row) => row.change));
  return moment.heldChanges.has(change);
}
