// What a renderer's mirror of a live subscription holds, as far as main can know it: the rows of every
// batch sent so far, applied as the mirror applies them. A travel from live sends the moment as its
// difference from these rows (see DeltaBatch.base): at 2,000 changes a second a moment 10 s ago
// shares most of its 150,000 rows with the present, and sending them all again was about 80 MB of
// JSON for main to relay and the page to parse.
//
// A replay compares the moment with the rows as they were at one batch (its base), over the seconds
// the moment takes to rebuild while live batches go on: a BaseRows keeps, for each key changed since,
// its row as of the base (copy on write), so it stays exactly the rows the renderer copies.
import type { Row } from '../../shared/protocol/row';
import type { LiveJournal } from '../history/query-protocol';
import { IdentityJournal } from './identity-journal';

/** The rows a renderer held once batch `seq` was applied, unchanged by the batches sent after it. */
export interface BaseRows {
  readonly seq: number;
  /** How many rows it holds. */
  readonly size: number;
  get(key: string): Row | undefined;
  /** Every key held at `seq`. */
  keys(): IterableIterator<string>;
  /** Every key held at `seq`, as an array (at once, where `keys` yields them one by one). */
  keyList?(): string[];
  /** Stops keeping rows for it: call once done with it. */
  release(): void;
  /**
   * The rows' identities as the batches of their journal the query worker has not read, up to this
   * base (see IdentityJournal), when kept; undefined when not (then see restartJournal).
   */
  readonly journal?: LiveJournal;
  /**
   * Starts the journal again (when `journal` is undefined): its batch 0, which the caller sends
   * itself, is a listing of these rows (listJournal). Call in the task that took the base.
   */
  restartJournal?(): number;
  /** The worker read the journal's batches of `epoch` before number `at` (see LiveListings). */
  acknowledgeJournal?(epoch: number, at: number): void;
  /** The worker could not read the journal's epoch `epoch`: it is dropped until restarted. */
  dropJournal?(epoch: number): void;
}

export class SentRows {
  /** The renderer's rows after the last batch sent; undefined while a snapshot is under way. */
  private rows: Map<string, Row> | undefined;
  /** The rows of the snapshot under way, until its last batch. */
  private incoming: Map<string, Row> | undefined;
  /** Open bases over `rows`, each with the rows as of its batch of every key changed since. */
  private readonly bases = new Set<{ rows: Map<string, Row>; before: Map<string, Row | undefined> }>();
  /**
   * The identities of the rows sent, for the query worker (see IdentityJournal): read at a travel, and
   * ahead of one (LiveJournalFeed).
   */
  readonly journal = new IdentityJournal();

  /** Records a sent batch (its rows as objects: a live subscription's). */
  sent(batch: {
    upserts: readonly Row[];
    deletes: readonly string[];
    replace?: boolean;
    snapshotEnd?: boolean;
  }): void {
    if (batch.replace) {
      // The mirror keeps its rows until the end and drops those the snapshot never mentioned: until
      // then, what it holds is no base. Open bases keep the old map, never written again.
      this.rows = undefined;
      this.incoming = new Map();
      this.journal.begin();
    }
    const incoming = this.incoming;
    if (incoming !== undefined) {
      for (const row of batch.upserts) incoming.set(row.key, row);
      this.journal.record(batch.upserts, [], incoming.size);
      if (batch.snapshotEnd) {
        this.rows = incoming;
        this.incoming = undefined;
      }
      return;
    }
    const rows = this.rows;
    if (rows === undefined) return;
    // Rows as of an open base are kept only while one is open (a travel's few seconds): a listing's
    // batches, row after row, need not look for one.
    if (this.bases.size > 0) {
      for (const key of batch.deletes) this.keepBefore(rows, key);
      for (const row of batch.upserts) this.keepBefore(rows, row.key);
    }
    for (const key of batch.deletes) rows.delete(key);
    for (const row of batch.upserts) rows.set(row.key, row);
    this.journal.record(batch.upserts, batch.deletes, rows.size);
  }

  /** The rows as of batch `seq` (the last sent), or undefined while a snapshot is under way. */
  base(seq: number): BaseRows | undefined {
    const held = this.rows;
    if (held === undefined) return undefined;
    const rows: Map<string, Row> = held;
    const base = { rows, before: new Map<string, Row | undefined>() };
    this.bases.add(base);
    const journal = this.journal;
    const unread = journal.unread();
    return {
      seq,
      size: rows.size,
      ...(unread ? { journal: unread } : {}),
      restartJournal: () => journal.restart(),
      acknowledgeJournal: (epoch, at) => journal.acknowledge(epoch, at),
      dropJournal: (epoch) => journal.drop(epoch),
      get: (key) => (base.before.has(key) ? base.before.get(key) : rows.get(key)),
      keys,
      // No batch since the base (the travel's own task): the rows' keys are the base's.
      keyList: () => (base.before.size === 0 ? [...rows.keys()] : [...keys()]),
      release: () => {
        this.bases.delete(base);
      },
    };
    // Read a slice per task while batches go on: the keys as of the first read, so that a key the
    // walk passed and a batch changed after is not met again among the changed ones.
    function* keys(): IterableIterator<string> {
      const changed = new Map(base.before);
      const removed: string[] = [];
      for (const [key, row] of changed) if (row !== undefined && !rows.has(key)) removed.push(key);
      const current = [...rows.keys()];
      for (const key of current) if (!changed.has(key) || changed.get(key) !== undefined) yield key;
      yield* removed;
    }
  }

  /** Forgets every row (the stream closed). */
  clear(): void {
    this.rows = undefined;
    this.incoming = undefined;
    this.journal.drop();
  }

  private keepBefore(rows: Map<string, Row>, key: string): void {
    for (const base of this.bases)
      if (base.rows === rows && !base.before.has(key)) base.before.set(key, rows.get(key));
  }
}
