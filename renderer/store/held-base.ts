// The base a replay mirror's snapshot starts from (DeltaBatch.base), while the snapshot is under way:
// the base's rows as of the batch main compared with (copied at the snapshot's first batch: the
// base's later batches change it, not this copy), the keys the snapshot has changed so far, and for a
// mirror that never showed a moment, how many of the base's rows are written into it (writeAhead,
// a slice a frame) and what its name order carries over from the base's (CarriedOrder).
import type { Row } from '../../shared/protocol/row';
import type { DeltaBatch } from '../../shared/protocol/server-messages';
import type { CarriedOrder } from './carried-order';
import { rankedOrder } from './name-order';
import type { SubscriptionMirror } from './subscription-mirror';

export class HeldBase {
  /** The base's rows as of the snapshot's first batch (an array: a Map copy of 50,000 rows was 60 ms). */
  readonly rows: Row[];
  /** Every key the snapshot's batches so far upsert or delete. */
  readonly changed = new Set<string>();
  /** How many of `rows` have been written into the mirror (see slice); the rest wait for the end. */
  private next = 0;
  /** With a carried order: the base's keys in name order, their names and ranks, as of the copy. */
  private readonly carried: CarriedOrder['base'] | undefined;
  /** With a carried order: the changed keys that are the base's, with their names. */
  private readonly inBase = new Map<string, string>();

  /**
   * `written`: the base's rows go into the mirror before the snapshot ends (it never showed a moment,
   * or the base is its own rows, then nothing is copied); `carried`: the mirror's name order is to
   * start from the base's (a mirror that never showed a moment, against another's rows).
   */
  constructor(
    readonly mirror: SubscriptionMirror,
    readonly written: boolean,
    own: boolean,
    carried: boolean,
  ) {
    this.rows = own ? [] : [...mirror.rows.values()];
    this.carried = carried ? rankedOrder(mirror) : undefined;
  }

  /** True when the mirror's name order starts from the base's (see CarriedOrder). */
  get carries(): boolean {
    return this.carried !== undefined;
  }

  /** The base's rows still to write into a mirror they are written into before the end. */
  get ahead(): number {
    return this.written ? this.rows.length - this.next : 0;
  }

  /**
   * Notes the keys `batch` changes, `rows` being the mirror's rows before it applies; returns its
   * upserts the base (as it is now) lacks. A key changed for the first time whose row the mirror
   * holds already is one of the base's, written ahead (the mirror held nothing else before this
   * snapshot): the carried order learns it here.
   */
  note(batch: DeltaBatch, rows: ReadonlyMap<string, Row>): Row[] {
    const { changed, inBase } = this;
    const carries = this.carries;
    const noteKey = (key: string): void => {
      if (carries && !changed.has(key)) {
        const written = rows.get(key);
        if (written) inBase.set(key, written.name);
      }
      changed.add(key);
    };
    const added: Row[] = [];
    for (const row of batch.upserts) {
      noteKey(row.key);
      if (!this.mirror.rows.has(row.key)) added.push(row);
    }
    for (const key of batch.deletes) noteKey(key);
    return added;
  }

  /**
   * The next up to `maxRows` of the base's rows to write (at least one), less those whose key the
   * snapshot changed (never written over the snapshot's own), and how many were looked at.
   */
  slice(maxRows: number): { rows: Row[]; looked: number } {
    const { rows, changed, next, inBase } = this;
    const to = Math.min(rows.length, next + Math.max(1, maxRows));
    const slice: Row[] = [];
    for (let index = next; index < to; index++) {
      const row = rows[index];
      if (!changed.has(row.key)) slice.push(row);
      // A base row the snapshot changed before it was written: the carried order learns it here.
      else if (this.carried) inBase.set(row.key, row.name);
    }
    this.next = to;
    return { rows: slice, looked: to - next };
  }

  /** The base's rows the snapshot left as they are (for a base whose rows are not written ahead). */
  unchanged(): Row[] {
    return this.rows.filter((row) => !this.changed.has(row.key));
  }

  /** The order to carry, once every row is written and the mirror's log is at `position`. */
  carriedOrder(position: number): CarriedOrder | undefined {
    const base = this.carried;
    return base && { base, changed: this.changed, inBase: this.inBase, position };
  }
}
